"""Exact `let` alias edges and the alias-group rules catalog assistance uses.

An *alias edge* is a `let` whose initializer is exactly `b`, `b.c` or
`b.c.d` (non-reserved identifiers joined by `.` tokens) followed by a
statement end. The edges are the record report's (`records.direct_alias`,
found statement by statement): only those ending inside the metadata
prefix, at most `MAX_STATIC_RECORD_ALIASES` of them (more marks the report
truncated). Each edge's target name is resolved where it is written, so a
later redeclaration never retargets it.

Two consumers follow these edges:

- module imports: a receiver bound by `let a = b` (root edges only, at most
  16 hops) resolves to the `use` it finally names. The whole *group* (the
  import binding and every alias resolving to it) must be stable anywhere in
  the document: each reference is the requested receiver, the target of a
  root edge whose alias is in the group, or a direct member call
  `ref.a.b(`;
- module call results: `let r = recv.m(x)` (or `.await()`) is the *root*;
  every root edge reaching it (16 hops) joins its group, a child edge
  (`let s = r.x`) on any group member refuses the group, and each reference
  must be the requested receiver, a member read that writes nothing, or the
  target of an edge whose alias is in the group.

Everything here is pure: source text, tokens, the lexical index and the
import report in, plain values out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..limits import (
    MAX_ALIAS_HOPS,
    MAX_IMPORTED_MODULE_ALIAS_DEPTH,
    MAX_MODULE_PATH_SEGMENTS,
)
from ..syntax.tree import SymbolKind
from .lexical import LexicalIndex, Symbol
from .records import RecordReport
from .sites import is_canonical_identifier, skip_trivia

Span = tuple[int, int]

#: Rust's `u8::is_ascii_whitespace` (no vertical tab).
_TRIVIA_SPACE = frozenset(" \t\n\x0c\r")
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_IDENT_CHARS = _IDENT_START | frozenset("0123456789")
_ESCAPING_CLOSERS = frozenset("[(,)]}")

#: Longest initializer a call-result binding may have (the reference counts bytes).
MAX_OUTPUT_INITIALIZER_CHARS = 64 * 1024
MAX_OUTPUT_CALL_DEPTH = 128


# ---------------------------------------------------------------- edges


@dataclass(frozen=True, slots=True)
class AliasEdge:
    binding: Span
    target: Span
    children: int  # how many `.name` selections follow the target (0..2)

    @property
    def is_root(self) -> bool:
        return self.children == 0


# ---------------------------------------------------------------- source trivia


def _char(source: str, index: int) -> str:
    return source[index] if 0 <= index < len(source) else ""


def _identifier_end(source: str, start: int) -> int:
    index = start + 1
    length = len(source)
    while index < length and source[index] in _IDENT_CHARS:
        index += 1
    return index


def is_assignment_at(source: str, index: int) -> bool:
    char = _char(source, index)
    following = _char(source, index + 1)
    if char == "=":
        return following != "="
    return char in ("+", "-", "*", "/", "%") and following == "="


def may_mutate(source: str, reference_end: int) -> bool:
    """Whether the text after a reference may write, call, index or escape it."""
    index = skip_trivia(source, reference_end)
    while True:
        if index is None:
            return True
        if is_assignment_at(source, index):
            return True
        char = _char(source, index)
        if char != ".":
            return char != "" and char in _ESCAPING_CLOSERS
        member = skip_trivia(source, index + 1)
        if member is None or _char(source, member) not in _IDENT_START:
            return True
        index = skip_trivia(source, _identifier_end(source, member))


def is_direct_member_call(source: str, reference_end: int) -> bool:
    """`ref.a(` or `ref.a.b(` (trivia allowed), at most 16 member names."""
    index = reference_end
    members = 0
    while True:
        separator = skip_trivia(source, index)
        if separator is None or _char(source, separator) != ".":
            return False
        member = skip_trivia(source, separator + 1)
        if member is None or _char(source, member) not in _IDENT_START:
            return False
        members += 1
        if members > MAX_MODULE_PATH_SEGMENTS:
            return False
        following = skip_trivia(source, _identifier_end(source, member))
        if following is None:
            return False
        char = _char(source, following)
        if char == "(":
            return True
        if char != ".":
            return False
        index = following


def is_stable_member_read(source: str, reference_end: int) -> bool:
    following = skip_trivia(source, reference_end)
    return (
        following is not None
        and _char(source, following) == "."
        and not may_mutate(source, reference_end)
    )


# ---------------------------------------------------------------- the graph


@dataclass(slots=True)
class AliasGraph:
    """Alias edges of one document with their targets resolved."""

    edges: tuple[AliasEdge, ...]
    truncated: bool
    symbols_by_start: dict[int, Symbol]
    #: binding start -> the symbol its target names where written (None: unresolved)
    targets: dict[int, Symbol | None]
    #: root edges only: binding start -> resolved target symbol
    root_targets: dict[int, Symbol] = field(default_factory=dict)
    _root_by_target: dict[Span, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for edge in self.edges:
            target = self.targets.get(edge.binding[0])
            if edge.is_root and target is not None:
                self.root_targets[edge.binding[0]] = target
                self._root_by_target[edge.target] = edge.binding[0]

    # -- imports -------------------------------------------------------------

    def import_binding_for(self, binding_start: int, import_bindings: set[int]) -> int | None:
        """The import binding a root-alias chain reaches within 16 hops."""
        current = binding_start
        visited: set[int] = set()
        for depth in range(MAX_IMPORTED_MODULE_ALIAS_DEPTH + 1):
            if current in visited:
                return None
            visited.add(current)
            if current in import_bindings:
                return current
            symbol = self.symbols_by_start.get(current)
            if depth == MAX_IMPORTED_MODULE_ALIAS_DEPTH or symbol is None:
                return None
            if symbol.kind is not SymbolKind.LET:
                return None
            target = self.root_targets.get(current)
            if target is None:
                return None
            current = target.start
        return None

    def import_group(self, import_binding: int, import_bindings: set[int]) -> set[int]:
        group = {import_binding}
        for start in self.root_targets:
            if self.import_binding_for(start, import_bindings) == import_binding:
                group.add(start)
        return group

    def import_group_is_stable(self, source: str, group: set[int], receiver: Span) -> bool:
        for start in group:
            symbol = self.symbols_by_start.get(start)
            if symbol is None:
                return False
            for reference in symbol.references:
                if reference == receiver:
                    continue
                alias = self._root_by_target.get(reference)
                if alias is not None and alias in group:
                    continue
                if is_direct_member_call(source, reference[1]):
                    continue
                return False
        return True

    # -- call results ---------------------------------------------------------

    def output_root(self, initial: Symbol) -> Symbol | None:
        """Follow root edges between `let`s to the first binding that is no alias."""
        current = initial
        visited: set[int] = set()
        for depth in range(MAX_ALIAS_HOPS + 1):
            if current.start in visited:
                return None
            visited.add(current.start)
            target = self.root_targets.get(current.start)
            if target is None or target.kind is not SymbolKind.LET:
                return current
            if depth == MAX_ALIAS_HOPS:
                return None
            following = self.symbols_by_start.get(target.start)
            if following is None:
                return None
            current = following
        return None

    def output_group(self, root: Symbol) -> set[int] | None:
        """Every alias reaching `root`; None when a child edge or an over-long chain touches it."""
        children: dict[int, list[AliasEdge]] = {}
        for edge in self.edges:
            target = self.targets.get(edge.binding[0])
            if target is not None and target.kind is SymbolKind.LET:
                children.setdefault(target.start, []).append(edge)
        depths = {root.start: 0}
        frontier = [root.start]
        while frontier:
            following: list[int] = []
            for member in frontier:
                for edge in children.get(member, ()):
                    if not edge.is_root or depths[member] == MAX_ALIAS_HOPS:
                        return None
                    start = edge.binding[0]
                    if start not in depths:
                        depths[start] = depths[member] + 1
                        following.append(start)
            frontier = following
        return set(depths)

    def output_group_is_stable(self, source: str, group: set[int], receiver: Span) -> bool:
        group_targets = {edge.target for edge in self.edges if edge.binding[0] in group}
        for start in group:
            symbol = self.symbols_by_start.get(start)
            if symbol is None:
                return False
            for reference in symbol.references:
                if reference == receiver or reference in group_targets:
                    continue
                if is_stable_member_read(source, reference[1]):
                    continue
                return False
        return True


def build_alias_graph(source: str, index: LexicalIndex, report: RecordReport) -> AliasGraph:
    """The graph over the record report's exact alias initializers.

    `records` already finds every `let a = b[.c[.d]]` inside the metadata
    prefix, under the same edge budget, statement by statement; the graph
    takes those edges instead of scanning the initializers again.
    """
    edges = tuple(
        AliasEdge(alias.binding, alias.target, len(alias.children)) for alias in report.aliases
    )
    targets: dict[int, Symbol | None] = {}
    for edge in edges:
        name = source[edge.target[0] : edge.target[1]]
        targets[edge.binding[0]] = index.visible(name, edge.target[0])
    return AliasGraph(edges, report.aliases_truncated, index.symbols_by_start(), targets)


EMPTY_GRAPH = AliasGraph((), False, {}, {})


# ---------------------------------------------------------------- call results


@dataclass(frozen=True, slots=True)
class OutputCall:
    """`recv.method(x)` as a whole `let` initializer, maybe followed by `.await()`."""

    receiver: Span
    member: Span
    awaited: bool


def output_call_binding(source: str, symbol: Symbol, prefix_end: int) -> OutputCall | None:
    """Recognize `let r = recv.method(x)` / `... .await()` from the source text."""
    if symbol.kind is not SymbolKind.LET or symbol.end > prefix_end or prefix_end > len(source):
        return None
    limit = min(symbol.end + MAX_OUTPUT_INITIALIZER_CHARS, prefix_end)
    assignment = _skip_trivia_before(source, symbol.end, limit)
    if assignment is None or _char(source, assignment) != "=":
        return None
    if assignment + 1 < limit and source[assignment + 1] == "=":
        return None
    start = _skip_trivia_before(source, assignment + 1, limit)
    if start is None:
        return None
    found = _direct_call_at(source, start, min(start + MAX_OUTPUT_INITIALIZER_CHARS, prefix_end))
    if found is None:
        return None
    receiver, member, call_end = found
    awaited = source.startswith(".await()", call_end) and call_end + 8 <= limit
    end = call_end + 8 if awaited else call_end
    if not _statement_boundary(source, end, limit):
        return None
    return OutputCall(receiver, member, awaited)


def _skip_trivia_before(source: str, index: int, end: int) -> int | None:
    while True:
        while index < end and source[index] in _TRIVIA_SPACE:
            index += 1
        if index >= end or source[index] != "/" or index + 1 >= end:
            return index
        following = source[index + 1]
        if following == "/":
            index += 2
            while index < end and source[index] not in "\n\r":
                index += 1
        elif following == "*":
            close = source.find("*/", index + 2, end)
            if close == -1:
                return None
            index = close + 2
        else:
            return index


def _identifier_end_within(source: str, start: int, limit: int) -> int | None:
    if start >= limit or source[start] not in _IDENT_START:
        return None
    end = start + 1
    while end < limit and source[end] in _IDENT_CHARS:
        end += 1
    return end if is_canonical_identifier(source[start:end]) else None


def _direct_call_at(source: str, start: int, limit: int) -> tuple[Span, Span, int] | None:
    receiver_end = _identifier_end_within(source, start, limit)
    if receiver_end is None or receiver_end >= limit or source[receiver_end] != ".":
        return None
    member_end = _identifier_end_within(source, receiver_end + 1, limit)
    if member_end is None or member_end >= limit or source[member_end] != "(":
        return None
    call_end = _single_argument_call_end(source, member_end, limit)
    if call_end is None:
        return None
    return (start, receiver_end), (receiver_end + 1, member_end), call_end


_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(")]}")


def _single_argument_call_end(source: str, opening: int, limit: int) -> int | None:
    """End of `( x )` with exactly one non-empty argument, else None."""
    stack = [")"]
    started = False
    index = opening + 1
    while index < limit:
        char = source[index]
        if char == '"':
            started = True
            index = _string_end(source, index, limit)
            if index is None:
                return None
            continue
        if char == "/" and index + 1 < limit and source[index + 1] in "/*":
            index = _comment_end(source, index, limit)
            if index is None:
                return None
            continue
        if char in _OPENERS:
            if len(stack) == MAX_OUTPUT_CALL_DEPTH:
                return None
            started = True
            stack.append(_OPENERS[char])
        elif char in _CLOSERS:
            if stack.pop() != char:
                return None
            if not stack:
                return index + 1 if started else None
        elif char in ",;" and len(stack) == 1:
            return None
        elif char not in _TRIVIA_SPACE:
            started = True
        index += 1
    return None


def _string_end(source: str, opening: int, limit: int) -> int | None:
    index = opening + 1
    while index < limit:
        char = source[index]
        if char == '"':
            return index + 1
        if char == "\\":
            index += 2
        elif char in "\n\r":
            return None
        else:
            index += 1
    return None


def _comment_end(source: str, start: int, limit: int) -> int | None:
    if source[start + 1] == "/":
        index = start + 2
        while index < limit and source[index] not in "\n\r":
            index += 1
        return index
    close = source.find("*/", start + 2, limit)
    return None if close == -1 else close + 2


def _statement_boundary(source: str, index: int, limit: int) -> bool:
    """Only trivia, then a newline, `;` or `}` (or the end of the prefix)."""
    if index > limit:
        return False
    while index < limit:
        char = source[index]
        if char in ";}\n":
            return True
        if char == "\r":
            return index + 1 < limit and source[index + 1] == "\n"
        if char in _TRIVIA_SPACE:
            index += 1
        elif char == "/" and index + 1 < limit and source[index + 1] == "/":
            index += 2
            while index < limit and source[index] not in "\n\r":
                index += 1
        elif char == "/" and index + 1 < limit and source[index + 1] == "*":
            close = source.find("*/", index + 2, limit)
            body_end = limit if close == -1 else close
            if any(mark in source[index + 2 : body_end] for mark in "\n\r"):
                return True
            if close == -1:
                return False
            index = close + 2
        else:
            return False
    return True
