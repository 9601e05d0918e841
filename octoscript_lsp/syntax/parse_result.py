"""What a parse produced, and how a later parse of an edited text reuses it:
the unchanged tail's steps, moved by the edit's offset and token shifts."""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostic
from .lexer import LexResult, starts_in_initial_state
from .moved import Move, MovedList
from .statements import StepMap
from .tree import DEFINE, IMPORT, LET_INIT, POP, REFERENCE, Node


@dataclass(slots=True)
class ParseResult:
    tree: Node
    diagnostics: list[Diagnostic]
    truncated: bool
    first_diagnostic_offset: int | None
    # Lists, or MovedLists after an edit that moved the unchanged tail.
    events: list[tuple] | MovedList[tuple]
    # Every diagnostic, unbounded, so a later incremental parse can replay them.
    all_diagnostics: list[Diagnostic] = field(default_factory=list)
    # One entry per top-level parse step (a statement or a stray `}`): (index
    # of its first token, index of the token after it, events end,
    # all_diagnostics end, children end).
    units: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    # Offset of each step's first token.
    unit_offsets: list[int] = field(default_factory=list)
    # Which steps were carried over from the parse this one reused (None:
    # parsed from scratch).
    kept: StepMap | None = None
    # Per step: whether it holds a lambda or a conditional whose condition is
    # an assignment, the only places the runtime-parser rules
    # (`vm_compat`) can find anything; the other steps need no look.
    unit_runtime_checks: list[bool] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TailReuse:
    """How the unchanged tail of a document maps onto an earlier parse."""

    previous: ParseResult
    previous_lex: LexResult
    lex: LexResult  # this version's tokens and comments
    delta: int  # new offset minus old offset, throughout the unchanged tail
    from_offset: int  # new offsets from here on lie in the unchanged tail

    def same_tokens_from(self, index: int, old_index: int) -> bool:
        """Whether the new tokens from `index` on are the old ones from `old_index`, shifted.

        Both texts are equal from the token's start on (it lies in the
        unchanged tail); if the lexer was in its initial state there in both
        versions, it produced the same tokens from there on. Counting the
        remaining tokens alone is not enough: a newline that moved into or
        out of a block comment keeps the count and changes the statements.
        """
        old_tokens = self.previous_lex.tokens
        if len(self.lex.tokens) - index != len(old_tokens) - old_index:
            return False
        return starts_in_initial_state(self.lex, index) and starts_in_initial_state(
            self.previous_lex, old_index
        )


def shifted_event(event: tuple, shift: int, delta: int) -> tuple:
    tag = event[0]
    if tag == REFERENCE:
        return (REFERENCE, event[1] + shift)
    if tag == DEFINE:
        return (DEFINE, event[1] + shift, event[2], event[3] + delta)
    if tag == POP:
        return (POP, event[1] + delta)
    if tag == LET_INIT:
        return (LET_INIT, event[1] + shift, event[2] + shift)
    if tag == IMPORT:
        return (IMPORT, event[1], event[2] + delta, event[3] + delta, event[4] + shift)
    return event


def moved_events(events: list[tuple], move: Move) -> list[tuple]:
    shift, delta = move
    return [shifted_event(event, shift, delta) for event in events]


def moved_nodes(nodes: list[Node], move: Move) -> list[Node]:
    shift, delta = move
    return [shifted_node(node, shift, delta) for node in nodes]


def shifted_node(node: Node, shift: int, delta: int) -> Node:
    root = Node(
        node.kind,
        node.start + delta,
        node.end + delta,
        [],
        node.token + shift if node.token >= 0 else -1,
    )
    stack = [(node, root)]
    while stack:
        original, copy = stack.pop()
        for child in original.children:
            twin = Node(
                child.kind,
                child.start + delta,
                child.end + delta,
                [],
                child.token + shift if child.token >= 0 else -1,
            )
            copy.children.append(twin)
            stack.append((child, twin))
    return root
