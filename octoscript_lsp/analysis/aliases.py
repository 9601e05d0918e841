"""The alias model: exact `let` alias edges and the alias-group rules.

An *alias edge* is a `let` whose initializer is exactly `b`, `b.c` or
`b.c.d` (non-reserved identifiers joined by `.` tokens) followed by a
statement end. The edges are the record report's (found statement by
statement, `statement_facts`): only those ending inside the metadata prefix,
at most `MAX_STATIC_RECORD_ALIASES` of them (more marks the report
truncated). Each edge's target name is resolved where it is written, so a
later redeclaration never retargets it.

Nothing is built for the whole document: a query follows the chain of the
one binding asked about, resolving each edge's target when it reaches it;
only the group rules below look at every edge (there are few), never at
every statement. Two consumers follow the edges:

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

Everything here is pure: source text, the lexical index and the record
report in, plain values out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..limits import MAX_ALIAS_HOPS, MAX_IMPORTED_MODULE_ALIAS_DEPTH, MAX_MODULE_PATH_SEGMENTS
from ..syntax.member_calls import MemberCallText, member_call_after
from ..syntax.tree import SymbolKind
from ..syntax.trivia import skip_trivia
from .lexical import Symbol
from .record_scan import RecordAlias
from .sites import may_mutate
from .statement_facts import ModuleImport
from .statement_index import StatementIndex

if TYPE_CHECKING:
    from .records import RecordReport

Span = tuple[int, int]


# ---------------------------------------------------------------- the chain walk
#
# Imports (`AliasGraph.import_binding_for`), call results (`AliasGraph.output_root`)
# and record shapes (`records.RecordResolver._walk`) follow a chain from a
# binding until it *arrives*; they differ only in where it arrives and how one
# step is taken. The one stopping rule: a binding met twice is a `CYCLE`; one
# that arrives ends the chain `ARRIVED`; after `max_hops` steps one that has not
# arrived ends it `TOO_LONG` (the spec's hop limits); otherwise the step names
# the next binding or says why the chain cannot go on (`STOPPED`, its reason).


class ChainEnd(Enum):
    ARRIVED = "arrived"
    STOPPED = "stopped"
    CYCLE = "cycle"
    TOO_LONG = "too long"


@dataclass(frozen=True, slots=True)
class Stop:
    """A step that cannot go on, and why (the caller's own value)."""

    reason: object = None


@dataclass(frozen=True, slots=True)
class ChainWalk:
    end: ChainEnd
    node: Symbol  # where the chain ended (the binding that arrived or stopped)
    reason: object = None  # a `Stop`'s reason


def walk_chain(
    start: Symbol,
    arrived: Callable[[Symbol], bool],
    step: Callable[[Symbol], Symbol | Stop],
    max_hops: int,
) -> ChainWalk:
    """Follow `step` from `start` by the one stopping rule; bindings are told
    apart by where they are defined."""
    current = start
    visited: set[int] = set()
    for hops in range(max_hops + 1):
        if current.start in visited:
            return ChainWalk(ChainEnd.CYCLE, current)
        visited.add(current.start)
        if arrived(current):
            return ChainWalk(ChainEnd.ARRIVED, current)
        if hops == max_hops:
            break
        following = step(current)
        if isinstance(following, Stop):
            return ChainWalk(ChainEnd.STOPPED, current, following.reason)
        current = following
    return ChainWalk(ChainEnd.TOO_LONG, current)


def alias_symbol(source: str, index: StatementIndex, alias: RecordAlias) -> Symbol | None:
    """The `let` symbol an alias edge binds: visible from the statement end."""
    start, end = alias.binding
    symbol = index.visible(source[start:end], alias.visible_from)
    if symbol is not None and symbol.start == start:
        return symbol
    # Not visible there (a scope closing right after it): the full table.
    return index.symbol_defined_at(start)


# ---------------------------------------------------------------- reference checks


#: `ref.a(` or `ref.a.b(` (trivia allowed), at most 16 member names.
DIRECT_MEMBER_CALL = MemberCallText(
    trivia=True, max_members=MAX_MODULE_PATH_SEGMENTS, canonical=False
)


def is_direct_member_call(source: str, reference_end: int) -> bool:
    """`ref.a(` or `ref.a.b(` (trivia allowed), at most 16 member names."""
    return member_call_after(source, reference_end, DIRECT_MEMBER_CALL) is not None


def is_stable_member_read(source: str, reference_end: int) -> bool:
    following = skip_trivia(source, reference_end)
    return (
        following is not None
        and source[following : following + 1] == "."
        and not may_mutate(source, reference_end)
    )


# ---------------------------------------------------------------- the graph

_NO_ROOT_EDGE = Stop("no root edge")


class AliasGraph:
    """Alias edges of one document version, resolved on demand."""

    def __init__(self, source: str, index: StatementIndex, report: RecordReport) -> None:
        self.source = source
        self.index = index
        self.report = report
        #: alias binding start -> the symbol its target names where written
        self._targets: dict[int, Symbol | None] = {}
        self._imports: dict[int, int | None] = {}

    @property
    def truncated(self) -> bool:
        return self.report.aliases_truncated

    def target_of(self, alias: RecordAlias) -> Symbol | None:
        """The binding an edge's target names where it is written."""
        start = alias.binding[0]
        if start not in self._targets:
            target_start, target_end = alias.target
            name = self.source[target_start:target_end]
            self._targets[start] = self.index.visible(name, target_start)
        return self._targets[start]

    def root_target(self, binding_start: int) -> Symbol | None:
        """The resolved target of the root edge a binding introduces, if any."""
        alias = self.report.alias_for(binding_start)
        if alias is None or not alias.is_root:
            return None
        return self.target_of(alias)

    # -- imports -------------------------------------------------------------

    def import_reached(
        self, symbol: Symbol, by_binding: dict[int, ModuleImport]
    ) -> ModuleImport | None:
        """The `use` a binding is, or reaches through exact root edges (16 hops).

        The one answer to "which import does this receiver name" for catalog
        assistance and the tool-call review; each then applies its own group
        stability rule.
        """
        if symbol.kind is SymbolKind.IMPORT:
            return by_binding.get(symbol.start)
        if symbol.kind is not SymbolKind.LET:
            return None
        binding = self.import_binding_for(symbol, set(by_binding))
        return None if binding is None else by_binding.get(binding)

    def import_binding_for(self, symbol: Symbol, import_bindings: set[int]) -> int | None:
        """The import binding a root-alias chain from `symbol` reaches within 16 hops."""
        if symbol.start not in self._imports:
            walk = walk_chain(
                symbol,
                lambda current: current.start in import_bindings,
                self._root_step,
                MAX_IMPORTED_MODULE_ALIAS_DEPTH,
            )
            arrived = walk.node.start if walk.end is ChainEnd.ARRIVED else None
            self._imports[symbol.start] = arrived
        return self._imports[symbol.start]

    def _root_step(self, symbol: Symbol) -> Symbol | Stop:
        """The binding a `let`'s root edge names, or a stop (no such edge)."""
        if symbol.kind is not SymbolKind.LET:
            return _NO_ROOT_EDGE
        target = self.root_target(symbol.start)
        return _NO_ROOT_EDGE if target is None else target

    def _root_edges(self) -> list[RecordAlias]:
        """Root edges whose target resolves (the only ones a chain can take)."""
        return [
            alias
            for alias in self.report.aliases
            if alias.is_root and self.target_of(alias) is not None
        ]

    def import_group(self, import_binding: int, import_bindings: set[int]) -> set[int]:
        group = {import_binding}
        for alias in self._root_edges():
            symbol = alias_symbol(self.source, self.index, alias)
            if symbol is not None and (
                self.import_binding_for(symbol, import_bindings) == import_binding
            ):
                group.add(symbol.start)
        return group

    def group_references_allowed(self, group: set[int], allowed: Callable[[Span], bool]) -> bool:
        """Every reference of an import group is a group alias's target or `allowed`.

        The import group's stability rules differ only in `allowed`: the
        completion receiver or a direct member call (assistance), any
        module-call receiver (the tool-call review).
        """
        return self._references_allowed(group, self._root_edges(), allowed)

    def _references_allowed(
        self, group: set[int], edges: list[RecordAlias], allowed: Callable[[Span], bool]
    ) -> bool:
        """Every reference of a group member is the target of one of its
        `edges` or `allowed`."""
        group_targets = {alias.target for alias in edges if alias.binding[0] in group}
        for start in group:
            symbol = self.index.symbol_defined_at(start)
            if symbol is None:
                return False
            for reference in symbol.references:
                if reference not in group_targets and not allowed(reference):
                    return False
        return True

    def import_group_is_stable(self, group: set[int], receiver: Span) -> bool:
        source = self.source
        return self.group_references_allowed(
            group,
            lambda reference: reference == receiver or is_direct_member_call(source, reference[1]),
        )

    # -- call results ---------------------------------------------------------

    def output_root(self, initial: Symbol) -> Symbol | None:
        """Follow root edges between `let`s to the first binding that is no alias."""
        walk = walk_chain(initial, self._is_no_let_alias, self._root_step, MAX_ALIAS_HOPS)
        return walk.node if walk.end is ChainEnd.ARRIVED else None

    def _is_no_let_alias(self, symbol: Symbol) -> bool:
        target = self.root_target(symbol.start)
        return target is None or target.kind is not SymbolKind.LET

    def output_group(self, root: Symbol) -> set[int] | None:
        """Every alias reaching `root`; None when a child edge or an over-long chain touches it."""
        children: dict[int, list[RecordAlias]] = {}
        for alias in self.report.aliases:
            target = self.target_of(alias)
            if target is not None and target.kind is SymbolKind.LET:
                children.setdefault(target.start, []).append(alias)
        depths = {root.start: 0}
        frontier = [root.start]
        while frontier:
            following: list[int] = []
            for member in frontier:
                for alias in children.get(member, ()):
                    if not alias.is_root or depths[member] == MAX_ALIAS_HOPS:
                        return None
                    start = alias.binding[0]
                    if start not in depths:
                        depths[start] = depths[member] + 1
                        following.append(start)
            frontier = following
        return set(depths)

    def output_group_is_stable(self, group: set[int], receiver: Span) -> bool:
        source = self.source
        return self._references_allowed(
            group,
            self.report.aliases,
            lambda reference: reference == receiver or is_stable_member_read(source, reference[1]),
        )
