"""A document's quick fixes as plain code-point edits (`Fix`), for the editor and the CLI.

- an unresolved `tool` / std-module name used as a receiver or callee gets
  `use mod.tool` / `use mod.std.<name>`;
- an unresolved name that is the last segment of exactly one path of a valid
  module catalog gets `use mod.<path>`;
- compatibility syntax the checker rejects is rewritten: `var` -> `let`,
  a single-quoted string -> a double-quoted one, a trailing comma removed;
- catalog advice gets did-you-mean and fill-required-fields fixes
  (catalog_fixes.py).

Imports are inserted on a new line after the last top-level `use` (or at the
top). Only fixes whose span intersects the requested range are offered.
`features/code_actions` offers them as code actions; `octoscript check
--fix` and the editor's fix-all action apply the safe ones (fix_all.py).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..syntax.check import SyntaxResult
from ..syntax.codes import SyntaxCode
from ..syntax.member_calls import is_receiver_or_callee
from ..syntax.tokens import CLOSERS, RESERVED_WORDS, Kind, Token
from ..syntax.trivia import as_double_quoted_body, single_quoted_end
from .catalog_fixes import catalog_fixes
from .document import DocumentAnalysis
from .quick_fix import Fix
from .surfaces import STD_MODULE_NAMES, TOOL_BINDING, TOOL_MODULE_PATH, std_module

if TYPE_CHECKING:
    from ..catalogs.store import CatalogStore

_STATEMENT_STARTS = (Kind.NEWLINE, Kind.SEMICOLON, Kind.LBRACE)


def fixes(
    analysis: DocumentAnalysis, range_start: int, range_end: int, catalogs: CatalogStore | None
) -> list[Fix]:
    """The candidate fixes intersecting [range_start, range_end], in source order."""
    syntax = analysis.syntax
    if syntax is None:
        return []
    found: list[Fix] = []
    found.extend(_import_fixes(analysis, syntax, range_start, range_end, catalogs))
    found.extend(_var_fixes(syntax.tokens, range_start, range_end))
    found.extend(_quote_fixes(analysis.source, syntax, range_start, range_end))
    found.extend(_comma_fixes(syntax.tokens, range_start, range_end))
    found.sort(key=lambda fix: (fix.span, fix.title))
    # Catalog fixes keep their own order (nearest suggestion first).
    found.extend(catalog_fixes(analysis, range_start, range_end, catalogs))
    found.sort(key=lambda fix: fix.span)
    return found


def _intersects(start: int, end: int, range_start: int, range_end: int) -> bool:
    return start <= range_end and range_start <= end


def _token_range(tokens: list[Token], range_start: int, range_end: int) -> range:
    """Indices of tokens that may intersect the range (one token of slack each side)."""
    first = max(0, _first_token_at(tokens, range_start) - 1)
    last = min(len(tokens), _first_token_at(tokens, range_end) + 1)
    return range(first, last)


def _first_token_at(tokens: list[Token], offset: int) -> int:
    return bisect_left(tokens, offset, key=lambda token: token.start)


# --------------------------------------------------------------------------- imports


def _import_fixes(
    analysis: DocumentAnalysis,
    syntax: SyntaxResult,
    range_start: int,
    range_end: int,
    catalogs: CatalogStore | None,
) -> list[Fix]:
    candidates = _unresolved_paths(analysis, syntax, range_start, range_end, catalogs)
    if not candidates:
        return []
    existing = _top_level_import_paths(syntax)
    at, prefix, suffix = _import_insertion(analysis.source, syntax)
    result: list[Fix] = []
    seen: set[tuple[str, ...]] = set()
    for path, span in candidates:
        if path in seen or path in existing:
            continue
        seen.add(path)
        line = "use " + ".".join(path)
        result.append(Fix(f"Add `{line}`", span, (at, at, prefix + line + suffix)))
    return result


def _unresolved_paths(
    analysis: DocumentAnalysis,
    syntax: SyntaxResult,
    range_start: int,
    range_end: int,
    catalogs: CatalogStore | None,
) -> list[tuple[tuple[str, ...], tuple[int, int]]]:
    tokens = syntax.tokens
    limit = len(analysis.source) if analysis.valid else analysis.diagnostic_prefix_end
    unresolved = _unresolved(analysis)
    leaves = _catalog_leaves(catalogs)
    found = []
    # Every reference is a site of its statement's summary.
    for base, summary in analysis.statement_summaries:
        for start, end in summary.sites:
            start, end = start + base, end + base
            if end > limit or not _intersects(start, end, range_start, range_end):
                continue
            token_index = _first_token_at(tokens, start)
            path = _path_for(tokens[token_index].text, tokens, token_index, leaves)
            if path is not None and unresolved(tokens[token_index]):
                found.append((path, (start, end)))
    return found


def _path_for(
    name: str, tokens: list[Token], index: int, leaves: dict[str, tuple[str, ...] | None]
) -> tuple[str, ...] | None:
    if name == TOOL_BINDING or name in STD_MODULE_NAMES:
        if not is_receiver_or_callee(tokens, index):
            return None
        return TOOL_MODULE_PATH if name == TOOL_BINDING else std_module(name).path
    return leaves.get(name)


def _catalog_leaves(catalogs: CatalogStore | None) -> dict[str, tuple[str, ...] | None]:
    """Last path segment -> its path when exactly one catalog path ends with it, else None."""
    catalog = catalogs.module_catalog if catalogs is not None else None
    if catalog is None:
        return {}
    leaves: dict[str, tuple[str, ...] | None] = {}
    for descriptor in catalog.descriptors:
        path = tuple(descriptor.path)
        if len(path) < 2 or path[0] != "mod":
            continue
        name = path[-1]
        leaves[name] = path if name not in leaves else None
    return {name: path for name, path in leaves.items() if path is not None}


def _unresolved(analysis: DocumentAnalysis) -> Callable[[Token], bool]:
    """Whether a reference is unresolved, in constant time per reference.

    With a complete index a reference is resolved iff the index recorded it.
    A truncated index stops recording, so then only a name that no binding in
    the whole document declares counts as unresolved.
    """
    index = analysis.completion_index
    if index.truncated:
        # Every binding, as the statements' summaries (no budget) have them.
        summaries = analysis.statement_summaries
        declared = {symbol.name for _, summary in summaries for symbol in summary.symbols}
        return lambda token: token.text not in declared
    resolved = {start for symbol in index.symbols for start, _ in symbol.references}
    return lambda token: token.start not in resolved


def _top_level_import_paths(syntax: SyntaxResult) -> set[tuple[str, ...]]:
    tokens = syntax.tokens
    paths = set()
    for node in syntax.parsed.tree.children:
        if node.kind == "use" and node.children:
            paths.add(tuple(tokens[segment.token].text for segment in node.children))
    return paths


def _import_insertion(source: str, syntax: SyntaxResult) -> tuple[int, str, str]:
    """(offset, text before, text after) for a new import line."""
    last_use = None
    for node in syntax.parsed.tree.children:
        if node.kind == "use":
            last_use = node
    if last_use is None:
        return 0, "", _line_ending(source, 0)
    newline = source.find("\n", last_use.end)
    if newline == -1:
        return len(source), _line_ending(source, 0), ""
    return newline + 1, "", _line_ending(source, last_use.end)


def _line_ending(source: str, offset: int) -> str:
    newline = source.find("\n", offset)
    if newline == -1:
        newline = source.find("\n")
    return "\r\n" if newline > 0 and source[newline - 1] == "\r" else "\n"


# --------------------------------------------------------------------------- rewrites


def _var_fixes(tokens: list[Token], range_start: int, range_end: int) -> list[Fix]:
    """`var name` at a statement start becomes `let name`."""
    result = []
    for index in _token_range(tokens, range_start, range_end):
        token = tokens[index]
        if not token.is_ident("var") or not _intersects(
            token.start, token.end, range_start, range_end
        ):
            continue
        if index > 0 and tokens[index - 1].kind not in _STATEMENT_STARTS:
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or following.kind is not Kind.IDENT:
            continue
        if following.text in RESERVED_WORDS:
            continue
        span = (token.start, token.end)
        result.append(Fix("Replace `var` with `let`", span, (token.start, token.end, "let")))
    return result


def _quote_fixes(source: str, syntax: SyntaxResult, range_start: int, range_end: int) -> list[Fix]:
    result = []
    for diagnostic in syntax.lex.diagnostics:
        start = diagnostic.offset
        if diagnostic.code is not SyntaxCode.SINGLE_QUOTED_STRING:
            continue
        if start >= len(source) or source[start] != "'":
            continue
        found = single_quoted_end(source, start + 1)
        end = found.end
        if not found.closed or not _intersects(start, end, range_start, range_end):
            continue
        text = '"' + as_double_quoted_body(source[start + 1 : end - 1]) + '"'
        result.append(Fix("Use a double-quoted string", (start, end), (start, end, text)))
    return result


def _comma_fixes(tokens: list[Token], range_start: int, range_end: int) -> list[Fix]:
    """A `,` followed (across newlines) by `)`, `]` or `}` is never canonical."""
    result = []
    scan = _token_range(tokens, range_start, range_end)
    first = scan.start
    while first > 0 and tokens[first].kind is Kind.NEWLINE:
        first -= 1
    for index in range(first, scan.stop):
        token = tokens[index]
        if token.kind is not Kind.COMMA:
            continue
        closer = _next_significant(tokens, index + 1)
        if closer is None or closer.kind not in CLOSERS:
            continue
        if not _intersects(token.start, closer.end, range_start, range_end):
            continue
        span = (token.start, token.end)
        result.append(Fix("Remove the trailing comma", span, (token.start, token.end, "")))
    return result


def _next_significant(tokens: list[Token], index: int) -> Token | None:
    while index < len(tokens) and tokens[index].kind is Kind.NEWLINE:
        index += 1
    return tokens[index] if index < len(tokens) else None
