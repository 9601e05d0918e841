"""Same-document lexical index: bindings, visibility intervals, references.

Built by replaying the parser's scope events, so it sees exactly the binding
structure the checker parsed, also in broken source. Rules worth knowing:

- a binding is visible from the token after its construct (after a `let`
  initializer, after a parameter, after the `use` path, from `(` for a `fn`);
- only `fn`, lambda, `for`, `while` and `loop` open scopes; `if`/`else` and
  `try`/`catch` blocks do not, so a `let` inside them lives on;
- redeclaring in the same scope ends the previous binding's interval;
- definitions and resolved references share one occurrence budget; once it is
  spent nothing more is recorded and the index is marked truncated.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import NamedTuple

from ..limits import MAX_LEXICAL_COMPLETION_SITES, MAX_LEXICAL_SYMBOL_OCCURRENCES
from ..syntax.tokens import Token
from ..syntax.tree import DEFINE, POP, PUSH, REFERENCE, SymbolKind

OPEN_END = 1 << 62

KIND_LABELS = {
    SymbolKind.IMPORT: "import binding",
    SymbolKind.FUNCTION: "function",
    SymbolKind.LET: "binding",
    SymbolKind.PARAMETER: "function parameter",
    SymbolKind.LOOP_BINDING: "loop binding",
    SymbolKind.LAMBDA_PARAMETER: "lambda parameter",
}


@dataclass(slots=True)
class Symbol:
    kind: SymbolKind
    name: str
    start: int
    end: int
    visible_start: int
    visible_end: int = OPEN_END
    references: list[tuple[int, int]] = field(default_factory=list)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def visible_at(self, offset: int) -> bool:
        return self.visible_start <= offset < self.visible_end

    def occurrences(self) -> list[tuple[int, int]]:
        return [self.span, *self.references]


class Binding(NamedTuple):
    """A name in scope and what bound it (what identifier completion lists)."""

    name: str
    kind: SymbolKind


@dataclass(slots=True)
class Occurrence:
    symbol: Symbol
    start: int
    end: int
    is_definition: bool


@dataclass(slots=True)
class LexicalIndex:
    symbols: list[Symbol]
    sites: list[tuple[int, int]]
    truncated: bool
    sites_truncated: bool
    # Lookup tables, built on the first query that needs them: a request
    # after a keystroke usually asks one kind of question.
    _occurrence_starts: list[int] | None = field(default=None, repr=False, compare=False)
    _occurrences: list[Occurrence] | None = field(default=None, repr=False, compare=False)
    _site_starts: list[int] | None = field(default=None, repr=False, compare=False)
    _by_name: dict[str, list[Symbol]] | None = field(default=None, repr=False, compare=False)
    _by_start: dict[int, Symbol] | None = field(default=None, repr=False, compare=False)
    _scanned: bool = field(default=False, repr=False, compare=False)

    def _occurrence_table(self) -> tuple[list[int], list[Occurrence]]:
        if self._occurrences is None:
            found = []
            for symbol in self.symbols:
                found.append(Occurrence(symbol, symbol.start, symbol.end, True))
                for start, end in symbol.references:
                    found.append(Occurrence(symbol, start, end, False))
            found.sort(key=lambda item: item.start)
            self._occurrences = found
            self._occurrence_starts = [item.start for item in found]
        return self._occurrence_starts, self._occurrences

    def _names(self) -> dict[str, list[Symbol]]:
        if self._by_name is None:
            by_name: dict[str, list[Symbol]] = {}
            for symbol in self.symbols:
                by_name.setdefault(symbol.name, []).append(symbol)
            self._by_name = by_name
        return self._by_name

    def symbols_by_start(self) -> dict[int, Symbol]:
        """Every symbol by its definition start (one table per index, shared
        by the record resolver and the alias graph)."""
        if self._by_start is None:
            self._by_start = {symbol.start: symbol for symbol in self.symbols}
        return self._by_start

    def _sites_by_start(self) -> list[int]:
        if self._site_starts is None:
            self._site_starts = [start for start, _ in self.sites]
        return self._site_starts

    @property
    def incomplete(self) -> bool:
        return self.truncated or self.sites_truncated

    def _first_lookup(self) -> bool:
        """Whether this is the index's first occurrence lookup: one linear pass
        answers it for less than sorting every occurrence would cost (after a
        keystroke a version is usually asked once)."""
        if self._occurrences is not None or self._scanned:
            return False
        self._scanned = True
        return True

    def _scan(self, hit) -> Occurrence | None:
        for symbol in self.symbols:
            if hit(symbol.start, symbol.end):
                return Occurrence(symbol, symbol.start, symbol.end, True)
            for start, end in symbol.references:
                if hit(start, end):
                    return Occurrence(symbol, start, end, False)
        return None

    def occurrence_at(self, offset: int) -> Occurrence | None:
        """The definition or reference whose half-open span contains `offset`."""
        if self._first_lookup():
            # Occurrence spans never overlap: at most one contains the offset.
            return self._scan(lambda start, end: start <= offset < end)
        starts, occurrences = self._occurrence_table()
        position = bisect_right(starts, offset) - 1
        if position >= 0:
            candidate = occurrences[position]
            if candidate.start <= offset < candidate.end:
                return candidate
        return None

    def occurrence_ending_at(self, offset: int) -> Occurrence | None:
        if self._first_lookup():
            return self._scan(lambda start, end: end == offset)
        starts, occurrences = self._occurrence_table()
        position = bisect_right(starts, offset) - 1
        while position >= 0:
            candidate = occurrences[position]
            if candidate.end == offset:
                return candidate
            if candidate.end < offset:
                return None
            position -= 1
        return None

    def visible(self, name: str, offset: int) -> Symbol | None:
        """The innermost binding of `name` visible at `offset`."""
        return innermost_visible(self._names().get(name, ()), offset)

    def last_occurrence(self) -> int:
        """Start of the last definition or resolved reference recorded (-1: none)."""
        last = -1
        for symbol in self.symbols:
            last = max(last, symbol.start, symbol.references[-1][0] if symbol.references else -1)
        return last

    def visible_bindings(self, offset: int) -> list[Binding]:
        """Every binding visible at `offset`, innermost per name, sorted by name."""
        chosen: dict[str, Symbol] = {}
        for symbol in self.symbols:
            if not symbol.visible_at(offset):
                continue
            current = chosen.get(symbol.name)
            if current is None or (symbol.visible_start, symbol.start) > (
                current.visible_start,
                current.start,
            ):
                chosen[symbol.name] = symbol
        return [Binding(name, chosen[name].kind) for name in sorted(chosen)]

    def site_at(self, offset: int) -> tuple[int, int] | None:
        """First completion site containing `offset`, its end inclusive."""
        position = bisect_right(self._sites_by_start(), offset) - 1
        # Sites never overlap, but a site may end exactly where the next starts.
        for index in range(max(0, position - 1), min(len(self.sites), position + 1)):
            start, end = self.sites[index]
            if start <= offset <= end:
                return self.sites[index]
        return None

    def is_site(self, start: int, end: int) -> bool:
        position = bisect_right(self._sites_by_start(), start) - 1
        return position >= 0 and self.sites[position] == (start, end)


def innermost_visible(candidates, offset: int) -> Symbol | None:
    """Among same-named bindings, the one visible at `offset` that was bound last."""
    best: Symbol | None = None
    for symbol in candidates:
        if symbol.visible_at(offset) and (
            best is None or (symbol.visible_start, symbol.start) > (best.visible_start, best.start)
        ):
            best = symbol
    return best


EMPTY_INDEX = LexicalIndex([], [], False, False)


class _Collector:
    def __init__(self) -> None:
        self.symbols: list[Symbol] = []
        self.scopes: list[tuple[dict[str, int], list[int]]] = [({}, [])]
        self.sites: list[tuple[int, int]] = []
        self.occurrences = 0
        self.truncated = False
        self.sites_truncated = False

    def reserve_occurrence(self) -> bool:
        if self.truncated:
            return False
        if self.occurrences == MAX_LEXICAL_SYMBOL_OCCURRENCES:
            self.truncated = True
            return False
        self.occurrences += 1
        return True

    def define(self, token: Token, kind: SymbolKind, visible_start: int) -> None:
        if not self.reserve_occurrence():
            return
        index = len(self.symbols)
        self.symbols.append(Symbol(kind, token.text, token.start, token.end, visible_start))
        bindings, defined = self.scopes[-1]
        shadowed = bindings.get(token.text)
        bindings[token.text] = index
        if shadowed is not None:
            self.symbols[shadowed].visible_end = visible_start
        defined.append(index)

    def reference(self, token: Token) -> None:
        span = (token.start, token.end)
        if not self.sites_truncated:
            if len(self.sites) == MAX_LEXICAL_COMPLETION_SITES:
                self.sites_truncated = True
            else:
                self.sites.append(span)
        if self.truncated:
            return
        for bindings, _ in reversed(self.scopes):
            index = bindings.get(token.text)
            if index is not None:
                if self.reserve_occurrence():
                    self.symbols[index].references.append(span)
                return

    def close(self, defined: list[int], end: int) -> None:
        for index in defined:
            symbol = self.symbols[index]
            if symbol.visible_end == OPEN_END:
                symbol.visible_end = end

    def pop(self, end: int) -> None:
        if len(self.scopes) > 1:
            _, defined = self.scopes.pop()
            self.close(defined, end)

    def finish(self, source_length: int) -> LexicalIndex:
        while self.scopes:
            _, defined = self.scopes.pop()
            self.close(defined, source_length)
        symbols = sorted(self.symbols, key=lambda symbol: symbol.start)
        return LexicalIndex(symbols, self.sites, self.truncated, self.sites_truncated)


def build_lexical_index(
    tokens: list[Token], events: list[tuple], source_length: int
) -> LexicalIndex:
    collector = _Collector()
    for event in events:
        tag = event[0]
        if tag == REFERENCE:
            collector.reference(tokens[event[1]])
        elif tag == DEFINE:
            collector.define(tokens[event[1]], event[2], event[3])
        elif tag == PUSH:
            collector.scopes.append(({}, []))
        elif tag == POP:
            collector.pop(event[1])
    return collector.finish(source_length)
