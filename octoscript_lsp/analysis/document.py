"""Per-version document analysis: parsed once, derived views computed lazily."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from ..limits import MAX_SYNTAX_TOKENS
from ..syntax.check import SourceTooLarge, SyntaxResult, analyze_syntax
from ..syntax.formatter import (
    FormattedSourceTooLarge,
    format_by_statement,
    format_tokens,
)
from ..syntax.outline import (
    AnchoredDeclarations,
    Declaration,
    declarations_by_statement,
    placed_declarations,
    top_level_declarations,
)
from ..syntax.statements import EMPTY_MEMO, events_of
from ..syntax.text import has_bare_carriage_return
from ..syntax.tree import SymbolKind
from .aliases import EMPTY_GRAPH, AliasGraph, build_alias_graph
from .imports import ImportReport
from .lexical import EMPTY_INDEX, LexicalIndex, build_lexical_index
from .records import RecordReport, empty_report
from .reuse import Reuse
from .sites import DelimiterIndex, TextRegions
from .statement_facts import PrefixFacts, collect_facts, import_report
from .statement_index import StatementIndex, piecewise_index
from .tool_call_review import EMPTY_HINTS, HintReport, collect_hints
from .unit_summary import Budget, UnitSummary, summarize_unit, unit_summaries

# The views this analysis hands from version to version (`reuse.py`).
LEXICAL_SUMMARIES = "lexical summaries"
STATEMENT_INDEX = "statement index"
STATEMENT_FACTS = "statement facts"
OUTLINE_PIECES = "outline"
FORMATTED_STRETCHES = "formatted stretches"
TEXT_REGIONS = "text regions"
DELIMITER_SCAN = "delimiter scan"


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
        # Everything earlier versions left for this one, and this one leaves
        # for the next (`reuse.py`): the one hand-over between versions.
        self.reuse = Reuse(previous.reuse if previous is not None else None)
        try:
            earlier = previous.syntax if previous is not None else None
            self.syntax = analyze_syntax(source, previous=earlier)
        except SourceTooLarge as error:
            # Kept without its traceback: the frames it was raised through
            # hold this analysis and its source, a cycle only the collector
            # frees (and never, once an opened document is frozen).
            self.too_large = error.with_traceback(None)
        self.reuse.advance(self.syntax.parsed.kept if self.syntax is not None else None)

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
        parser_first = syntax.parsed.first_diagnostic_offset
        return first if parser_first is None else min(first, parser_first)

    @cached_property
    def outline(self) -> list[Declaration]:
        """Top-level `fn` and `let` declarations; only valid source has any."""
        return [item for piece in self.outline_pieces for item in placed_declarations(piece)]

    @cached_property
    def outline_pieces(self) -> list[AnchoredDeclarations]:
        """`outline` by top-level statement, statements without any left out:
        (offset, offset found at, declarations as found); a statement kept
        since the version before keeps its tuple."""
        syntax = self.syntax
        if syntax is None or not syntax.valid:
            return []
        if syntax.lex.token_limit_offset is not None:
            return [
                (item.start, item.start, (item,), -1)
                for item in top_level_declarations(syntax.tokens)
            ]
        found, memo = declarations_by_statement(
            self.source,
            syntax.lex,
            syntax.parsed.units,
            self.reuse.earlier(OUTLINE_PIECES, EMPTY_MEMO),
        )
        self.reuse.hand_on(OUTLINE_PIECES, memo)
        return found

    @cached_property
    def formatted(self) -> str | None:
        """The canonical text of valid source; None past the output budget."""
        syntax = self.syntax
        if syntax is None or not syntax.valid:
            return None
        tokens = syntax.tokens
        try:
            if syntax.lex.token_limit_offset is not None:
                return format_tokens(self.source, tokens, MAX_SYNTAX_TOKENS)
            text, memo = format_by_statement(
                self.source,
                syntax.lex,
                syntax.parsed.units,
                syntax.parsed.unit_offsets,
                MAX_SYNTAX_TOKENS,
                self.reuse.earlier(FORMATTED_STRETCHES, EMPTY_MEMO),
            )
            self.reuse.hand_on(FORMATTED_STRETCHES, memo)
            return text
        except FormattedSourceTooLarge:
            return None

    @cached_property
    def regions(self) -> TextRegions:
        return TextRegions(self.source)

    @cached_property
    def delimiters(self) -> DelimiterIndex:
        return DelimiterIndex(self.source, self.regions)

    @cached_property
    def completion_index(self) -> LexicalIndex | StatementIndex:
        """The lexical index of the whole parse, broken source included.

        Completion and signature help use it together with the safe prefix.
        """
        syntax = self.syntax
        if syntax is None:
            return EMPTY_INDEX
        tokens, parsed = syntax.tokens, syntax.parsed
        if syntax.lex.token_limit_offset is None:
            pieces = self.statement_summaries
            # The version before's index: its by-name tables often still hold.
            earlier = self.reuse.take_once(STATEMENT_INDEX)
            events, units = parsed.events, parsed.units

            def replay(position: int, budget: Budget) -> UnitSummary:
                base = parsed.unit_offsets[position]
                return summarize_unit(tokens, events_of(events, units, position), base, budget)

            index = piecewise_index(
                pieces,
                len(self.source),
                earlier if isinstance(earlier, StatementIndex) else None,
                parsed.kept,
                replay,
            )
            if index is not None:
                self.reuse.hand_on_once(STATEMENT_INDEX, index)
                return index
        return build_lexical_index(tokens, parsed.events, len(self.source))

    @cached_property
    def statement_summaries(self) -> list[tuple[int, UnitSummary]]:
        """(offset, lexical summary) per top-level statement: its bindings,
        references and sites, relative to it (`unit_summary.summarize_unit`,
        the one replay of a statement's scope events). Within the token budget only."""
        return self._per_statement(LEXICAL_SUMMARIES, unit_summaries)

    def _per_statement(self, key: str, collect: Callable[..., tuple[Any, Any]]) -> Any:
        """`collect`'s pieces for this version, reusing the earlier version's
        memo under `key` and handing this one on (one scheme for every
        per-statement view)."""
        syntax = self.syntax
        assert syntax is not None
        parsed = syntax.parsed
        earlier = self.reuse.earlier(key, EMPTY_MEMO)
        pieces, memo = collect(self.source, syntax.lex, parsed.events, parsed.units, earlier)
        self.reuse.hand_on(key, memo)
        return pieces

    @cached_property
    def lexical(self) -> LexicalIndex | StatementIndex:
        """The navigation index: only valid source has one."""
        return self.completion_index if self.valid else EMPTY_INDEX

    @cached_property
    def statement_facts(self) -> PrefixFacts:
        """Each top-level statement's record shapes, alias edges and imports
        (those inside the metadata prefix count)."""
        if self.syntax is None:
            return PrefixFacts([], 0)
        pieces = self._per_statement(STATEMENT_FACTS, collect_facts)
        return PrefixFacts(pieces, self.metadata_prefix_end)

    @cached_property
    def imports(self) -> ImportReport:
        return import_report(self.statement_facts)

    @cached_property
    def records(self) -> RecordReport:
        """Static record shapes and alias edges inside the metadata prefix."""
        if self.syntax is None:
            return empty_report()
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
        if self.syntax is None:
            return EMPTY_GRAPH
        return build_alias_graph(self.source, self.completion_index, self.records)

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
