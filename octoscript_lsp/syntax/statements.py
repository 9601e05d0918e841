"""Work kept per top-level statement and reused by the next version.

A top-level statement's parse depends only on its own text and the lexer
state it starts in (the parser starts every top-level step in the same
state), so anything computed from one statement alone holds for every later
version in which the parser kept that statement. The parser says which it
kept (`StepMap`: runs of steps carried over from the previous parse, each
moved by one offset), so reusing costs a slice per run, not a lookup per
statement. This module holds the one loop over top-level statements:
`per_statement` for views that hold for a kept statement as they are
(outline, record findings, lexical summaries, runtime-parser checks), and
`walk_statements` for views that visit every statement in order and check
a kept statement's value against what surrounds it now (semantic tokens;
`walk_runs` where the view takes a run of kept statements at once once it
has checked the run's start: formatted stretches). A view that visits only
some statements (the rendered outline entries) reads the carried values
(`carried_values`, or the memo's runs) and hands on `memo_of` its own or
`memo_replacing` the ones it made. Every memo is keyed this one way: by the
parser's map of kept steps, never by text, offset or object identity.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count as counting
from operator import itemgetter
from typing import Generic, TypeVar

from ..limits import MAX_STEP_MAP_RUNS
from .lexer import LexResult

T = TypeVar("T")
# One entry per top-level parse step: (first token, token after it, events
# end, all_diagnostics end, children end), as `ParseResult.units` holds them
# (plain tuples: the parser makes and shifts thousands; read them by these
# field numbers).
Unit = tuple[int, int, int, int, int]
FIRST_TOKEN, AFTER_TOKEN, EVENTS_END, DIAGNOSTICS_END, CHILDREN_END = range(5)
# (first old step, first new step, how many, new offset minus old offset).
Run = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class StepMap:
    """Which top-level steps of a later parse are steps of an earlier one.

    Each run is a stretch of consecutive steps the later parse took over
    unchanged, its offsets moved by the run's delta; steps in no run were
    parsed again. Runs are ordered and never overlap.
    """

    runs: tuple[Run, ...]

    def run_at(self, position: int) -> Run | None:
        """The run that holds step `position` of the later parse, if any."""
        runs = self.runs
        at = bisect_right(runs, position, key=_new_first) - 1
        if at >= 0 and position < runs[at][1] + runs[at][2]:
            return runs[at]
        return None

    def then(self, later: StepMap) -> StepMap:
        """The map from this one's earlier parse to `later`'s later parse."""
        runs: list[Run] = []
        mine, theirs = self.runs, later.runs
        # Both lists are ordered by the middle parse's steps: one merge.
        at = 0
        for first, new_first, later_count, later_delta in theirs:
            later_end = first + later_count
            while at < len(mine) and mine[at][1] + mine[at][2] <= first:
                at += 1
            for old_first, middle_first, count, delta in mine[at:]:
                if middle_first >= later_end:
                    break
                low = max(middle_first, first)
                high = min(middle_first + count, later_end)
                if low < high:
                    runs.append(
                        (
                            old_first + low - middle_first,
                            new_first + low - first,
                            high - low,
                            delta + later_delta,
                        )
                    )
        if len(runs) > MAX_STEP_MAP_RUNS:
            # Long chains of edits to a view nobody asked for: keep the largest runs.
            runs = sorted(sorted(runs, key=_run_length)[-MAX_STEP_MAP_RUNS:], key=_new_first)
        return StepMap(tuple(runs))


NOTHING_KEPT = StepMap(())


_value_of = itemgetter(1)  # of a memo's (offset, value)


def _run_length(run: Run) -> int:
    return run[2]


def _new_first(run: Run) -> int:
    return run[1]


@dataclass(frozen=True, slots=True)
class StatementMemo(Generic[T]):
    """A per-statement view of an earlier parse, and how its steps map onto
    the latest parse the memo was handed to."""

    found: list[tuple[int, T]]  # (step offset, value) per step of the earlier parse
    since: StepMap

    def advanced(self, kept: StepMap | None) -> StatementMemo[T]:
        """The memo handed on to a parse that kept `kept` of the one before."""
        if kept is None or not self.found:
            return EMPTY_MEMO
        return StatementMemo(self.found, self.since.then(kept))


EMPTY_MEMO: StatementMemo = StatementMemo([], NOTHING_KEPT)


def per_statement(
    source: str,
    lex: LexResult,
    units: list[Unit],
    previous: StatementMemo[T],
    compute: Callable[[int], T],
    move: Callable[[T, int], T] | None,
) -> tuple[list[tuple[int, T]], StatementMemo[T]]:
    """(statement offset, value) for every top-level step, and this version's memo.

    `compute(position)` works a step out from scratch; a step the parser
    kept from the memo's parse reuses its value, passed through
    `move(value, delta)` when it moved (`move=None`: values hold no absolute
    offsets). The memo returned holds this version's steps only.
    """
    del source  # the parser's step map says what is unchanged; no text compare
    tokens = lex.tokens
    found: list[tuple[int, T]] = []
    earlier = previous.found
    position = 0
    for old_first, new_first, count, delta in previous.since.runs:
        _compute_until(found, tokens, units, position, new_first, compute)
        kept = earlier[old_first : old_first + count]
        if delta == 0:
            found.extend(kept)
        elif move is None:
            found.extend([(base + delta, value) for base, value in kept])
        else:
            found.extend([(base + delta, move(value, delta)) for base, value in kept])
        position = new_first + count
    _compute_until(found, tokens, units, position, len(units), compute)
    return found, StatementMemo(found, StepMap(((0, 0, len(found), 0),)))


def walk_statements(
    units: list[Unit],
    offsets: list[int],
    previous: StatementMemo[T],
    visit: Callable[[int, int, int, T | None], T],
) -> StatementMemo[T]:
    """`per_statement` for views that look at every statement in order.

    `visit(position, first token, token after, carried)` gives the step's
    value, `carried` being the value the memo's parse had for it when the
    parser kept the step (as it was: offsets not moved), else None. The
    visitor decides whether the carried value still holds where the
    statement stands now. `offsets` are the steps' offsets
    (`ParseResult.unit_offsets`). Returns this version's memo.
    """
    carried = carried_values(previous, len(units))
    values = [
        visit(position, unit[FIRST_TOKEN], unit[AFTER_TOKEN], value)
        for position, unit, value in zip(counting(), units, carried)
    ]
    return memo_of(offsets, values)


def walk_runs(
    units: list[Unit],
    offsets: list[int],
    previous: StatementMemo[T],
    visit: Callable[[int, int, int, T | None], T],
    take_run: Callable[[int, int, list, Callable[[int], None]], None],
) -> StatementMemo[T]:
    """`walk_statements` for a view that takes a run of kept steps at once.

    The steps outside the memo's runs are visited in order, as there; each
    run [low, high) goes, in its turn, to `take_run(low, high, values,
    step)`, where `values` holds the carried values (by step, as they
    were) and `step(position)` visits one step of the run, its value
    replacing the carried one. What `take_run` leaves in `values` is the
    run's values in this version's memo.
    """
    values = carried_values(previous, len(units))

    def step(position: int) -> None:
        unit = units[position]
        values[position] = visit(position, unit[FIRST_TOKEN], unit[AFTER_TOKEN], values[position])

    position = 0
    for _, new_first, run_count, _ in previous.since.runs:
        for outside in range(position, new_first):
            step(outside)
        position = new_first + run_count
        take_run(new_first, position, values, step)
    for outside in range(position, len(units)):
        step(outside)
    # One run over all steps: the next walk takes runs of kept steps, each
    # checked at its edges, so the memo is not split at the steps visited
    # (as `memo_replacing` would).
    return memo_of(offsets, values)


def carried_values(previous: StatementMemo[T], count: int) -> list[T | None]:
    """Per step of the latest parse (`count` of them), the memo's value for it
    where the parser kept the step, else None."""
    carried: list[T | None] = [None] * count
    earlier = previous.found
    for old_first, new_first, run_count, _ in previous.since.runs:
        carried[new_first : new_first + run_count] = map(
            _value_of, earlier[old_first : old_first + run_count]
        )
    return carried


def memo_of(offsets: list[int], values: list[T]) -> StatementMemo[T]:
    """This version's memo of one value per top-level step (`offsets`: the
    steps' offsets, `ParseResult.unit_offsets`), for a view that takes the
    carried values itself (`carried_values`) and visits only some steps."""
    return StatementMemo(
        list(zip(offsets, values, strict=True)), StepMap(((0, 0, len(values), 0),))
    )


def carried_value(previous: StatementMemo[T], position: int) -> T | None:
    """`carried_values` for the one step at `position`: a search over the
    runs, for views that visit a few steps only."""
    run = previous.since.run_at(position)
    if run is None:
        return None
    return previous.found[run[0] + position - run[1]][1]


def memo_replacing(
    previous: StatementMemo[T], offsets: list[int], replaced: dict[int, T]
) -> StatementMemo[T]:
    """`memo_of` the carried values with the steps `replaced` names (position
    -> value) given new values, for a view that visits those steps only.

    Its cost follows the runs and the steps replaced, not the document: the
    earlier values stay where they are, the new ones are added after them
    and the runs point at both. The values no run reaches are dropped once
    they outnumber the steps (or the runs grow past `MAX_STEP_MAP_RUNS`).
    """
    count = len(offsets)
    earlier = previous.found
    # Past `MAX_STEP_MAP_RUNS` steps replaced the runs are not cut at all.
    runs = (
        _without_steps(previous.since.runs, replaced) if len(replaced) <= MAX_STEP_MAP_RUNS else []
    )
    if len(earlier) + len(replaced) > 2 * count or len(runs) + len(replaced) > MAX_STEP_MAP_RUNS:
        values = carried_values(previous, count)
        for position, value in replaced.items():
            values[position] = value
        return memo_of(offsets, values)
    found = earlier + [(offsets[position], value) for position, value in replaced.items()]
    runs.extend((number, position, 1, 0) for number, position in enumerate(replaced, len(earlier)))
    runs.sort(key=_new_first)
    return StatementMemo(found, StepMap(tuple(runs)))


def _without_steps(runs: tuple[Run, ...], steps: dict[int, object]) -> list[Run]:
    """`runs` with the later parse's `steps` cut out of them."""
    kept: list[Run] = []
    for run in runs:
        old_first, new_first, run_count, delta = run
        inside = sorted(step for step in steps if new_first <= step < new_first + run_count)
        if not inside:
            kept.append(run)
            continue
        start = new_first
        for step in inside + [new_first + run_count]:
            if step > start:
                kept.append((old_first + start - new_first, start, step - start, delta))
            start = step + 1
    return kept


def _compute_until(
    found: list, tokens: list, units: list[Unit], position: int, end: int, compute: Callable
) -> None:
    for step in range(position, end):
        found.append((tokens[units[step][FIRST_TOKEN]].start, compute(step)))


def events_of(events: list[tuple], units: list[Unit], position: int) -> list[tuple]:
    """The scope events the top-level step at `position` recorded."""
    start = units[position - 1][EVENTS_END] if position > 0 else 0
    return events[start : units[position][EVENTS_END]]


def children_of(units: list[Unit], position: int) -> tuple[int, int]:
    """Where the top-level step at `position`'s nodes lie among the program's
    children: [start, end), empty for a step without a statement (a stray `}`)."""
    start = units[position - 1][CHILDREN_END] if position > 0 else 0
    return start, units[position][CHILDREN_END]
