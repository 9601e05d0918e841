"""What the lexical index (`statement_index`) hands out: bindings, their
visibility intervals and references.

Made by replaying the parser's scope events (`statement_index.summarize_unit`),
so they follow exactly the binding structure the checker parsed, also in
broken source. Rules worth knowing:

- a binding is visible from the token after its construct (after a `let`
  initializer, after a parameter, after the `use` path, from `(` for a `fn`);
- only `fn`, lambda, `for`, `while` and `loop` open scopes; `if`/`else` and
  `try`/`catch` blocks do not, so a `let` inside them lives on;
- redeclaring in the same scope ends the previous binding's interval;
- definitions and resolved references share one occurrence budget; once it is
  spent nothing more is recorded and the index is marked truncated.
"""

from __future__ import annotations

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
    """A definition (its span is its symbol's) or a reference of a symbol."""

    symbol: Symbol
    start: int
    end: int


def innermost_visible(candidates, offset: int) -> Symbol | None:
    """Among same-named bindings, the one visible at `offset` that was bound last."""
    best: Symbol | None = None
    for symbol in candidates:
        if symbol.visible_at(offset) and (
            best is None or (symbol.visible_start, symbol.start) > (best.visible_start, best.start)
        ):
            best = symbol
    return best
