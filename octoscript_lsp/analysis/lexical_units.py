"""The lexical index assembled from per-statement pieces, reused across versions.

A top-level statement's scope events depend only on its own text: the parser
starts every top-level step in the same state. So each statement is replayed
once into a position-independent `UnitSummary` (offsets relative to its first
token), kept by its text, and the next version reuses every summary whose
statement text is unchanged. Assembling the document's index is then a merge:
resolve each statement's free references against the top-level bindings made
before it, then add its own top-level bindings.

The merge gives exactly what `lexical.build_lexical_index` gives when neither
budget runs out and every statement closes the scopes it opens; otherwise the
caller builds the index the plain way (`assemble` answers None).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES
from ..syntax.lexer import LexResult
from ..syntax.statements import StatementMemo, events_of, per_statement
from ..syntax.tokens import Token
from ..syntax.tree import DEFINE, POP, PUSH, REFERENCE, SymbolKind
from .lexical import OPEN_END, LexicalIndex, Symbol

# (kind, name, start, end, visible_start, visible_end, references, top_level),
# offsets relative to the statement's first token; visible_end may be OPEN_END.
LocalSymbol = tuple[SymbolKind, str, int, int, int, int, tuple[tuple[int, int], ...], bool]


@dataclass(frozen=True, slots=True)
class UnitSummary:
    """One top-level statement's bindings, references and sites, relative."""

    symbols: tuple[LocalSymbol, ...]  # in definition order
    free: tuple[tuple[str, int, int], ...]  # references no binding inside resolves
    sites: tuple[tuple[int, int], ...]
    occurrences: int  # definitions plus references resolved inside
    balanced: bool  # every scope it opens it closes
    tops: tuple[int, ...]  # positions in `symbols` of its top-level bindings


# Unit summaries by statement text (from its first token to the end of the
# token after it, which the parser examined too).
UnitMemo = StatementMemo[UnitSummary]


def summarize_unit(tokens: list[Token], events: list[tuple], base: int) -> UnitSummary:
    """Replay one statement's events with only the top-level scope around them."""
    symbols: list[list] = []
    scopes: list[tuple[dict[str, int], list[int]]] = [({}, [])]
    free: list[tuple[str, int, int]] = []
    sites: list[tuple[int, int]] = []
    occurrences = 0
    for event in events:
        tag = event[0]
        if tag == REFERENCE:
            token = tokens[event[1]]
            span = (token.start - base, token.end - base)
            sites.append(span)
            for bindings, _ in reversed(scopes):
                index = bindings.get(token.text)
                if index is not None:
                    symbols[index][6].append(span)
                    occurrences += 1
                    break
            else:
                free.append((token.text, span[0], span[1]))
        elif tag == DEFINE:
            token = tokens[event[1]]
            occurrences += 1
            index = len(symbols)
            visible_start = event[3] - base
            symbols.append(
                [
                    event[2],
                    token.text,
                    token.start - base,
                    token.end - base,
                    visible_start,
                    OPEN_END,
                    [],
                    len(scopes) == 1,
                ]
            )
            bindings, defined = scopes[-1]
            shadowed = bindings.get(token.text)
            bindings[token.text] = index
            if shadowed is not None:
                symbols[shadowed][5] = visible_start
            defined.append(index)
        elif tag == PUSH:
            scopes.append(({}, []))
        elif tag == POP and len(scopes) > 1:
            _, defined = scopes.pop()
            for index in defined:
                if symbols[index][5] == OPEN_END:
                    symbols[index][5] = event[1] - base
    return UnitSummary(
        tuple(
            (kind, name, start, end, visible, visible_end, tuple(refs), top)
            for kind, name, start, end, visible, visible_end, refs, top in symbols
        ),
        tuple(free),
        tuple(sites),
        occurrences,
        len(scopes) == 1,
        tuple(number for number, symbol in enumerate(symbols) if symbol[7]),
    )


def unit_summaries(
    source: str,
    lex: LexResult,
    events: list[tuple],
    units: list[tuple[int, int, int, int, int]],
    previous: UnitMemo,
) -> tuple[list[tuple[int, UnitSummary]], UnitMemo]:
    """(base offset, summary) per top-level step, and this version's memo."""
    tokens = lex.tokens
    # Summaries hold offsets relative to their statement: a moved one is reused as is.
    return per_statement(
        source,
        lex,
        units,
        previous,
        lambda position: summarize_unit(
            tokens, events_of(events, units, position), tokens[units[position][0]].start
        ),
        None,
    )


@dataclass(slots=True)
class _Placed:
    """One statement's symbols and sites at one offset, kept for the next version."""

    summary: UnitSummary
    symbols: list[Symbol]  # in definition order
    sites: list[tuple[int, int]]
    ordered: list[Symbol]  # by start, as the index lists them


# Placed statements by (id of the summary, base offset); the entry keeps the
# summary alive, so the id cannot be reused while it is in the memo.
PlacedMemo = dict[tuple[int, int], _Placed]


def assemble(
    pieces: list[tuple[int, UnitSummary]],
    source_length: int,
    previous: PlacedMemo | None = None,
) -> tuple[LexicalIndex, PlacedMemo] | None:
    """The document's index from its statements' summaries; None when a budget
    would run out or a statement leaves a scope open (build it plainly then).

    A statement at the same offset as in the earlier version keeps its Symbol
    objects where they come out equal (their references and visibility are
    checked: a top-level binding's depend on the statements after it).
    """
    total_sites = sum(len(summary.sites) for _, summary in pieces)
    if total_sites > MAX_LEXICAL_COMPLETION_SITES:
        return None
    previous = previous or {}
    last = len(pieces) - 1
    # Pass 1, on plain values: resolve free references and top-level shadowing.
    # A top-level binding is known by `_slot(piece, position in its summary)`.
    top: dict[str, int] = {}
    extra: dict[int, list[tuple[int, int]]] = {}
    ended: dict[int, int] = {}
    occurrences = 0
    for position, (base, summary) in enumerate(pieces):
        if not summary.balanced and position != last:
            return None
        occurrences += summary.occurrences
        for name, start, end in summary.free:
            target = top.get(name)
            if target is not None:
                extra.setdefault(target, []).append((start + base, end + base))
                occurrences += 1
        for number in summary.tops:
            local = summary.symbols[number]
            shadowed = top.get(local[1])
            if shadowed is not None:
                ended[shadowed] = local[4] + base
            top[local[1]] = _slot(position, number)
    if occurrences > MAX_LEXICAL_SYMBOL_OCCURRENCES:
        return None
    # Pass 2: Symbol objects, reused from the earlier version where equal.
    memo: PlacedMemo = {}
    symbols: list[Symbol] = []
    sites: list[tuple[int, int]] = []
    for position, (base, summary) in enumerate(pieces):
        key = (id(summary), base)
        placed = previous.get(key)
        if placed is None or placed.summary is not summary or position == last:
            placed = _place(summary, base, source_length)
        if summary.tops:
            placed = _with_top_level(placed, position, base, source_length, extra, ended)
        memo[key] = placed
        symbols.extend(placed.ordered)
        sites.extend(placed.sites)
    return LexicalIndex(symbols, sites, False, False), memo


def _slot(position: int, number: int) -> int:
    return (position << 20) | number


def _with_top_level(
    placed: _Placed,
    position: int,
    base: int,
    source_length: int,
    extra: dict[int, list[tuple[int, int]]],
    ended: dict[int, int],
) -> _Placed:
    """`placed` with its top-level bindings' later references and visibility end."""
    summary = placed.summary
    made = placed.symbols
    for number in summary.tops:
        local = summary.symbols[number]
        symbol = made[number]
        slot = _slot(position, number)
        more = extra.get(slot, [])
        visible_end = ended.get(slot)
        if visible_end is None:
            visible_end = _own_end(local, base, source_length)
        if symbol.visible_end == visible_end and symbol.references[len(local[6]) :] == more:
            continue
        if made is placed.symbols:
            made = list(made)
        made[number] = Symbol(
            symbol.kind,
            symbol.name,
            symbol.start,
            symbol.end,
            symbol.visible_start,
            visible_end,
            _relative_references(local, base) + more,
        )
    if made is placed.symbols:
        return placed
    return _Placed(summary, made, placed.sites, _ordered(made))


def _ordered(symbols: list[Symbol]) -> list[Symbol]:
    return sorted(symbols, key=_symbol_start) if len(symbols) > 1 else symbols


def _place(summary: UnitSummary, base: int, source_length: int) -> _Placed:
    symbols = [
        Symbol(
            local[0],
            local[1],
            local[2] + base,
            local[3] + base,
            local[4] + base,
            _own_end(local, base, source_length),
            _relative_references(local, base),
        )
        for local in summary.symbols
    ]
    sites = [(start + base, end + base) for start, end in summary.sites]
    return _Placed(summary, symbols, sites, _ordered(symbols))


def _own_end(local: LocalSymbol, base: int, source_length: int) -> int:
    return source_length if local[5] == OPEN_END else local[5] + base


def _relative_references(local: LocalSymbol, base: int) -> list[tuple[int, int]]:
    return [(start + base, end + base) for start, end in local[6]]


def _symbol_start(symbol: Symbol) -> int:
    return symbol.start
