"""Static record shapes: `let r = {...}` field names, exact aliases, stability.

Collection works on the token stream, at the `let` initializers the parser
reported (`LET_INIT` events), and only keeps what ends inside the metadata
prefix of the document:

- a *shape* is an initializer that is exactly one record literal followed by
  a statement end. Its keys are the root fields; a field whose value is
  itself exactly a record literal keeps that child's fields, two child levels
  deep. A level with a repeated key keeps its first-occurrence keys but drops
  every nested shape below it (a repeated key in a child drops the child).
- an *alias edge* is an initializer that is exactly `b`, `b.c` or `b.c.d`.

Resolution walks from a receiver binding through alias edges (at most 16
hops, at most two child selections in total) to a shape root; each edge's
target is resolved where the target name is written, so a later
redeclaration does not retarget it. A root is only trusted at a site when no
earlier reference of the root, or of an alias resolving to it, may have
changed it: a write, a member write, an index, a call or an escape as a
value inside a call, list or record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..limits import (
    MAX_ALIAS_HOPS,
    MAX_STATIC_RECORD_ALIASES,
    MAX_STATIC_RECORD_FIELDS,
    MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH,
    MAX_STATIC_RECORD_SHAPES,
)
from ..syntax.lexer import LexResult
from ..syntax.statements import StatementMemo, events_of, per_statement
from ..syntax.tokens import RESERVED_WORDS, Kind, Token
from ..syntax.tree import LET_INIT, SymbolKind
from .lexical import LexicalIndex, Symbol
from .sites import is_canonical_identifier, skip_trivia

Span = tuple[int, int]

# Tokens that may follow a whole literal or alias initializer.
_STATEMENT_ENDS = (Kind.NEWLINE, Kind.SEMICOLON, Kind.RBRACE, Kind.END)
# Tokens that may follow a child literal that is a field's whole value.
_FIELD_ENDS = (Kind.COMMA, Kind.NEWLINE, Kind.RBRACE)
# Tokens that cannot start a field value.
_NO_VALUE = (Kind.NEWLINE, Kind.COMMA, Kind.RBRACE, Kind.END)


# ---------------------------------------------------------------- report model


@dataclass(frozen=True, slots=True)
class RecordField:
    name: str
    start: int
    end: int

    @property
    def span(self) -> Span:
        return (self.start, self.end)


@dataclass(frozen=True, slots=True)
class NestedShape:
    """The fields of a field whose value is a whole record literal."""

    field: RecordField
    fields: tuple[RecordField, ...]
    children: tuple[NestedShape, ...]

    def retained_field_count(self) -> int:
        return len(self.fields) + sum(child.retained_field_count() for child in self.children)


@dataclass(frozen=True, slots=True)
class RecordShape:
    binding: Span
    fields: tuple[RecordField, ...]
    children: tuple[NestedShape, ...]

    def retained_field_count(self) -> int:
        return len(self.fields) + sum(child.retained_field_count() for child in self.children)

    def fields_at(self, path: Sequence[str]) -> tuple[RecordField, ...] | None:
        """The fields reached by selecting `path` child by child, if all exist."""
        fields = self.fields
        children = self.children
        for name in path:
            child = next((item for item in children if item.field.name == name), None)
            if child is None:
                return None
            fields, children = child.fields, child.children
        return fields


@dataclass(frozen=True, slots=True)
class RecordAlias:
    """`let binding = target[.child[.grandchild]]`."""

    binding: Span
    target: Span
    children: tuple[Span, ...]


@dataclass(eq=False, slots=True)
class RecordReport:
    shapes: list[RecordShape]
    aliases: list[RecordAlias]
    truncated: bool
    aliases_truncated: bool
    prefix_end: int
    _shape_by_binding: dict[int, RecordShape] = field(default_factory=dict, repr=False)
    _resolvers: dict[int, tuple[LexicalIndex, RecordResolver]] = field(
        default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        self._shape_by_binding = {shape.binding[0]: shape for shape in self.shapes}

    def shape_for(self, binding_start: int) -> RecordShape | None:
        return self._shape_by_binding.get(binding_start)

    def resolver(self, source: str, index: LexicalIndex) -> RecordResolver:
        """The alias resolver over one lexical index, built once per index."""
        cached = self._resolvers.get(id(index))
        if cached is not None and cached[0] is index:
            return cached[1]
        resolver = RecordResolver(source, self, index)
        self._resolvers[id(index)] = (index, resolver)
        return resolver


def empty_report() -> RecordReport:
    return RecordReport([], [], False, False, 0)


# ---------------------------------------------------------------- literal scanning


@dataclass(slots=True)
class _ParsedRecord:
    fields: list[RecordField]
    children: list[NestedShape]
    duplicates: bool
    closing: int

    def retained_children(self) -> tuple[NestedShape, ...]:
        return () if self.duplicates else tuple(self.children)


def _kind_at(tokens: Sequence[Token], index: int) -> Kind | None:
    return tokens[index].kind if 0 <= index < len(tokens) else None


def _is_plain_ident(tokens: Sequence[Token], index: int) -> bool:
    return _kind_at(tokens, index) is Kind.IDENT and tokens[index].text not in RESERVED_WORDS


def _is_op(tokens: Sequence[Token], index: int, op: str) -> bool:
    return _kind_at(tokens, index) is Kind.OPERATOR and tokens[index].text == op


def direct_shape(tokens: Sequence[Token], opening: int) -> tuple[RecordShape, int] | None:
    """The shape of an initializer that is one whole record literal, with its end."""
    parsed = _parse_record(tokens, opening, MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH)
    if parsed is None or _kind_at(tokens, parsed.closing + 1) not in _STATEMENT_ENDS:
        return None
    shape = RecordShape((0, 0), tuple(parsed.fields), parsed.retained_children())
    return shape, tokens[parsed.closing].end


def direct_alias(tokens: Sequence[Token], target: int) -> tuple[RecordAlias, int] | None:
    """The edge of an initializer that is exactly `b`, `b.c` or `b.c.d`, with its end."""
    if not _is_plain_ident(tokens, target):
        return None
    children: list[Span] = []
    last = target
    while _is_op(tokens, last + 1, "."):
        if len(children) == MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
            return None
        if not _is_plain_ident(tokens, last + 2):
            return None
        last += 2
        children.append((tokens[last].start, tokens[last].end))
    if _kind_at(tokens, last + 1) not in _STATEMENT_ENDS:
        return None
    target_token = tokens[target]
    alias = RecordAlias((0, 0), (target_token.start, target_token.end), tuple(children))
    return alias, tokens[last].end


def _parse_record(tokens: Sequence[Token], opening: int, depth: int) -> _ParsedRecord | None:
    """Keys of the record literal opening at `opening`; None when it is not plain."""
    if _kind_at(tokens, opening) is not Kind.LBRACE:
        return None
    record = _ParsedRecord([], [], False, -1)
    names: set[str] = set()
    index = opening + 1
    while True:
        while _kind_at(tokens, index) is Kind.NEWLINE:
            index += 1
        if _kind_at(tokens, index) is Kind.RBRACE:
            record.closing = index
            return record
        value = _parse_key(tokens, index)
        if value is None:
            return None
        key = tokens[index]
        entry = RecordField(key.text, key.start, key.end)
        unique = key.text not in names
        if unique:
            names.add(key.text)
            record.fields.append(entry)
            if depth > 0:
                _attach_child(tokens, record, entry, value, depth - 1)
        else:
            record.duplicates = True
        index = _skip_value(tokens, value)
        if index is None:
            return None
        if _kind_at(tokens, index) is Kind.RBRACE:
            record.closing = index
            return record


def _parse_key(tokens: Sequence[Token], index: int) -> int | None:
    """`key:` followed by a value start: the value's first token index."""
    if not _is_plain_ident(tokens, index) or not _is_op(tokens, index + 1, ":"):
        return None
    value = index + 2
    kind = _kind_at(tokens, value)
    if kind is None or kind in _NO_VALUE:
        return None
    return value


def _attach_child(
    tokens: Sequence[Token], record: _ParsedRecord, entry: RecordField, value: int, depth: int
) -> None:
    child = _parse_record(tokens, value, depth)
    if child is None or child.duplicates:
        return
    if _kind_at(tokens, child.closing + 1) not in _FIELD_ENDS:
        return
    record.children.append(NestedShape(entry, tuple(child.fields), child.retained_children()))


_OPENERS = {Kind.LPAREN: 0, Kind.LBRACKET: 1, Kind.LBRACE: 2}
_CLOSERS = {Kind.RPAREN: 0, Kind.RBRACKET: 1, Kind.RBRACE: 2}


def _skip_value(tokens: Sequence[Token], index: int) -> int | None:
    """Skip one field value; the index after a separator, or of the closing `}`."""
    depths = [0, 0, 0]
    length = len(tokens)
    while index < length:
        kind = tokens[index].kind
        if kind in _OPENERS:
            depths[_OPENERS[kind]] += 1
        elif kind in _CLOSERS:
            slot = _CLOSERS[kind]
            if depths[slot] == 0:
                return index if kind is Kind.RBRACE else None
            depths[slot] -= 1
        elif kind in (Kind.COMMA, Kind.NEWLINE) and depths == [0, 0, 0]:
            return index + 1
        elif kind is Kind.END:
            return None
        index += 1
    return None


# ---------------------------------------------------------------- collection


class _Collector:
    def __init__(self, prefix_end: int) -> None:
        self.prefix_end = prefix_end
        self.shapes: list[RecordShape] = []
        self.aliases: list[RecordAlias] = []
        self.retained_fields = 0
        self.truncated = False
        self.aliases_truncated = False

    def record_shape(self, binding: Span, shape: RecordShape, end: int) -> None:
        if end > self.prefix_end:
            return
        count = shape.retained_field_count()
        if (
            len(self.shapes) == MAX_STATIC_RECORD_SHAPES
            or self.retained_fields + count > MAX_STATIC_RECORD_FIELDS
        ):
            self.truncated = True
            return
        self.retained_fields += count
        self.shapes.append(RecordShape(binding, shape.fields, shape.children))

    def record_alias(self, binding: Span, alias: RecordAlias, end: int) -> None:
        if end > self.prefix_end:
            return
        if len(self.aliases) == MAX_STATIC_RECORD_ALIASES:
            self.aliases_truncated = True
            return
        self.aliases.append(RecordAlias(binding, alias.target, alias.children))

    def finish(self) -> RecordReport:
        return RecordReport(
            self.shapes, self.aliases, self.truncated, self.aliases_truncated, self.prefix_end
        )


def collect_records(
    tokens: Sequence[Token], events: Iterable[tuple], prefix_end: int
) -> RecordReport:
    """Shapes and alias edges of every `let` initializer, in parse order."""
    collector = _Collector(prefix_end)
    for event in events:
        if event[0] != LET_INIT:
            continue
        binding_token = tokens[event[1]]
        binding = (binding_token.start, binding_token.end)
        initializer = event[2]
        shape = direct_shape(tokens, initializer)
        if shape is not None:
            collector.record_shape(binding, *shape)
        alias = direct_alias(tokens, initializer)
        if alias is not None:
            collector.record_alias(binding, *alias)
    return collector.finish()


# A `let` initializer's findings: binding, (shape, end) and (alias, end).
_Finding = tuple[Span, tuple[RecordShape, int] | None, tuple[RecordAlias, int] | None]
# Findings of a top-level statement by its text: (its offset, its findings).
StatementFindings = StatementMemo[tuple[_Finding, ...]]


def collect_records_by_statement(
    source: str,
    lex: LexResult,
    events: list[tuple],
    units: list[tuple[int, int, int, int, int]],
    prefix_end: int,
    previous: StatementFindings,
) -> tuple[RecordReport, StatementFindings]:
    """`collect_records`, reusing each top-level statement's findings from an
    earlier version with the same statement text (shifted if it moved).

    A statement's initializers are scanned within its own tokens and the one
    after it, which its text covers; the budgets and the metadata prefix are
    applied afterwards, over the whole document, as `collect_records` does.
    """
    collector = _Collector(prefix_end)
    tokens = lex.tokens
    pieces, memo = per_statement(
        source,
        lex,
        units,
        previous,
        lambda position: _findings(tokens, events_of(events, units, position)),
        lambda findings, delta: tuple(_shifted_finding(item, delta) for item in findings),
    )
    for _, findings in pieces:
        for binding, shape, alias in findings:
            if shape is not None:
                collector.record_shape(binding, *shape)
            if alias is not None:
                collector.record_alias(binding, *alias)
    return collector.finish(), memo


def _findings(tokens: Sequence[Token], events: list[tuple]) -> tuple[_Finding, ...]:
    found = []
    for event in events:
        if event[0] != LET_INIT:
            continue
        binding_token = tokens[event[1]]
        shape = direct_shape(tokens, event[2])
        alias = direct_alias(tokens, event[2])
        if shape is not None or alias is not None:
            found.append(((binding_token.start, binding_token.end), shape, alias))
    return tuple(found)


def _shifted_finding(finding: _Finding, delta: int) -> _Finding:
    binding, shape, alias = finding
    moved_shape = None
    if shape is not None:
        moved = RecordShape(
            _shifted_span(shape[0].binding, delta),
            _shifted_fields(shape[0].fields, delta),
            _shifted_children(shape[0].children, delta),
        )
        moved_shape = (moved, shape[1] + delta)
    moved_alias = None
    if alias is not None:
        edge = alias[0]
        moved_edge = RecordAlias(
            _shifted_span(edge.binding, delta),
            _shifted_span(edge.target, delta),
            tuple(_shifted_span(child, delta) for child in edge.children),
        )
        moved_alias = (moved_edge, alias[1] + delta)
    return _shifted_span(binding, delta), moved_shape, moved_alias


def _shifted_span(span: Span, delta: int) -> Span:
    return (span[0] + delta, span[1] + delta)


def _shifted_fields(fields: tuple[RecordField, ...], delta: int) -> tuple[RecordField, ...]:
    return tuple(RecordField(item.name, item.start + delta, item.end + delta) for item in fields)


def _shifted_children(children: tuple[NestedShape, ...], delta: int) -> tuple[NestedShape, ...]:
    return tuple(
        NestedShape(
            RecordField(child.field.name, child.field.start + delta, child.field.end + delta),
            _shifted_fields(child.fields, delta),
            _shifted_children(child.children, delta),
        )
        for child in children
    )


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


_NOT_STATIC_VIEW = RecordView(NOT_STATIC)
_UNCERTAIN_VIEW = RecordView(UNCERTAIN)


@dataclass(frozen=True, slots=True)
class _Target:
    """An alias edge's target as resolved where it is written."""

    state: str  # FOUND (a `let`), NOT_STATIC or UNCERTAIN
    definition: int = -1
    children: tuple[str, ...] = ()


class RecordResolver:
    """Alias edges resolved over one lexical index, and the stability rules."""

    def __init__(self, source: str, report: RecordReport, index: LexicalIndex) -> None:
        self.source = source
        self.report = report
        self.index = index
        self.by_definition = index.symbols_by_start()
        # Alias targets are resolved when a walk reaches them: a request
        # after a keystroke follows a few chains, not every alias.
        self._aliases = {alias.binding[0]: alias for alias in report.aliases}
        self._targets: dict[int, _Target] = {}
        self._views: dict[int, RecordView] = {}
        self._stable: dict[tuple[int, int], bool] = {}

    def visible(self, name: str, offset: int) -> Symbol | None:
        return self.index.visible(name, offset)

    def _target_of(self, binding: int) -> _Target | None:
        target = self._targets.get(binding)
        if target is None:
            alias = self._aliases.get(binding)
            if alias is None:
                return None
            target = self._targets[binding] = self._target(alias)
        return target

    def _target(self, alias: RecordAlias) -> _Target:
        start, end = alias.target
        symbol = self.visible(self.source[start:end], start)
        if symbol is None or symbol.kind is not SymbolKind.LET:
            return _Target(NOT_STATIC)
        names: list[str] = []
        previous_end = end
        for child_start, child_end in alias.children:
            name = self.source[child_start:child_end]
            if child_start < previous_end or not is_canonical_identifier(name):
                return _Target(UNCERTAIN)
            names.append(name)
            previous_end = child_end
        return _Target(FOUND, symbol.start, tuple(names))

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
        current = initial
        children: tuple[str, ...] = ()
        escaped = False
        visited: set[int] = set()
        for depth in range(MAX_ALIAS_HOPS + 1):
            binding = current.start
            if self.report.shape_for(binding) is not None:
                return RecordView(ESCAPED if escaped else FOUND, binding, children)
            if binding in visited or depth == MAX_ALIAS_HOPS:
                return _UNCERTAIN_VIEW
            visited.add(binding)
            target = self._target_of(binding)
            if target is None or target.state == NOT_STATIC:
                return _NOT_STATIC_VIEW
            if target.state == UNCERTAIN:
                return _UNCERTAIN_VIEW
            if len(children) + len(target.children) > MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
                # Too deep to describe, but it still escapes the root it reaches.
                escaped = True
            else:
                children = target.children + children
            following = self.by_definition.get(target.definition)
            if following is None or following.kind is not SymbolKind.LET:
                return _UNCERTAIN_VIEW
            current = following
        return _UNCERTAIN_VIEW

    # ------------------------------------------------------------ stability

    def group_is_stable(self, root: int, site_start: int) -> bool:
        """No earlier reference of the root or an alias of it may have changed it."""
        root_symbol = self.by_definition.get(root)
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
        symbol = self.by_definition.get(alias.binding[0])
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
        self, receivers: Sequence[Span], prefix_end: int
    ) -> tuple[RecordField, ...] | None:
        """Fields at `recv.child.` when the receiver resolves to a stable shape."""
        receiver_start, receiver_end = receivers[0]
        if receiver_end > prefix_end or receiver_end > self.report.prefix_end:
            return None
        name = self.source[receiver_start:receiver_end]
        symbol = self.visible(name, receiver_start)
        if symbol is None or symbol.kind is not SymbolKind.LET:
            return None
        view = self.view_for(symbol)
        if view.state != FOUND:
            return None
        if not self.report.aliases_truncated and not self.group_is_stable(
            view.root, receiver_start
        ):
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
        if len(names) > MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH:
            return None
        if not all(is_canonical_identifier(name) for name in names):
            return None
        return names


# ---------------------------------------------------------------- mutation scan

_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_IDENT_CHARS = _IDENT_START | frozenset("0123456789")
_ESCAPING = frozenset("[(,)]}")


def _is_assignment_at(source: str, index: int) -> bool:
    char = source[index : index + 1]
    following = source[index + 1 : index + 2]
    if char == "=":
        return following != "="
    return char in ("+", "-", "*", "/", "%") and following == "="


def may_mutate(source: str, reference_end: int) -> bool:
    """Whether what follows a reference may write, call, index or let it escape."""
    index = skip_trivia(source, reference_end)
    while index is not None:
        if _is_assignment_at(source, index):
            return True
        char = source[index : index + 1]
        if char != ".":
            return char in _ESCAPING
        index = skip_trivia(source, index + 1)
        if index is None or source[index : index + 1] not in _IDENT_START:
            return True
        index += 1
        while index < len(source) and source[index] in _IDENT_CHARS:
            index += 1
        index = skip_trivia(source, index)
    return True


def field_named(fields: Iterable[RecordField], name: str) -> RecordField | None:
    return next((item for item in fields if item.name == name), None)
