"""Work kept per top-level statement and reused by the next version.

A top-level statement's parse depends only on its own text and the lexer
state it starts in (the parser starts every top-level step in the same
state), so anything computed from one statement alone can be looked up by
`lexer.statement_key` in the previous version's memo. One loop serves every
per-statement view (outline, record findings, lexical summaries).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .lexer import LexResult, statement_key

T = TypeVar("T")
# One entry per top-level parse step: (first token, token after it, events
# end, all_diagnostics end, children end), as `ParseResult.units` holds them.
Unit = tuple[int, int, int, int, int]
# Statement key -> (offset the value was computed at, value).
StatementMemo = dict[str, tuple[int, T]]


def per_statement(
    source: str,
    lex: LexResult,
    units: list[Unit],
    previous: StatementMemo[T],
    compute: Callable[[int], T],
    move: Callable[[T, int], T] | None,
) -> tuple[list[tuple[int, T]], StatementMemo[T]]:
    """(statement offset, value) for every top-level step, and this version's memo.

    `compute(position)` works a step out from scratch; a step whose key the
    previous version (or an earlier step of this one) had reuses that value,
    passed through `move(value, delta)` when it moved (`move=None`: values
    hold no absolute offsets). The memo returned holds this version's
    statements only, so it never grows past the document.
    """
    memo: StatementMemo[T] = {}
    found: list[tuple[int, T]] = []
    tokens = lex.tokens
    for position, unit in enumerate(units):
        first, after = unit[0], unit[1]
        base = tokens[first].start
        key = statement_key(source, lex, first, after)
        known = memo.get(key) or previous.get(key)
        if known is None:
            value = compute(position)
        elif move is None or known[0] == base:
            value = known[1]
        else:
            value = move(known[1], base - known[0])
        memo[key] = (base, value)
        found.append((base, value))
    return found, memo


def events_of(events: list[tuple], units: list[Unit], position: int) -> list[tuple]:
    """The scope events the top-level step at `position` recorded."""
    start = units[position - 1][2] if position > 0 else 0
    return events[start : units[position][2]]
