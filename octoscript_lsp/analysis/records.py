"""Static record shapes at member sites: which fields `recv.a.|` has.

The shapes and alias edges are the statements' facts (`statement_facts`,
scanned by `record_scan`); a `RecordReport` keeps those ending inside the
metadata prefix of the document, under the shape, field and alias budgets,
and answers "the shape (or alias edge) bound at this offset" by looking at
that one statement. The budgets are settled by one pass of counting over the
statements (whole statements at a time), not by rebuilding every shape.

Resolution walks from a receiver binding through alias edges (at most 16
hops, at most two child selections in total) to a shape root; each edge's
target is resolved where the target name is written, so a later
redeclaration does not retarget it. A root is only trusted at a site when no
earlier reference of the root, or of an alias resolving to it, may have
changed it: a write, a member write, an index, a call or an escape as a
value inside a call, list or record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ..limits import (
    MAX_ALIAS_HOPS,
    MAX_STATIC_RECORD_ALIASES,
    MAX_STATIC_RECORD_FIELDS,
    MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH,
    MAX_STATIC_RECORD_SHAPES,
)
from ..syntax.text import is_canonical_identifier
from ..syntax.tree import SymbolKind
from .aliases import AliasGraph, ChainEnd, Stop, alias_symbol, walk_chain
from .lexical import Symbol
from .record_scan import RecordAlias, RecordField, RecordShape, Span
from .sites import may_mutate
from .statement_facts import PrefixFacts

# ---------------------------------------------------------------- the report


class RecordReport:
    """The shapes and alias edges kept inside the prefix and the budgets."""

    def __init__(self, facts: PrefixFacts) -> None:
        self._facts = facts
        self.prefix_end = facts.prefix_end

    def __repr__(self) -> str:
        return (
            f"RecordReport(shapes={self.shapes!r}, aliases={self.aliases!r}, "
            f"truncated={self.truncated}, aliases_truncated={self.aliases_truncated}, "
            f"prefix_end={self.prefix_end})"
        )

    # ------------------------------------------------------------ shapes

    @cached_property
    def _kept_shapes(self) -> tuple[list[RecordShape], bool]:
        """Shapes in parse order under both budgets, and whether one was dropped."""
        kept: list[RecordShape] = []
        retained = 0
        dropped = False
        for facts in self._facts.found:
            for shape, end in facts.shapes:
                if end > self.prefix_end:
                    continue
                count = shape.retained_field_count()
                if (
                    len(kept) == MAX_STATIC_RECORD_SHAPES
                    or retained + count > MAX_STATIC_RECORD_FIELDS
                ):
                    dropped = True
                    continue
                retained += count
                kept.append(shape)
        return kept, dropped

    @property
    def shapes(self) -> list[RecordShape]:
        return self._kept_shapes[0]

    @cached_property
    def truncated(self) -> bool:
        """Whether a budget dropped a shape; counted, not collected, when all fit."""
        facts = self._facts
        # Every shape of the statements starting inside the prefix is a
        # superset of those kept: when even that fits, nothing was dropped.
        if (
            facts.shape_total <= MAX_STATIC_RECORD_SHAPES
            and facts.field_total <= MAX_STATIC_RECORD_FIELDS
        ):
            return False
        return self._kept_shapes[1]

    @cached_property
    def _shape_by_binding(self) -> dict[int, RecordShape]:
        return {shape.binding[0]: shape for shape in self.shapes}

    def shape_for(self, binding_start: int) -> RecordShape | None:
        if self.truncated:
            return self._shape_by_binding.get(binding_start)
        found = self._facts.at(binding_start).shape_at(binding_start)
        return found.shape if found is not None and found.end <= self.prefix_end else None

    # ------------------------------------------------------------ alias edges

    @cached_property
    def _kept_aliases(self) -> tuple[list[RecordAlias], bool]:
        kept: list[RecordAlias] = []
        dropped = False
        for facts in self._facts.found:
            for alias, end in facts.aliases:
                if end > self.prefix_end:
                    continue
                if len(kept) == MAX_STATIC_RECORD_ALIASES:
                    dropped = True
                    continue
                kept.append(alias)
        return kept, dropped

    @property
    def aliases(self) -> list[RecordAlias]:
        """Every kept edge in parse order (group rules walk them all)."""
        return self._kept_aliases[0]

    @cached_property
    def aliases_truncated(self) -> bool:
        if self._facts.alias_total <= MAX_STATIC_RECORD_ALIASES:
            return False  # a superset of the kept edges fits
        return self._kept_aliases[1]

    @cached_property
    def _alias_by_binding(self) -> dict[int, RecordAlias]:
        return {alias.binding[0]: alias for alias in self.aliases}

    def alias_for(self, binding_start: int) -> RecordAlias | None:
        """The kept edge a `let` binding starting here introduces, if any."""
        if self.aliases_truncated:
            return self._alias_by_binding.get(binding_start)
        found = self._facts.at(binding_start).alias_at(binding_start)
        return found.alias if found is not None and found.end <= self.prefix_end else None


# ---------------------------------------------------------------- resolution

FOUND = "found"
ESCAPED = "escaped"
NOT_STATIC = "not static"
UNCERTAIN = "uncertain"


@dataclass(frozen=True, slots=True)
class RecordView:
    """Where a binding leads: a root shape and the child names selected on the way."""

    state: str
    root: int = -1  # definition start of the root binding
    children: tuple[str, ...] = ()
    root_symbol: Symbol | None = None


_NOT_STATIC_VIEW = RecordView(NOT_STATIC)
_UNCERTAIN_VIEW = RecordView(UNCERTAIN)


@dataclass(frozen=True, slots=True)
class _Target:
    """An alias edge's target as resolved where it is written."""

    state: str  # FOUND (a `let`), NOT_STATIC or UNCERTAIN
    symbol: Symbol | None = None
    children: tuple[str, ...] = ()


@dataclass(slots=True)
class _Selection:
    """The `.name`s a record walk has selected so far, outermost first."""

    children: tuple[str, ...] = ()
    escaped: bool = False


_STOP_NOT_STATIC = Stop(NOT_STATIC)
_STOP_UNCERTAIN = Stop(UNCERTAIN)


class RecordResolver:
    """Record shapes reached through the alias graph's edges, and the stability rules."""

    def __init__(self, source: str, report: RecordReport, graph: AliasGraph) -> None:
        self.source = source
        self.report = report
        # Edge targets are the graph's (`AliasGraph.target_of`): one place
        # resolves where an alias points.
        self.graph = graph
        self.index = graph.index
        # Alias targets are resolved when a walk reaches them: a request
        # after a keystroke follows a few chains, not every alias. One
        # resolver serves one question.
        self._targets: dict[int, _Target] = {}
        self._views: dict[int, RecordView] = {}
        self._stable: dict[tuple[int, int], bool] = {}

    def _target_of(self, binding: int) -> _Target | None:
        """The target of the alias edge `binding` introduces, as resolved
        where it is written (None: no edge)."""
        if binding in self._targets:
            return self._targets[binding]
        alias = self.report.alias_for(binding)
        target = None if alias is None else self._target(alias)
        self._targets[binding] = target
        return target

    def _target(self, alias: RecordAlias) -> _Target:
        symbol = self.graph.target_of(alias)
        if symbol is None or symbol.kind is not SymbolKind.LET:
            return _Target(NOT_STATIC)
        names: list[str] = []
        previous_end = alias.target[1]
        for child_start, child_end in alias.children:
            name = self.source[child_start:child_end]
            if child_start < previous_end or not is_canonical_identifier(name):
                return _Target(UNCERTAIN)
            names.append(name)
            previous_end = child_end
        return _Target(FOUND, symbol, tuple(names))

    # ------------------------------------------------------------ views

    def view_for(self, symbol: Symbol) -> RecordView:
        cached = self._views.get(symbol.start)
        if cached is None:
            cached = self._walk(symbol)
            self._views[symbol.start] = cached
        return cached

    def _walk(self, initial: Symbol) -> RecordView:
        if initial.kind is not SymbolKind.LET:
            return _NOT_STATIC_VIEW
        selected = _Selection()
        walk = walk_chain(
            initial,
            lambda current: self.report.shape_for(current.start) is not None,
            lambda current: self._step(current, selected),
            MAX_ALIAS_HOPS,
        )
        if walk.end is ChainEnd.ARRIVED:
            state = ESCAPED if selected.escaped else FOUND
            return RecordView(state, walk.node.start, selected.children, walk.node)
        if walk.reason == NOT_STATIC:
            return _NOT_STATIC_VIEW
        return _UNCERTAIN_VIEW

    def _step(self, current: Symbol, selected: _Selection) -> Symbol | Stop:
        """One edge back towards the root, noting the `.name`s it selects."""
        target = self._target_of(current.start)
        if target is None or target.state == NOT_STATIC:
            return _STOP_NOT_STATIC
        if target.state == UNCERTAIN:
            return _STOP_UNCERTAIN
        if len(selected.children) + len(target.children) > MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
            # Too deep to describe, but it still escapes the root it reaches.
            selected.escaped = True
        else:
            selected.children = target.children + selected.children
        following = target.symbol
        if following is None or following.kind is not SymbolKind.LET:
            return _STOP_UNCERTAIN
        return following

    # ------------------------------------------------------------ stability

    def group_is_stable(self, view: RecordView, site_start: int) -> bool:
        """No earlier reference of the root or an alias of it may have changed it."""
        root, root_symbol = view.root, view.root_symbol
        shape = self.report.shape_for(root)
        if root_symbol is None or shape is None or root_symbol.span != shape.binding:
            return False
        if not self._is_stable(root_symbol, site_start):
            return False
        for alias in self.report.aliases:
            if alias.binding[0] >= site_start:
                continue
            if not self._alias_allows(alias, root, site_start):
                return False
        return True

    def _alias_allows(self, alias: RecordAlias, root: int, site_start: int) -> bool:
        symbol = alias_symbol(self.source, self.index, alias)
        if symbol is None:
            return False
        view = self.view_for(symbol)
        if view.state == UNCERTAIN:
            return False
        if view.root != root:
            return True
        if view.state == ESCAPED:
            return False
        if view.state == FOUND:
            return self._is_stable(symbol, site_start)
        return True

    def _is_stable(self, symbol: Symbol, site_start: int) -> bool:
        key = (symbol.start, site_start)
        cached = self._stable.get(key)
        if cached is None:
            cached = not any(
                may_mutate(self.source, end)
                for start, end in symbol.references
                if start < site_start
            )
            self._stable[key] = cached
        return cached

    # ------------------------------------------------------------ lookups

    def fields_for(
        self, receivers: Sequence[Span], prefix_end: int, binding: Symbol | None = None
    ) -> tuple[RecordField, ...] | None:
        """Fields at `recv.child.` when the receiver resolves to a stable shape.

        `binding` is the receiver's binding in this index, when the caller
        looked it up already.
        """
        receiver_start, receiver_end = receivers[0]
        if receiver_end > prefix_end or receiver_end > self.report.prefix_end:
            return None
        symbol = binding
        if symbol is None:
            symbol = self.index.visible(self.source[receiver_start:receiver_end], receiver_start)
        if symbol is None or symbol.kind is not SymbolKind.LET:
            return None
        view = self.view_for(symbol)
        if view.state != FOUND:
            return None
        if not self.report.aliases_truncated and not self.group_is_stable(view, receiver_start):
            return None
        shape = self.report.shape_for(view.root)
        if shape is None:
            return None
        path = self._site_path(receivers)
        if path is None or len(view.children) + len(path) > MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
            return None
        return shape.fields_at(view.children + path)

    def _site_path(self, receivers: Sequence[Span]) -> tuple[str, ...] | None:
        names = tuple(self.source[start:end] for start, end in receivers[1:])
        return names if len(names) <= MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH else None
