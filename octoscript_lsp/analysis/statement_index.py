"""The lexical index as per-statement pieces, reused across versions.

A top-level statement's scope events depend only on its own text: the parser
starts every top-level step in the same state. So each statement is replayed
once into a position-independent `UnitSummary` (`unit_summary.py`: offsets
relative to its first token), and the next version reuses every summary of a
statement the parser kept. The document's index (`StatementIndex`) is those summaries plus their
offsets: a query at an offset looks at the one statement there, and at the
top-level bindings of the statements before it, which two small tables
(top-level bindings and unresolved references by name) answer. Nothing is
laid out for the whole document unless a caller asks for every symbol.

The answers are exactly what `lexical.build_lexical_index` gives when
neither budget runs out and every statement closes the scopes it opens;
otherwise the caller builds the index the plain way (`piecewise_index`
answers None).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, compress
from itertools import count as counting
from operator import add, attrgetter, is_not, itemgetter
from typing import NamedTuple

from ..limits import (
    MAX_CARRIED_CHANGES,
    MAX_LEXICAL_COMPLETION_SITES,
    MAX_LEXICAL_SYMBOL_OCCURRENCES,
    MAX_RECOUNTED_STATEMENTS,
)
from ..syntax.statements import StepMap
from .lexical import OPEN_END, Binding, Occurrence, Symbol, innermost_visible
from .unit_summary import Budget, LocalSymbol, UnitSummary


class _Top(NamedTuple):
    """A top-level binding: its statement's position, its number in the summary."""

    statement: int
    number: int


class _Free(NamedTuple):
    """A reference no binding inside its statement resolves. Offsets are
    relative to the statement, so the table outlives edits that only move
    statements."""

    statement: int
    start: int
    end: int


_statement_of = attrgetter("statement")


def piecewise_index(
    pieces: list[tuple[int, UnitSummary]],
    source_length: int,
    previous: StatementIndex | None = None,
    kept: StepMap | None = None,
    replay: Callable[[int, Budget], UnitSummary] | None = None,
) -> StatementIndex | None:
    """The index over the statements' summaries; None when the site budget
    could run out or a statement before the last leaves a scope open (the
    plain build decides those). With the previous version's index and the
    parser's map of kept statements, its by-name tables are reused where
    they still hold.

    When the occurrence budget runs out, `replay(position, budget)` replays
    the statement where it does with what is left of it, and the index is
    cut there (`StatementIndex.cut`): that statement's summary holds what
    the plain build records, the later ones only their sites."""
    uncut_previous = previous.uncut if previous is not None and previous.uncut else previous
    totals = _Totals.carried(pieces, uncut_previous, kept) or _Totals.of(map(_summary_of, pieces))
    if totals.open_scopes and (totals.open_scopes > 1 or pieces[-1][1].balanced):
        return None
    if totals.sites > MAX_LEXICAL_COMPLETION_SITES:
        return None
    index = StatementIndex(pieces, source_length, _Carried.over(uncut_previous, kept, pieces))
    index.totals = totals
    if totals.occurrences + totals.free <= MAX_LEXICAL_SYMBOL_OCCURRENCES or replay is None:
        return index
    return index.cut_at_budget(previous, kept, replay)


class _Totals(NamedTuple):
    """Sums over every statement's summary, which decide whether the
    per-statement index answers and whether it is cut."""

    open_scopes: int  # statements that leave a scope open
    sites: int
    occurrences: int
    free: int

    @classmethod
    def of(cls, summaries: Iterable[UnitSummary]) -> _Totals:
        # Whole-list passes of builtins: no Python loop over the statements.
        summaries = list(summaries)
        return cls(
            len(summaries) - sum(map(_is_balanced, summaries)),
            sum(map(len, map(_sites_of, summaries))),
            sum(map(_occurrences_of, summaries)),
            sum(map(len, map(_free_of, summaries))),
        )

    @classmethod
    def carried(
        cls,
        pieces: list[tuple[int, UnitSummary]],
        previous: StatementIndex | None,
        kept: StepMap | None,
    ) -> _Totals | None:
        """The previous version's sums, less the statements the parser did
        not keep and plus the ones it parsed again (a kept statement keeps
        its very summary); None without them or when many changed."""
        if previous is None or kept is None or previous.totals is None:
            return None
        earlier = previous.pieces
        removed: list[tuple[int, UnitSummary]] = []
        added: list[tuple[int, UnitSummary]] = []
        old_at = new_at = 0
        for old_first, new_first, count, _ in kept.runs:
            removed += earlier[old_at:old_first]
            added += pieces[new_at:new_first]
            old_at, new_at = old_first + count, new_first + count
        removed += earlier[old_at:]
        added += pieces[new_at:]
        if len(removed) + len(added) > MAX_RECOUNTED_STATEMENTS:
            return None
        before = cls.of(map(_summary_of, removed))
        after = cls.of(map(_summary_of, added))
        return cls(
            *(
                total - old + new
                for total, old, new in zip(previous.totals, before, after, strict=True)
            )
        )


_base_of = itemgetter(0)
_summary_of = itemgetter(1)
_is_balanced = attrgetter("balanced")
_sites_of = attrgetter("sites")
_occurrences_of = attrgetter("occurrences")
_free_of = attrgetter("free")


def _cut_kept(index: StatementIndex, previous: StatementIndex | None) -> int | None:
    """The previous version's cut, when every statement's count up to it is
    what it was and the statement where it fell is the very one it was
    (typing a digit, or anything after the cut); None otherwise.

    A statement's count is its definitions and resolved references plus its
    unresolved references an earlier statement's top-level binding
    resolves. The second part is carried over whole while both by-name
    tables are (`_Carried`); the first is the summary's own. With every
    count up to the cut as before, so are the cut, the budget left for its
    statement and what that statement records.
    """
    if previous is None or previous.cut is None:
        return None
    carried, cut = index._carried, previous.cut
    if carried is None:
        return None
    # Made (or carried) here as a full count would: the next version carries them on.
    resolved = index._resolved_free()
    if all(position > cut for position, _, _ in carried.changed):
        return cut  # a later statement's bindings reach no statement before it
    if resolved is not carried.resolved:
        return None  # a changed statement binds or leaves unresolved other names
    for position, before, now in carried.changed:
        if position == cut or (position < cut and before.occurrences != now.occurrences):
            return None
    return cut


def _sites_only(summary: UnitSummary) -> UnitSummary:
    """A statement past the one where the occurrence budget ran out: the
    plain build records its sites and nothing else."""
    return UnitSummary((), (), summary.sites, 0, summary.balanced, (), ())


def _after_cut(
    index: StatementIndex, previous: StatementIndex | None, cut: int
) -> list[tuple[int, UnitSummary]]:
    """The statements after the cut, sites only: the previous version's
    where the parser kept the very piece (same offset, same summary), and
    its sites-only summary, placed at the new offset, where the parser kept
    the statement but an edit before it moved it."""
    pieces = index.pieces
    earlier = previous.uncut if previous is not None else None
    if earlier is None or previous.cut != cut or len(earlier.pieces) != len(pieces):
        return [(base, _sites_only(summary)) for base, summary in pieces[cut + 1 :]]
    after = pieces[cut + 1 :]
    before = earlier.pieces[cut + 1 :]
    kept = previous.pieces[cut + 1 :]
    # Which pieces differ, found by builtins: typing without changing the
    # length changes one or none; otherwise every later one moved.
    for at in compress(counting(), map(is_not, after, before)):
        base, summary = after[at]
        if summary is before[at][1]:
            kept[at] = (base, kept[at][1])
        else:
            kept[at] = (base, _sites_only(summary))
    return kept


@dataclass(frozen=True, slots=True)
class _Carried:
    """The previous version's by-name tables, and the statements that changed
    since, when every statement kept its position (edits inside statements:
    what typing mostly is). The tables hold positions and relative offsets
    only, so they still hold unless a changed statement binds or leaves
    unresolved other names than before."""

    tops: dict[str, list[_Top]] | None
    free: dict[str, list[_Free]] | None
    changed: tuple[tuple[int, UnitSummary, UnitSummary], ...]  # (position, before, now)
    # Per statement, how many of its unresolved references an earlier
    # top-level binding resolves: a function of the two tables alone.
    resolved: list[int] | None = None

    @classmethod
    def over(
        cls,
        previous: StatementIndex | None,
        kept: StepMap | None,
        pieces: list[tuple[int, UnitSummary]],
        cut: int | None = None,
    ) -> _Carried | None:
        if previous is None or kept is None or len(previous.pieces) != len(pieces):
            return None
        if previous._tops is None and previous._free is None:
            return None
        if previous.cut != cut:
            return None
        covered = 0
        changed = []
        for old_first, new_first, count, _ in kept.runs:
            if old_first != new_first:
                return None
            changed.extend(range(covered, new_first))
            covered = new_first + count
        changed.extend(range(covered, len(pieces)))
        if cut is not None and cut not in changed:
            # The statement where the budget runs out may record less or
            # more than before though the parser kept it.
            changed.append(cut)
        if len(changed) > MAX_CARRIED_CHANGES:
            return None
        earlier = previous.pieces
        return cls(
            previous._tops,
            previous._free,
            tuple((position, earlier[position][1], pieces[position][1]) for position in changed),
            previous._resolved,
        )

    def tops_hold(self) -> bool:
        return self.tops is not None and all(
            _top_names(before) == _top_names(now) for _, before, now in self.changed
        )

    def free_holds(self) -> bool:
        return self.free is not None and all(
            before.free == now.free for _, before, now in self.changed
        )


def _count_resolved(
    tops: dict[str, list[_Top]], free: dict[str, list[_Free]], statements: int
) -> list[int]:
    """Per statement, its free references a top-level binding of an earlier
    statement resolves (the references after the name's first binding)."""
    counts = [0] * statements
    for name, references in free.items():
        entries = tops.get(name)
        if entries:
            first = entries[0].statement
            for reference in references[bisect_right(references, first, key=_statement_of) :]:
                counts[reference.statement] += 1
    return counts


def _top_names(summary: UnitSummary) -> tuple[tuple[int, str], ...]:
    symbols = summary.symbols
    return tuple((number, symbols[number].name) for number in summary.tops)


class _StartLookup:
    """`symbols_by_start()` of a statement index: a lookup, not a table."""

    __slots__ = ("index",)

    def __init__(self, index: StatementIndex) -> None:
        self.index = index

    def get(self, start: int, default: Symbol | None = None) -> Symbol | None:
        found = self.index.symbol_defined_at(start)
        return default if found is None else found


class StatementIndex:
    """The lexical index of a document as (offset, summary) per top-level statement.

    Answers the same queries as `LexicalIndex`. Symbols are made on first
    use (and kept, so one version hands out one object per binding); a
    top-level binding's references in later statements and where a later
    top-level binding of its name ends its visibility come from the
    by-name tables, built on first use.
    """

    sites_truncated = False

    def __init__(
        self,
        pieces: list[tuple[int, UnitSummary]],
        source_length: int,
        carried: _Carried | None = None,
        cut: int | None = None,
        uncut: StatementIndex | None = None,
    ) -> None:
        self.pieces = pieces
        # Where the occurrence budget ran out (the statement's position), and
        # the index the pieces would give without a budget.
        self.cut = cut
        self.uncut = uncut
        self.truncated = self.incomplete = cut is not None
        self.source_length = source_length
        self._made: dict[tuple[int, int], Symbol] = {}
        self._tops: dict[str, list[_Top]] | None = None
        self._free: dict[str, list[_Free]] | None = None
        self._symbols: list[Symbol] | None = None
        self._resolved: list[int] | None = None
        # The sums over the summaries (`piecewise_index` sets them on the uncut index).
        self.totals: _Totals | None = None
        self._carried = carried

    @cached_property
    def bases(self) -> list[int]:
        """Each statement's offset, for finding the statement at an offset:
        made on the first query (an index past the budget is built twice a
        version, and its uncut form is seldom asked)."""
        return list(map(_base_of, self.pieces))

    # ------------------------------------------------------------ tables

    def _top_table(self) -> dict[str, list[_Top]]:
        if self._tops is None:
            carried = self._carried
            if carried is not None and carried.tops_hold():
                self._tops = carried.tops
            else:
                tops: dict[str, list[_Top]] = {}
                for position, (_, summary) in enumerate(self.pieces):
                    if summary.tops:
                        symbols = summary.symbols
                        for number in summary.tops:
                            tops.setdefault(symbols[number].name, []).append(_Top(position, number))
                self._tops = tops
        return self._tops

    def _free_table(self) -> dict[str, list[_Free]]:
        if self._free is None:
            carried = self._carried
            if carried is not None and carried.free_holds():
                self._free = carried.free
            else:
                free: dict[str, list[_Free]] = {}
                for position, (_, summary) in enumerate(self.pieces):
                    for name, start, end in summary.free:
                        free.setdefault(name, []).append(_Free(position, start, end))
                self._free = free
        return self._free

    def _visible_start(self, entry: _Top) -> int:
        base, summary = self.pieces[entry.statement]
        return summary.symbols[entry.number].visible_start + base

    def occurrence_counts(self) -> list[int]:
        """Definitions plus resolved references per statement, as the plain
        build counts them."""
        return list(
            map(add, map(_occurrences_of, map(_summary_of, self.pieces)), self._resolved_free())
        )

    def _resolved_free(self) -> list[int]:
        """Per statement, its unresolved references that an earlier
        statement's top-level binding resolves. It depends on the two
        by-name tables only, so while both are carried over from the
        previous version (typing inside a statement) so are these counts."""
        if self._resolved is None:
            tops = self._top_table()
            free = self._free_table()
            carried = self._carried
            if (
                carried is not None
                and carried.resolved is not None
                and tops is carried.tops
                and free is carried.free
            ):
                self._resolved = carried.resolved
            else:
                self._resolved = _count_resolved(tops, free, len(self.pieces))
        return self._resolved

    def cut_at_budget(
        self,
        previous: StatementIndex | None,
        kept: StepMap | None,
        replay: Callable[[int, Budget], UnitSummary],
    ) -> StatementIndex:
        """This index as the plain build has it once the occurrence budget
        runs out (itself when it does not): cut in the statement where it
        runs out, which `replay` records again with what is left."""
        pieces = self.pieces
        cut = _cut_kept(self, previous)
        if cut is not None:
            # No count up to the cut changed: the statement where the budget
            # runs out records what it did.
            partial = previous.pieces[cut][1]
        else:
            # Counts are never negative: the running totals rise, and the cut
            # is the first statement whose total passes the budget.
            totals = list(accumulate(self.occurrence_counts()))
            cut = bisect_right(totals, MAX_LEXICAL_SYMBOL_OCCURRENCES)
            if cut == len(totals):
                return self
            spent = totals[cut - 1] if cut else 0
            tops = self._top_table()

            def resolves(name: str) -> bool:
                entries = tops.get(name)
                return entries is not None and entries[0].statement < cut

            partial = replay(cut, Budget(MAX_LEXICAL_SYMBOL_OCCURRENCES - spent, resolves))
        cut_pieces = [*pieces[:cut], (pieces[cut][0], partial), *_after_cut(self, previous, cut)]
        carried = _Carried.over(previous, kept, cut_pieces, cut)
        return StatementIndex(cut_pieces, self.source_length, carried, cut, self)

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
            entries = self._top_table()[local.name]
            at = bisect_left(entries, _Top(position, number))
            following = entries[at + 1] if at + 1 < len(entries) else None
            if following is not None:
                visible_end = self._visible_start(following)
            if following is None or following.statement != position:
                # The last top-level binding of its name in its statement:
                # later statements' unresolved references up to the next one are its.
                free = self._free_table().get(local.name, ())
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
        entry = self._resolving_entry(position, name)
        return None if entry is None else self._symbol(*entry)

    def _resolving_entry(self, position: int, name: str) -> _Top | None:
        """`_resolve`'s binding as its table entry, the symbol not made (a
        top-level name's symbol gathers every later statement's references)."""
        entries = self._top_table().get(name)
        if not entries:
            return None
        at = bisect_left(entries, position, key=_statement_of) - 1
        return None if at < 0 else entries[at]

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
            for base, summary in self.pieces
            for start, end in summary.sites
        ]

    def last_occurrence(self) -> int:
        """Start of the last definition or resolved reference recorded (-1:
        none): in the statement where the budget ran out or before it."""
        last = self.cut if self.cut is not None else len(self.pieces) - 1
        for position in range(last, -1, -1):
            base, summary = self.pieces[position]
            found = [local.start for local in summary.symbols]
            found.extend(start for local in summary.symbols for start, _ in local.references)
            found.extend(
                free.start
                for free in summary.free
                if self._resolving_entry(position, free.name) is not None
            )
            if found:
                return base + max(found)
        return -1

    def symbols_by_start(self) -> _StartLookup:
        return _StartLookup(self)

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
                    self._symbol(position, number), local.start + base, local.end + base, True
                )
            for start, end in local.references:
                if hit(start, end, relative):
                    symbol = self._symbol(position, number)
                    return Occurrence(symbol, start + base, end + base, False)
        for name, start, end in summary.free:
            if hit(start, end, relative):
                symbol = self._resolve(position, name)
                if symbol is None:
                    return None
                return Occurrence(symbol, start + base, end + base, False)
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
        chosen: dict[str, Binding] = {}
        pieces = self.pieces
        # The last top-level binding of a name is never shadowed: it stays
        # visible to the end of the text.
        open_to_end = offset < self.source_length
        for name, entries in self._top_table().items():
            last = entries[-1]
            if last.statement < position:  # the usual case: every binding of it is earlier
                if not open_to_end:
                    continue
                top_position, number = last
            else:
                if entries[0].statement >= position:
                    continue  # bound in this statement or later only
                at = bisect_left(entries, position, key=_statement_of) - 1
                if self._visible_start(entries[at + 1]) <= offset:
                    continue
                top_position, number = entries[at]
            chosen[name] = Binding(name, pieces[top_position][1].symbols[number].kind)
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
                    chosen[local.name] = Binding(local.name, local.kind)
        return [chosen[name] for name in sorted(chosen)]

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
            base, summary = self.pieces[candidate]
            relative = offset - base
            sites = summary.sites
            at = bisect_right(sites, (relative, OPEN_END)) - 1
            for index in (at - 1, at):
                if index >= 0 and sites[index][0] <= relative <= sites[index][1]:
                    return (sites[index][0] + base, sites[index][1] + base)
        return None

    def is_site(self, start: int, end: int) -> bool:
        position = self._statement_at(start)
        if position < 0:
            return False
        base, summary = self.pieces[position]
        sites = summary.sites
        at = bisect_left(sites, (start - base, end - base))
        return at < len(sites) and sites[at] == (start - base, end - base)


def _contains(start: int, end: int, offset: int) -> bool:
    return start <= offset < end


def _ends_at(start: int, end: int, offset: int) -> bool:
    return end == offset
