"""Direct alias edges: `let a = b`, `let a = b.c`, `let a = b.c.d`.

An edge is recorded for a `let` whose initializer is exactly a non-reserved
identifier followed by at most two `.identifier` selections and then a
statement end (newline, `;`, `}` or the end of the text). Edges are kept in
the order their `let` statements finish, up to MAX_STATIC_RECORD_ALIASES;
one more sets `truncated`. Consumers that need a whole alias group must
refuse to answer from a truncated list.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import MAX_STATIC_RECORD_ALIASES, MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH
from ..syntax.tokens import RESERVED_WORDS, Kind, Token
from ..syntax.tree import LET_INIT

_BOUNDARIES = frozenset({Kind.NEWLINE, Kind.SEMICOLON, Kind.RBRACE, Kind.END})


@dataclass(frozen=True, slots=True)
class AliasEdge:
    """`let binding = target(.child)*`, as token indexes."""

    binding: int
    target: int
    children: tuple[int, ...]

    @property
    def is_root(self) -> bool:
        return not self.children


@dataclass(frozen=True, slots=True)
class AliasEdges:
    edges: tuple[AliasEdge, ...]
    truncated: bool

    def root_edges(self) -> tuple[AliasEdge, ...]:
        return tuple(edge for edge in self.edges if edge.is_root)


def _plain_identifier(token: Token) -> bool:
    return token.kind is Kind.IDENT and token.text not in RESERVED_WORDS


def alias_selection(tokens: list[Token], index: int) -> tuple[int, ...] | None:
    """Child token indexes of a direct alias initializer at `index`, or None."""
    if index >= len(tokens) or not _plain_identifier(tokens[index]):
        return None
    children: list[int] = []
    end = index
    while len(children) < MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
        if end + 1 >= len(tokens):
            return None
        if not tokens[end + 1].is_op("."):
            break
        child = end + 2
        if child >= len(tokens) or not _plain_identifier(tokens[child]):
            return None
        children.append(child)
        end = child
    boundary = end + 1
    if boundary >= len(tokens) or tokens[boundary].kind not in _BOUNDARIES:
        return None
    return tuple(children)


def _selection_end(tokens: list[Token], target: int, children: tuple[int, ...]) -> int:
    return tokens[children[-1] if children else target].end


def collect_alias_edges(tokens: list[Token], events: list[tuple], prefix_end: int) -> AliasEdges:
    """Every direct alias edge ending before `prefix_end`, bounded."""
    found: list[AliasEdge] = []
    truncated = False
    for event in events:
        if event[0] != LET_INIT:
            continue
        _, binding, target = event
        children = alias_selection(tokens, target)
        if children is None or _selection_end(tokens, target, children) > prefix_end:
            continue
        if len(found) == MAX_STATIC_RECORD_ALIASES:
            truncated = True
            continue
        found.append(AliasEdge(binding, target, children))
    return AliasEdges(tuple(found), truncated)
