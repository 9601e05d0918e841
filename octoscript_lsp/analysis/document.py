"""Per-version document analysis: parsed once, derived views computed lazily."""

from __future__ import annotations

from functools import cached_property

from ..limits import MAX_SYNTAX_TOKENS
from ..syntax.check import SourceTooLarge, SyntaxResult, analyze_syntax
from ..syntax.formatter import FormattedSourceTooLarge, format_statements
from ..syntax.outline import Declaration, StatementOutline, outline_of, placed_declarations
from ..syntax.statements import HEAD, Statement
from ..syntax.text import has_bare_carriage_return
from ..syntax.tree import SymbolKind
from .aliases import AliasGraph
from .records import RecordReport
from .sites import DelimiterIndex, TextRegions, settles
from .statement_facts import (
    STATEMENT_FACTS,
    ImportReport,
    PrefixFacts,
    anchored_facts,
    import_report,
    whole_text_facts,
)
from .statement_index import LEXICAL_SUMMARY, StatementIndex, UnitSummary, index_of, lexical_summary
from .tool_call_review import EMPTY_HINTS, HintReport, collect_hints


class DocumentAnalysis:
    """Everything the features read about one version of one document.

    Built once per (uri, version); every request reads it. Views that only
    some requests need are `cached_property`s so they cost nothing until used.
    """

    def __init__(
        self,
        source: str,
        version: int | None = None,
        previous: DocumentAnalysis | None = None,
    ) -> None:
        self.source = source
        self.version = version
        self.too_large: SourceTooLarge | None = None
        self.syntax: SyntaxResult | None = None
        try:
            earlier = previous.syntax if previous is not None else None
            self.syntax = analyze_syntax(source, previous=earlier)
        except SourceTooLarge as error:
            # Kept without its traceback: the frames it was raised through
            # hold this analysis and its source, a cycle only the collector
            # frees (and never, once an opened document is frozen).
            self.too_large = error.with_traceback(None)

    @property
    def valid(self) -> bool:
        return self.syntax is not None and self.syntax.valid

    @cached_property
    def diagnostic_prefix_end(self) -> int:
        """Offset of the earliest reported diagnostic (the whole text if valid)."""
        syntax = self.syntax
        if syntax is None:
            return 0
        if syntax.valid:
            return len(self.source)
        if not syntax.diagnostics:
            return 0
        if has_bare_carriage_return(self.source):
            return _prefix_through_line_columns(self.source, syntax)
        return min(diagnostic.offset for diagnostic in syntax.diagnostics)

    @cached_property
    def metadata_prefix_end(self) -> int:
        """Like `diagnostic_prefix_end`, but also before the parser's first error.

        When lexical errors are reported the parser's own complaints are not,
        yet it may have stumbled earlier; source metadata stops at either.
        """
        first = self.diagnostic_prefix_end
        syntax = self.syntax
        if syntax is None or syntax.valid or first == 0:
            return first
        parser_first = syntax.first_parse_problem
        return first if parser_first is None else min(first, parser_first)

    @cached_property
    def outline(self) -> list[Declaration]:
        """Top-level `fn` and `let` declarations; only valid source has any."""
        return [item for piece in self.outline_pieces for item in placed_declarations(piece)]

    @cached_property
    def outline_pieces(self) -> list[StatementOutline]:
        """`outline` by top-level statement, statements without any left out:
        (its offset, its declarations relative to it)."""
        syntax = self.syntax
        if syntax is None or not syntax.valid:
            return []
        return outline_of(syntax.statements)

    @cached_property
    def formatted(self) -> str | None:
        """The canonical text of valid source; None past the output budget."""
        syntax = self.syntax
        if syntax is None or not syntax.valid:
            return None
        try:
            return format_statements(syntax.statements, MAX_SYNTAX_TOKENS)
        except FormattedSourceTooLarge:
            return None

    @cached_property
    def regions(self) -> TextRegions:
        return TextRegions(self.source)

    @cached_property
    def delimiters(self) -> DelimiterIndex:
        return DelimiterIndex(self.source, self.regions, self._delimiter_scan_start)

    def _delimiter_scan_start(self, offset: int) -> int:
        """The start of the statement holding `offset` when every statement
        before it settles the delimiter scan (`sites.settles`, a statement
        view), else the top."""
        if self.syntax is None:
            return 0
        found = self.syntax.statements
        position = found.at(offset)
        if position <= 0:
            return 0
        earlier = [found.head, *found.statements[:position]]
        if all(not item.in_comment and item.view(SETTLES, _settles) for item in earlier):
            return found.starts[position]
        return 0

    @cached_property
    def completion_index(self) -> StatementIndex:
        """The lexical index of the whole parse, broken source included.

        Completion and signature help use it together with the safe prefix.
        """
        if self.syntax is None:
            return StatementIndex([], 0)
        return index_of(self.syntax.statements, len(self.source))

    @cached_property
    def statement_summaries(self) -> list[tuple[int, UnitSummary]]:
        """(offset, lexical summary) per top-level statement: its bindings,
        references and sites, relative to it (`statement_index.summarize_unit`,
        the one replay of scope events)."""
        assert self.syntax is not None
        return self.syntax.statements.values(LEXICAL_SUMMARY, lexical_summary)

    @cached_property
    def lexical(self) -> StatementIndex:
        """The navigation index: only valid source has one."""
        return self.completion_index if self.valid else StatementIndex([], 0)

    @cached_property
    def statement_facts(self) -> PrefixFacts:
        """Each top-level statement's record shapes, alias edges and imports
        (those inside the metadata prefix count)."""
        syntax = self.syntax
        if syntax is None:
            return PrefixFacts([], 0)
        if syntax.statements.plain and syntax.lex.token_limit_offset is not None:
            # Statement texts no longer determine their tokens: one piece, scanned plainly.
            return whole_text_facts(syntax.tokens, syntax.parsed.events, self.metadata_prefix_end)
        pieces = syntax.statements.values(STATEMENT_FACTS, anchored_facts)
        return PrefixFacts(pieces, self.metadata_prefix_end)

    @cached_property
    def imports(self) -> ImportReport:
        return import_report(self.statement_facts)

    @cached_property
    def records(self) -> RecordReport:
        """Static record shapes and alias edges inside the metadata prefix."""
        return RecordReport(self.statement_facts)

    @cached_property
    def hints(self) -> HintReport:
        """Tool-call review hints; only valid source has any."""
        if self.syntax is None or not self.valid:
            return EMPTY_HINTS
        return collect_hints(self.syntax, self.lexical, self.imports, self.aliases)

    @cached_property
    def aliases(self) -> AliasGraph:
        """Exact `let a = b[.c[.d]]` edges inside the metadata prefix, resolved on demand."""
        return AliasGraph(self.source, self.completion_index, self.records)

    def visible_import(self, name_start: int, name_end: int):
        """The `use` record of the binding a receiver name resolves to, if it is one."""
        if name_end > self.diagnostic_prefix_end or name_end > self.metadata_prefix_end:
            return None
        symbol = self.completion_index.visible(self.source[name_start:name_end], name_start)
        if symbol is None or symbol.kind is not SymbolKind.IMPORT:
            return None
        return self.imports.for_binding(symbol.start, symbol.end)


def _prefix_through_line_columns(source: str, syntax: SyntaxResult) -> int:
    """The reference maps each diagnostic's line/column back to an offset while
    counting a bare CR as a line break (its checker does not): follow it, and
    fall back to 0 when a position no longer exists."""
    wanted = {syntax.line_column(diagnostic.offset) for diagnostic in syntax.diagnostics}
    found: dict[tuple[int, int], int] = {}
    line, column = 1, 1
    length = len(source)
    for offset, char in enumerate(source):
        if (line, column) in wanted:
            found.setdefault((line, column), offset)
        if char == "\n" or (char == "\r" and (offset + 1 >= length or source[offset + 1] != "\n")):
            line, column = line + 1, 1
        else:
            column += 1
    if (line, column) in wanted:
        found.setdefault((line, column), length)
    if len(found) != len(wanted):
        return 0
    return min(found.values())


SETTLES = "settles the delimiter scan"


def _settles(statement: Statement) -> bool:
    start = statement.origin if statement.step != HEAD else 0
    return settles(statement.build.text[start : statement.end])
