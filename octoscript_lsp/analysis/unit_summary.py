"""The one replay of scope events, and a top-level statement's lexical
summary: its bindings, references and sites, relative to its first token.

The parser starts every top-level step in the same state, so a statement's
scope events depend on its own text only: `summarize_unit` replays them once
into a position-independent `UnitSummary`, asked of the statement's cache
(`lexical_summary`). The document's index (`statement_index`) is joined
from these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..syntax.statements import Statement
from ..syntax.tokens import Token
from ..syntax.tree import DEFINE, POP, PUSH, REFERENCE, SymbolKind
from .lexical import OPEN_END


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
