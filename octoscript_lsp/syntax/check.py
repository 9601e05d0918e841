"""One entry point from source text to everything the syntax layer knows."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from ..limits import (
    MAX_SOURCE_BYTES,
    MAX_SYNTAX_DIAGNOSTICS,
    MAX_SYNTAX_NESTING,
    MAX_SYNTAX_TOKENS,
)
from .diagnostics import Diagnostic, LineIndex
from .formatter import format_tokens
from .lexer import LexResult
from .outline import Declaration, outline_of, placed_declarations
from .parse_result import ParseResult
from .statements import (
    Budgets,
    Statements,
    build_statements,
    whole_text_lex,
    whole_text_parse,
)
from .vm_compat import vm_diagnostics_of


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


class SyntaxResult:
    """Tokens, tree, scope events and the checker's verdict for one source text.

    `statements` is the source of truth (`statements.py`); `lex` and `parsed`
    show the whole text at once for the views that read it so. `diagnostics`
    follow the checker: lexical problems alone when there are any (the
    parser's view of a broken token stream is not reported), else the
    parser's. The parse itself always runs, because editor features still
    serve the prefix before the first error.
    """

    def __init__(self, source: str, statements: Statements) -> None:
        self.source = source
        self.statements = statements
        # What the runtime's parser rejects in canonically valid source.
        self.vm: list[Diagnostic] = []
        if self.canonical:
            self.vm = vm_diagnostics_of(statements)[:MAX_SYNTAX_DIAGNOSTICS]

    @cached_property
    def lex(self) -> LexResult:
        return whole_text_lex(self.statements)

    @cached_property
    def parsed(self) -> ParseResult:
        return whole_text_parse(self.statements)

    @cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.source)

    @property
    def tokens(self):
        return self.lex.tokens

    @cached_property
    def diagnostics(self) -> list[Diagnostic]:
        statements = self.statements
        if statements.plain:
            if self.lex.diagnostics or self.lex.truncated:
                return self.lex.diagnostics
            return self.parsed.diagnostics
        _, lexical, parsing = statements.totals
        if lexical:
            return statements.problems(True, MAX_SYNTAX_DIAGNOSTICS)
        if parsing:
            return statements.problems(False, MAX_SYNTAX_DIAGNOSTICS)
        return self.vm

    @property
    def diagnostics_truncated(self) -> bool:
        statements = self.statements
        if statements.plain:
            if self.lex.diagnostics or self.lex.truncated:
                return self.lex.truncated
            return self.parsed.truncated
        _, lexical, parsing = statements.totals
        return (lexical or parsing) > MAX_SYNTAX_DIAGNOSTICS

    @property
    def first_parse_problem(self) -> int | None:
        """Offset of the parser's first complaint, reported or not."""
        statements = self.statements
        if statements.plain or not statements.totals[2]:
            return self.parsed.first_diagnostic_offset if statements.plain else None
        return min(item.offset for item in statements.problems(False, 1))

    @property
    def canonical(self) -> bool:
        """No lexical or parse problem (the runtime parser's rules aside)."""
        statements = self.statements
        return not statements.plain and statements.totals[1:] == (0, 0)

    @property
    def valid(self) -> bool:
        return self.canonical and not self.vm

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
    its statements are reused; the result is identical to a fresh analysis.
    """
    size = utf8_length(source)
    if size > MAX_SOURCE_BYTES:
        raise SourceTooLarge(size)
    earlier = previous.statements if previous is not None else None
    return SyntaxResult(source, build_statements(source, earlier, Budgets(max_tokens, max_nesting)))


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
    return [item for piece in outline_of(result.statements) for item in placed_declarations(piece)]
