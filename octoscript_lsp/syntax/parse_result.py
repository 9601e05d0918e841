"""What a parse produced, and how its items are placed elsewhere (moved by
an offset and a token index shift)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .diagnostics import Diagnostic
from .tree import DEFINE, IMPORT, LET_INIT, POP, REFERENCE, Node


@dataclass(slots=True)
class ParseResult:
    tree: Node
    diagnostics: list[Diagnostic]
    truncated: bool
    first_diagnostic_offset: int | None
    events: Sequence[tuple]
    # Every diagnostic, unbounded, so a later incremental parse can replay them.
    all_diagnostics: list[Diagnostic] = field(default_factory=list)
    # One entry per top-level parse step (a statement or a stray `}`): (index
    # of its first token, index of the token after it, events end,
    # all_diagnostics end, children end).
    units: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    # Per step: whether it holds a lambda or a conditional whose condition is
    # an assignment, the only places the runtime-parser rules
    # (`vm_compat`) can find anything; the other steps need no look.
    unit_runtime_checks: list[bool] = field(default_factory=list)


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
