"""A document's quick fixes as plain code-point edits (`Fix`), for the editor and the CLI.

- an unresolved `tool` / std-module name used as a receiver or callee gets
  `use mod.tool` / `use mod.std.<name>`;
- an unresolved name that is the last segment of exactly one path of a valid
  module catalog gets `use mod.<path>`;
- compatibility syntax the checker rejects is rewritten: `var` -> `let`,
  a single-quoted string -> a double-quoted one, a trailing comma removed;
- catalog advice gets fixes chosen by each finding's code (`_BUILDERS`):
  `unlisted-tool`, `unlisted-module-member` and `unknown-input-field` replace
  the name with each close listed name (did-you-mean, catalogs/suggest.py);
  `tool-format-mismatch` calls the tool through the method of its format;
  `missing-input-field` inserts the missing required fields into the record
  literal with typed placeholders, in the record's one-line or multi-line
  style.

Imports are inserted on a new line after the last top-level `use` (or at the
top). Only fixes whose span intersects the requested range are offered.
`features/code_actions` offers them as code actions; `octoscript check
--fix` and the editor's fix-all action apply the safe ones (fix_all.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..catalogs.model import FieldType, ModuleField
from ..catalogs.store import CatalogStore
from ..catalogs.suggest import closest_names
from ..syntax.check import SyntaxResult
from ..syntax.codes import SyntaxCode
from ..syntax.formatter import INDENT
from ..syntax.member_calls import is_receiver_or_callee
from ..syntax.tokens import CLOSERS, RESERVED_WORDS, Kind, Token, first_token_from
from ..syntax.trivia import as_double_quoted_body, single_quoted_end
from .advice import (
    CODE_MISSING_INPUT,
    CODE_TOOL_FORMAT,
    CODE_UNKNOWN_INPUT,
    CODE_UNLISTED_MEMBER,
    CODE_UNLISTED_TOOL,
    Finding,
    RecordLiteral,
    findings,
)
from .document import DocumentAnalysis
from .surfaces import STD_MODULE_NAMES, TOOL_BINDING, TOOL_MODULE_PATH, std_module


@dataclass(frozen=True, slots=True)
class Fix:
    """One candidate quick fix in code-point offsets (`features/code_actions`
    offers it); `span` is what the fix is about (it must meet the requested
    range), `about` the catalog finding it repairs, listed in the action's
    `diagnostics`; `preferred` marks the one fix an editor may apply unasked."""

    title: str
    span: tuple[int, int]
    edit: tuple[int, int, str]
    about: Finding | None = None
    preferred: bool = False


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
    first = max(0, first_token_from(tokens, range_start) - 1)
    last = min(len(tokens), first_token_from(tokens, range_end) + 1)
    return range(first, last)


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
            token_index = first_token_from(tokens, start)
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


# --------------------------------------------------------------------------- catalog advice

PLACEHOLDERS = {
    FieldType.STRING: '""',
    FieldType.NUMBER: "0",
    FieldType.INTEGER: "0",
    FieldType.BOOLEAN: "false",
    FieldType.OBJECT: "{}",
    FieldType.ARRAY: "[]",
    FieldType.NULL: "nil",
    FieldType.ANY: "nil",
}


def catalog_fixes(
    analysis: DocumentAnalysis, range_start: int, range_end: int, catalogs: CatalogStore | None
) -> list[Fix]:
    if catalogs is None:
        return []
    found: list[Fix] = []
    for finding in findings(analysis, catalogs):
        build = _BUILDERS.get(finding.code)
        if build is None:
            continue
        for fix in build(analysis.source, finding):
            if fix.span[0] <= range_end and range_start <= fix.span[1]:
                found.append(fix)
    return found


def _did_you_mean(finding: Finding, span: tuple[int, int], quote: bool) -> list[Fix]:
    if finding.typed is None:
        return []
    out = []
    for rank, name in enumerate(closest_names(finding.typed, finding.candidates)):
        text = f'"{name}"' if quote else name
        out.append(
            Fix(
                f"Did you mean `{name}`?",
                (finding.start, finding.end),
                (span[0], span[1], text),
                finding,
                preferred=rank == 0,
            )
        )
    return out


def _format_fixes(source: str, finding: Finding) -> list[Fix]:
    """Call the listed tool through the method of its format."""
    if finding.name_span is None or not finding.candidates:
        return []
    method = finding.candidates[0]
    start, end = finding.name_span
    return [Fix(f"Use `tool.{method}`", (start, finding.end), (start, end, method), finding)]


def _fill_fixes(source: str, finding: Finding) -> list[Fix]:
    record = finding.record
    if record is None or not finding.missing:
        return []
    members = [f"{field.name}: {placeholder(field)}" for field in finding.missing]
    edit = (
        _multiline_insert(source, record, members)
        if record.multiline
        else _one_line_insert(record, members)
    )
    title = "Add required input field" + ("s" if len(members) > 1 else "")
    return [Fix(title, (finding.start, record.close_start + 1), edit, finding, preferred=True)]


def placeholder(field: ModuleField) -> str:
    return PLACEHOLDERS[field.type]


def _one_line_insert(record: RecordLiteral, members: list[str]) -> tuple[int, int, str]:
    joined = ", ".join(members)
    if not record.keys:
        # `{}` or `{ }` becomes `{a: ""}`.
        return (record.open_end, record.close_start, joined)
    return (record.last_end, record.last_end, ", " + joined)


def _multiline_insert(
    source: str, record: RecordLiteral, members: list[str]
) -> tuple[int, int, str]:
    newline = "\r\n" if "\r\n" in source[record.open_end : record.close_start + 1] else "\n"
    close_line = source.rfind("\n", 0, record.close_start) + 1
    closing_indent = _leading_space(source, close_line, record.close_start)
    indent = _member_indent(source, record)
    if indent is None:
        indent = (closing_indent or "") + INDENT
    lines = [indent + member for member in members]
    if closing_indent is not None:
        # `}` starts its line: add whole lines just above it.
        return (close_line, close_line, "".join(line + newline for line in lines))
    # `}` ends the last member's line: break before it.
    open_line = source.rfind("\n", 0, record.open_end) + 1
    base = source[open_line : _first_non_space(source, open_line)]
    text = "".join(newline + line for line in lines) + newline + base
    return (record.close_start, record.close_start, text)


def _member_indent(source: str, record: RecordLiteral) -> str | None:
    """The indentation of the first key that starts its own line."""
    for _, start, _ in record.keys:
        line = source.rfind("\n", 0, start) + 1
        indent = _leading_space(source, line, start)
        if indent is not None:
            return indent
    return None


def _leading_space(source: str, line_start: int, offset: int) -> str | None:
    """source[line_start:offset] when it is only spaces and tabs, else None."""
    text = source[line_start:offset]
    return text if text.strip(" \t") == "" else None


def _first_non_space(source: str, offset: int) -> int:
    while offset < len(source) and source[offset] in " \t":
        offset += 1
    return offset


_BUILDERS: dict[str, Callable[[str, Finding], list[Fix]]] = {
    # The finding covers the whole literal (quotes included) or the key.
    CODE_UNLISTED_TOOL: lambda _, found: _did_you_mean(found, (found.start, found.end), True),
    # The finding covers `receiver.method`; only the method name changes.
    CODE_UNLISTED_MEMBER: lambda _, found: (
        _did_you_mean(found, found.name_span, False) if found.name_span else []
    ),
    CODE_TOOL_FORMAT: _format_fixes,
    CODE_UNKNOWN_INPUT: lambda _, found: _did_you_mean(found, (found.start, found.end), False),
    CODE_MISSING_INPUT: _fill_fixes,
}
