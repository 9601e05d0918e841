"""The document's lexical index, built from per-statement pieces.

A top-level statement's scope events depend only on its own text: the parser
starts every top-level step in the same state, and every scope a step opens
it closes. So each statement is replayed once into a position-independent
`UnitSummary` (`summarize_unit`, the one replay of scope events: offsets
relative to its first token, kept in the statement's cache). The document's
index (`StatementIndex`) is those summaries plus their offsets, built
plainly per version: a query at an offset looks at the one statement there,
and at the top-level bindings of the statements before it, which two by-name
tables (top-level bindings and unresolved references) answer, made on first
use.

Its answers are those of one replay of every event at once (the tests'
reference); the two budgets are settled the same way: sites past
`MAX_LEXICAL_COMPLETION_SITES` are dropped, and nothing is recorded past the
statement where `MAX_LEXICAL_SYMBOL_OCCURRENCES` runs out.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import NamedTuple

from ..limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES
from ..syntax.statements import Statement, Statements
from ..syntax.tokens import Token
from ..syntax.tree import DEFINE, POP, PUSH, REFERENCE, SymbolKind
from .lexical import OPEN_END, Binding, Occurrence, Symbol, innermost_visible


class LocalSymbol(NamedTuple):
    """A binding of one statement, its offsets relative to the statement's first token."""

    kind: SymbolKind
    name: str
    start: int
    end: int
    visible_start: int
    visible_end: int  # may be OPEN_END: visible past its statement
    references: tuple[tuple[int, int], ...]  # resolved inside the statement
    top_level: bool


class FreeName(NamedTuple):
    """A reference no binding inside its statement resolves, relative offsets."""

    name: str
    start: int
    end: int


class UnitSummary(NamedTuple):
    """One top-level statement's bindings, references and sites, relative
    (a named tuple: a first index makes one per statement, and a frozen
    dataclass's `__init__` sets each field through `object.__setattr__`)."""

    symbols: tuple[LocalSymbol, ...]  # in definition order
    free: tuple[FreeName, ...]
    sites: tuple[tuple[int, int], ...]
    occurrences: int  # definitions plus references resolved inside
    balanced: bool  # every scope it opens it closes
    tops: tuple[int, ...]  # positions in `symbols` of its top-level bindings
    ordered: tuple[int, ...]  # positions in `symbols`, by definition start
    # Its top-level names, each with the kind of its last top-level binding:
    # what it leaves visible to later statements.
    exports: dict[str, SymbolKind]
    stopped: bool = False  # the occurrence budget ran out in it


class Budget(NamedTuple):
    """What is left of the occurrence budget when a statement's replay
    starts, and whether a name is bound at top level by an earlier statement
    (a reference no binding inside the statement resolves then counts too)."""

    remaining: int
    resolves: Callable[[str], bool]


def summarize_unit(
    tokens: Sequence[Token], events: Sequence[tuple], base: int, budget: Budget | None = None
) -> UnitSummary:
    """Replay one statement's events with only the top-level scope around them.

    With `budget` the replay records what the plain build records in the
    statement where the occurrence budget runs out: once it is spent, no
    later definition or reference is recorded (sites still are).
    """
    # The bindings made so far, as parallel lists: what each one is (kind,
    # name, start, end, visible start, top-level), where it stops being
    # visible, its references so far, the depth of the scope it was made
    # in. A first index replays every statement: no object per binding
    # until it is closed.
    made: list[tuple[SymbolKind, str, int, int, int, bool]] = []
    visible_ends: list[int] = []
    references: list[list[tuple[int, int]]] = []
    depths: list[int] = []
    # The innermost binding of each name in scope; per open scope, what each
    # of its bindings hid (restored when it closes) and the bindings it made.
    visible: dict[str, int] = {}
    scopes: list[tuple[list[tuple[str, int | None]], list[int]]] = [([], [])]
    free: list[FreeName] = []
    sites: list[tuple[int, int]] = []
    occurrences = 0
    limit = budget.remaining if budget is not None else -1
    spent = 0  # occurrences plus resolved free references, with a budget
    stopped = False
    for event in events:
        tag = event[0]
        if tag == REFERENCE:
            token = tokens[event[1]]
            span = (token.start - base, token.end - base)
            sites.append(span)
            if stopped:
                continue
            index = visible.get(token.text)
            if index is not None:
                if spent == limit:
                    stopped = True
                else:
                    references[index].append(span)
                    occurrences += 1
                    spent += 1
            else:
                if budget is not None and budget.resolves(token.text):
                    if spent == limit:
                        stopped = True
                        continue
                    spent += 1
                free.append(FreeName(token.text, span[0], span[1]))
        elif tag == DEFINE:
            if stopped:
                continue
            if spent == limit:
                stopped = True
                continue
            token = tokens[event[1]]
            name = token.text
            occurrences += 1
            spent += 1
            index = len(made)
            visible_start = event[3] - base
            depth = len(scopes)
            made.append(
                (event[2], name, token.start - base, token.end - base, visible_start, depth == 1)
            )
            visible_ends.append(OPEN_END)
            references.append([])
            depths.append(depth)
            hidden = visible.get(name)
            if hidden is not None and depths[hidden] == depth:
                # A binding of the same scope ends where this one starts.
                visible_ends[hidden] = visible_start
            visible[name] = index
            hid, defined = scopes[-1]
            hid.append((name, hidden))
            defined.append(index)
        elif tag == PUSH:
            scopes.append(([], []))
        elif tag == POP and len(scopes) > 1:
            hid, defined = scopes.pop()
            for name, hidden in reversed(hid):
                if hidden is None:
                    del visible[name]
                else:
                    visible[name] = hidden
            for index in defined:
                if visible_ends[index] == OPEN_END:
                    visible_ends[index] = event[1] - base
    symbols = tuple(
        LocalSymbol(kind, name, start, end, visible_start, visible_end, tuple(found), top_level)
        for (kind, name, start, end, visible_start, top_level), visible_end, found in zip(
            made, visible_ends, references, strict=True
        )
    )
    return UnitSummary(
        symbols,
        tuple(free),
        tuple(sites),
        occurrences,
        len(scopes) == 1,
        tuple(number for number, symbol in enumerate(symbols) if symbol.top_level),
        tuple(sorted(range(len(symbols)), key=lambda number: symbols[number].start)),
        {symbol.name: symbol.kind for symbol in symbols if symbol.top_level},
        stopped,
    )


LEXICAL_SUMMARY = "lexical summary"


def lexical_summary(statement: Statement) -> UnitSummary:
    """A statement's summary, relative to its first token (`Statement.view`)."""
    return summarize_unit(statement.tokens, statement.events, statement.origin)


class _Top(NamedTuple):
    """A top-level binding: its statement's position, its number in the summary."""

    statement: int
    number: int


class _Free(NamedTuple):
    """A reference no binding inside its statement resolves, relative to it."""

    statement: int
    start: int
    end: int


_statement_of = attrgetter("statement")


def index_of(found: Statements, source_length: int) -> StatementIndex:
    """The index over the statements' summaries, cut where the occurrence
    budget runs out (`StatementIndex.cut_at_budget`)."""
    index = StatementIndex(found.values(LEXICAL_SUMMARY, lexical_summary), source_length)
    total = sum(summary.occurrences + len(summary.free) for summary in index._summaries)
    if total <= MAX_LEXICAL_SYMBOL_OCCURRENCES:
        return index
    return index.cut_at_budget(found.statements)


def _sites_only(statement: Statement) -> UnitSummary:
    """A statement past the one where the occurrence budget ran out: the
    whole-text replay records its sites and nothing else."""
    summary = statement.view(LEXICAL_SUMMARY, lexical_summary)
    return UnitSummary((), (), summary.sites, 0, summary.balanced, (), (), {})


_SITES_ONLY = "lexical sites only"


def _site_cut(summaries: list[UnitSummary]) -> tuple[int, int] | None:
    """Where the site budget runs out: (statement position, sites kept in it)."""
    if sum(len(summary.sites) for summary in summaries) <= MAX_LEXICAL_COMPLETION_SITES:
        return None
    left = MAX_LEXICAL_COMPLETION_SITES
    for position, summary in enumerate(summaries):
        if len(summary.sites) > left:
            return position, left
        left -= len(summary.sites)
    return None


class StatementIndex:
    """The lexical index of a document as (offset, summary) per top-level statement.

    Symbols are made on first use (and kept, so one version hands out one
    object per binding); a top-level binding's references in later
    statements and where a later top-level binding of its name ends its
    visibility come from the by-name tables, built on first use.
    """

    def __init__(
        self, pieces: list[tuple[int, UnitSummary]], source_length: int, cut: int | None = None
    ) -> None:
        self.pieces = pieces
        # Where the occurrence budget ran out (the statement's position).
        self.cut = cut
        self.truncated = cut is not None
        self.source_length = source_length
        self.bases = [base for base, _ in pieces]
        self._summaries = [summary for _, summary in pieces]
        self.site_cut = _site_cut(self._summaries)
        self.sites_truncated = self.site_cut is not None
        self.incomplete = self.truncated or self.sites_truncated
        self._tops: dict[str, list[_Top]] = {}
        self._free: dict[str, list[_Free]] = {}
        self._made: dict[tuple[int, int], Symbol] = {}
        self._symbols: list[Symbol] | None = None

    # ------------------------------------------------------------ tables

    def _tops_named(self, name: str) -> list[_Top]:
        """The top-level bindings of `name`, in order (looked up per name:
        a query after a keystroke asks about a name or two)."""
        found = self._tops.get(name)
        if found is None:
            found = self._tops[name] = [
                _Top(position, number)
                for position, summary in enumerate(self._summaries)
                if name in summary.exports
                for number in summary.tops
                if summary.symbols[number].name == name
            ]
        return found

    def _free_named(self, name: str) -> list[_Free]:
        """The references to `name` no binding inside their statement resolves."""
        found = self._free.get(name)
        if found is None:
            found = self._free[name] = [
                _Free(position, start, end)
                for position, summary in enumerate(self._summaries)
                if summary.free
                for free_name, start, end in summary.free
                if free_name == name
            ]
        return found

    def _visible_start(self, entry: _Top) -> int:
        base, summary = self.pieces[entry.statement]
        return summary.symbols[entry.number].visible_start + base

    def cut_at_budget(self, statements: list[Statement]) -> StatementIndex:
        """This index as the whole-text replay has it once the occurrence
        budget runs out (itself when it does not): cut in the statement where
        it runs out, replayed with what is left.

        A statement's count is its definitions and resolved references plus
        its unresolved references an earlier statement's top-level binding
        resolves; the cut is the first statement whose running count passes
        the budget."""
        bound: dict[str, SymbolKind] = {}  # names bound at top level so far
        spent = 0
        for position, summary in enumerate(self._summaries):
            count = summary.occurrences + sum(free.name in bound for free in summary.free)
            if spent + count > MAX_LEXICAL_SYMBOL_OCCURRENCES:
                left = Budget(MAX_LEXICAL_SYMBOL_OCCURRENCES - spent, bound.__contains__)
                return self._cut(statements, position, left)
            spent += count
            if summary.exports:
                bound.update(summary.exports)
        return self

    def _cut(self, statements: list[Statement], cut: int, left: Budget) -> StatementIndex:
        statement = statements[cut]
        partial = summarize_unit(statement.tokens, statement.events, statement.origin, left)
        pieces = self.pieces
        cut_pieces = [
            *pieces[:cut],
            (pieces[cut][0], partial),
            *[
                (base, later.view(_SITES_ONLY, _sites_only))
                for (base, _), later in zip(pieces[cut + 1 :], statements[cut + 1 :], strict=True)
            ],
        ]
        return StatementIndex(cut_pieces, self.source_length, cut)

    # ------------------------------------------------------------ symbols

    def _statement_at(self, offset: int) -> int:
        return bisect_right(self.bases, offset) - 1

    def _symbol(self, position: int, number: int) -> Symbol:
        key = (position, number)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._make(position, number)
        return made

    def _make(self, position: int, number: int) -> Symbol:
        base, summary = self.pieces[position]
        local = summary.symbols[number]
        references = [(start + base, end + base) for start, end in local.references]
        visible_end = (
            self.source_length if local.visible_end == OPEN_END else local.visible_end + base
        )
        if local.top_level:
            entries = self._tops_named(local.name)
            at = bisect_left(entries, _Top(position, number))
            following = entries[at + 1] if at + 1 < len(entries) else None
            if following is not None:
                visible_end = self._visible_start(following)
            if following is None or following.statement != position:
                # The last top-level binding of its name in its statement:
                # later statements' unresolved references up to the next one are its.
                free = self._free_named(local.name)
                low = bisect_right(free, position, key=_statement_of)
                high = (
                    len(free)
                    if following is None
                    else bisect_right(free, following.statement, key=_statement_of)
                )
                bases = self.bases
                references.extend(
                    (start + bases[at], end + bases[at]) for at, start, end in free[low:high]
                )
        return Symbol(
            local.kind,
            local.name,
            local.start + base,
            local.end + base,
            local.visible_start + base,
            visible_end,
            references,
        )

    def _resolve(self, position: int, name: str) -> Symbol | None:
        """The top-level binding of `name` an unresolved reference in the
        statement at `position` refers to: the last one before that statement."""
        entries = self._tops_named(name)
        at = bisect_left(entries, position, key=_statement_of) - 1
        return None if at < 0 else self._symbol(*entries[at])

    @property
    def symbols(self) -> list[Symbol]:
        """Every symbol by definition start (made for the whole document: costly)."""
        if self._symbols is None:
            self._symbols = [
                self._symbol(position, number)
                for position, (_, summary) in enumerate(self.pieces)
                for number in summary.ordered
            ]
        return self._symbols

    @property
    def sites(self) -> list[tuple[int, int]]:
        return [
            (start + base, end + base)
            for position, base in enumerate(self.bases)
            for start, end in self._sites(position)
        ]

    def _sites(self, position: int) -> tuple[tuple[int, int], ...]:
        """A statement's sites (relative) that the site budget keeps."""
        sites = self._summaries[position].sites
        cut = self.site_cut
        if cut is None or position < cut[0]:
            return sites
        return sites[: cut[1]] if position == cut[0] else ()

    def symbol_defined_at(self, start: int) -> Symbol | None:
        position = self._statement_at(start)
        if position < 0:
            return None
        base, summary = self.pieces[position]
        relative = start - base
        for number, local in enumerate(summary.symbols):
            if local.start == relative:
                return self._symbol(position, number)
        return None

    # ------------------------------------------------------------ queries

    def occurrence_at(self, offset: int) -> Occurrence | None:
        """The definition or reference whose half-open span contains `offset`."""
        return self._occurrence(self._statement_at(offset), offset, _contains)

    def occurrence_ending_at(self, offset: int) -> Occurrence | None:
        # A token ending at `offset` starts in the statement holding `offset - 1`.
        return self._occurrence(self._statement_at(offset - 1), offset, _ends_at)

    def _occurrence(self, position: int, offset: int, hit) -> Occurrence | None:
        if position < 0:
            return None
        base, summary = self.pieces[position]
        relative = offset - base
        for number, local in enumerate(summary.symbols):
            if hit(local.start, local.end, relative):
                return Occurrence(
                    self._symbol(position, number), local.start + base, local.end + base
                )
            for start, end in local.references:
                if hit(start, end, relative):
                    symbol = self._symbol(position, number)
                    return Occurrence(symbol, start + base, end + base)
        for name, start, end in summary.free:
            if hit(start, end, relative):
                symbol = self._resolve(position, name)
                if symbol is None:
                    return None
                return Occurrence(symbol, start + base, end + base)
        return None

    def visible(self, name: str, offset: int) -> Symbol | None:
        """The innermost binding of `name` visible at `offset`."""
        position = self._statement_at(offset)
        if position < 0:
            return None
        _, summary = self.pieces[position]
        candidates = [
            self._symbol(position, number)
            for number, local in enumerate(summary.symbols)
            if local.name == name
        ]
        # Of the earlier statements only the last top-level binding of the
        # name can still be visible: it ended every one before it.
        earlier = self._resolve(position, name)
        if earlier is not None:
            candidates.append(earlier)
        return innermost_visible(candidates, offset)

    def visible_bindings(self, offset: int) -> list[Binding]:
        """Every binding visible at `offset`, innermost per name, sorted by name."""
        position = self._statement_at(offset)
        if position < 0:
            return []
        # The last top-level binding of each name in an earlier statement
        # stays visible to the end of the text (not at the end itself).
        kinds: dict[str, SymbolKind] = {}
        if offset < self.source_length:
            for summary in self._summaries[:position]:
                if summary.exports:
                    kinds.update(summary.exports)
        # A binding of the statement at `offset` wins over every earlier
        # statement's: it became visible later.
        base, summary = self.pieces[position]
        relative = offset - base
        best: dict[str, tuple[int, int]] = {}
        for local in summary.symbols:
            visible_end = local.visible_end
            if local.visible_start <= relative and (
                visible_end == OPEN_END or relative < visible_end
            ):
                if visible_end == OPEN_END and not self._symbol_visible_to(position, local, offset):
                    continue
                rank = (local.visible_start, local.start)
                if local.name not in best or rank > best[local.name]:
                    best[local.name] = rank
                    kinds[local.name] = local.kind
        return [Binding(name, kinds[name]) for name in sorted(kinds)]

    def _symbol_visible_to(self, position: int, local: LocalSymbol, offset: int) -> bool:
        """Whether a binding left open in its statement is still visible at `offset`."""
        number = self.pieces[position][1].symbols.index(local)
        return self._symbol(position, number).visible_at(offset)

    def site_at(self, offset: int) -> tuple[int, int] | None:
        """First completion site containing `offset`, its end inclusive."""
        position = self._statement_at(offset)
        # A site of the statement before may end exactly where this one starts.
        for candidate in (position - 1, position):
            if candidate < 0:
                continue
            base = self.bases[candidate]
            sites = self._sites(candidate)
            at = bisect_right(sites, (offset - base, OPEN_END)) - 1
            for start, end in sites[max(at - 1, 0) : at + 1]:
                if start + base <= offset <= end + base:
                    return (start + base, end + base)
        return None

    def is_site(self, start: int, end: int) -> bool:
        position = self._statement_at(start)
        if position < 0:
            return False
        base = self.bases[position]
        sites = self._sites(position)
        at = bisect_left(sites, (start - base, end - base))
        return at < len(sites) and sites[at] == (start - base, end - base)


def _contains(start: int, end: int, offset: int) -> bool:
    return start <= offset < end


def _ends_at(start: int, end: int, offset: int) -> bool:
    return end == offset
