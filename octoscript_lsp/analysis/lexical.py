"""Same-document lexical index: bindings, visibility intervals, references.

Built by replaying the parser's scope events (`unit_summary.summarize_unit`,
per statement or over the whole text), so it sees exactly the binding
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

from ..syntax.tree import SymbolKind

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
