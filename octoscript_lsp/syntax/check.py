"""One entry point from source text to everything the syntax layer knows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..limits import (
    MAX_SOURCE_BYTES,
    MAX_SYNTAX_DIAGNOSTICS,
    MAX_SYNTAX_NESTING,
    MAX_SYNTAX_TOKENS,
)
from .diagnostics import Diagnostic, LineIndex, line_starts_after_edit
from .formatter import format_tokens
from .lexer import LexResult, edit_extent, retokenize, tokenize
from .outline import Declaration, valid_source_declarations
from .parse_result import ParseResult, TailReuse
from .parser import parse
from .statements import EMPTY_MEMO
from .vm_compat import VmMemo, vm_diagnostics_reusing


class SourceTooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(
            f"source is {size} bytes; Octoscript accepts at most {MAX_SOURCE_BYTES} bytes"
        )
        self.size = size


class SyntaxRejected(Exception):
    def __init__(self, result: SyntaxResult) -> None:
        super().__init__("source is not canonical Octoscript")
        self.result = result


def utf8_length(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def byte_offsets(source: str) -> Callable[[int], int]:
    """Code-point offset -> UTF-8 byte offset, cheap for ASCII text."""
    if source.isascii():
        return lambda offset: offset
    prefix = [0]
    total = 0
    for char in source:
        total += utf8_length(char)
        prefix.append(total)
    return prefix.__getitem__


@dataclass(slots=True)
class SyntaxResult:
    """Tokens, tree, scope events and the checker's verdict for one source text.

    `diagnostics` follow the checker: lexical problems alone when there are
    any (the parser's view of a broken token stream is not reported), else the
    parser's. The parse itself always runs, because editor features still
    serve the prefix before the first error.
    """

    source: str
    lex: LexResult
    parsed: ParseResult
    lines: LineIndex
    # What the runtime's parser rejects in canonically valid source.
    vm: list[Diagnostic] = field(default_factory=list)
    # Those findings per top-level step, for the next version.
    vm_memo: VmMemo = EMPTY_MEMO

    @property
    def tokens(self):
        return self.lex.tokens

    @property
    def diagnostics(self) -> list[Diagnostic]:
        if self.lex.diagnostics or self.lex.truncated:
            return self.lex.diagnostics
        if self.parsed.diagnostics or self.parsed.truncated:
            return self.parsed.diagnostics
        return self.vm

    @property
    def diagnostics_truncated(self) -> bool:
        if self.lex.diagnostics or self.lex.truncated:
            return self.lex.truncated
        return self.parsed.truncated

    @property
    def valid(self) -> bool:
        return not self.diagnostics and not self.diagnostics_truncated

    def line_column(self, offset: int) -> tuple[int, int]:
        return self.lines.line_column(offset)


def analyze_syntax(
    source: str,
    max_tokens: int = MAX_SYNTAX_TOKENS,
    max_nesting: int = MAX_SYNTAX_NESTING,
    previous: SyntaxResult | None = None,
) -> SyntaxResult:
    """Lex and parse; raises SourceTooLarge past the source budget.

    With `previous` (the result for an earlier version of the same document)
    the unchanged leading part is reused; the result is identical to a fresh
    analysis.
    """
    size = utf8_length(source)
    if size > MAX_SOURCE_BYTES:
        raise SourceTooLarge(size)
    if previous is None:
        lex = tokenize(source, max_tokens)
        parsed = parse(lex.tokens, max_nesting)
        lines = LineIndex(source)
    else:
        old = previous.source
        # Compared once, for the lexer, the parser and the line starts.
        unchanged, same_tail = edit_extent(old, source)
        lex, shared = retokenize(source, old, previous.lex, max_tokens, (unchanged, same_tail))
        tail = _tail_reuse(source, previous, lex, same_tail)
        parsed = parse(lex.tokens, max_nesting, previous.parsed, shared, tail)
        starts = line_starts_after_edit(
            previous.lines.line_starts, len(old), source, unchanged, same_tail
        )
        lines = LineIndex(source, starts)
    result = SyntaxResult(source, lex, parsed, lines)
    memo = previous.vm_memo.advanced(parsed.kept) if previous is not None else EMPTY_MEMO
    if result.valid:
        found, memo = vm_diagnostics_reusing(source, lex, parsed, memo)
        result.vm = found[:MAX_SYNTAX_DIAGNOSTICS]
    result.vm_memo = memo
    return result


def _tail_reuse(source: str, previous: SyntaxResult, lex: LexResult, tail: int) -> TailReuse | None:
    """The unchanged tail (`tail` characters) shared with `previous`, when token
    budgets allow reuse."""
    if lex.token_limit_offset is not None or previous.lex.token_limit_offset is not None:
        return None
    old = previous.source
    if tail == 0:
        return None
    return TailReuse(previous.parsed, previous.lex, lex, len(source) - len(old), len(source) - tail)


def check_source(source: str) -> SyntaxResult:
    return analyze_syntax(source)


def format_source(source: str) -> str:
    """Canonical text of valid source; raises SyntaxRejected or SourceTooLarge."""
    result = analyze_syntax(source)
    if not result.valid:
        raise SyntaxRejected(result)
    return format_tokens(source, result.tokens, MAX_SYNTAX_TOKENS)


def outline(result: SyntaxResult) -> list[Declaration]:
    if not result.valid:
        return []
    return valid_source_declarations(result.source, result.lex, result.parsed.units)
