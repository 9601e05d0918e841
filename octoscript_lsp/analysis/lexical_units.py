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


# Unit summaries by statement text (from its first token to the end of the
# token after it, which the parser examined too).
UnitMemo = dict[str, UnitSummary]


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
    )


def unit_summaries(
    source: str,
    tokens: list[Token],
    events: list[tuple],
    units: list[tuple[int, int, int, int, int]],
    previous: UnitMemo,
) -> tuple[list[tuple[int, UnitSummary]], UnitMemo]:
    """(base offset, summary) per top-level step, and this version's memo."""
    memo: UnitMemo = {}
    found: list[tuple[int, UnitSummary]] = []
    events_start = 0
    last = len(tokens) - 1
    for first, after, events_end, _, _ in units:
        base = tokens[first].start
        text = source[base : tokens[min(after, last)].end]
        summary = memo.get(text) or previous.get(text)
        if summary is None:
            summary = summarize_unit(tokens, events[events_start:events_end], base)
        memo[text] = summary
        found.append((base, summary))
        events_start = events_end
    return found, memo


def assemble(pieces: list[tuple[int, UnitSummary]], source_length: int) -> LexicalIndex | None:
    """The document's index from its statements' summaries; None when a budget
    would run out or a statement leaves a scope open (build it plainly then)."""
    total_sites = sum(len(summary.sites) for _, summary in pieces)
    if total_sites > MAX_LEXICAL_COMPLETION_SITES:
        return None
    symbols: list[Symbol] = []
    sites: list[tuple[int, int]] = []
    top: dict[str, Symbol] = {}
    occurrences = 0
    for position, (base, summary) in enumerate(pieces):
        if not summary.balanced and position != len(pieces) - 1:
            return None
        occurrences += summary.occurrences
        for name, start, end in summary.free:
            target = top.get(name)
            if target is not None:
                target.references.append((start + base, end + base))
                occurrences += 1
        if occurrences > MAX_LEXICAL_SYMBOL_OCCURRENCES:
            return None
        sites.extend((start + base, end + base) for start, end in summary.sites)
        made = []
        for kind, name, start, end, visible, visible_end, refs, top_level in summary.symbols:
            symbol = Symbol(
                kind,
                name,
                start + base,
                end + base,
                visible + base,
                source_length if visible_end == OPEN_END else visible_end + base,
                [(ref_start + base, ref_end + base) for ref_start, ref_end in refs],
            )
            made.append(symbol)
            if top_level:
                # Redeclaring ends the earlier binding, as replaying would.
                shadowed = top.get(name)
                if shadowed is not None:
                    shadowed.visible_end = symbol.visible_start
                top[name] = symbol
        made.sort(key=_symbol_start)
        symbols.extend(made)
    return LexicalIndex(symbols, sites, False, False)


def _symbol_start(symbol: Symbol) -> int:
    return symbol.start
