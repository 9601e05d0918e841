"""Record literals and alias initializers, read off one `let` at a time.

`record_entries` is the one reader of a record literal's tokens: its
entries between separators and its closing `}`. Static shapes (below), the
catalog's input-record checks (`advice.literal_record`) and the
input-record key site (`input_records`, a literal typed up to the cursor)
read literals through it.

Works on the token stream at the `let` initializers the parser reported
(`LET_INIT` events):

- a *shape* is an initializer that is exactly one record literal followed by
  a statement end. Its keys are the root fields; a field whose value is
  itself exactly a record literal keeps that child's fields, two child levels
  deep. A level with a repeated key keeps its first-occurrence keys but drops
  every nested shape below it (a repeated key in a child drops the child).
- an *alias edge* is an initializer that is exactly `b`, `b.c` or `b.c.d`
  (non-reserved identifiers) followed by a statement end.

Everything found carries absolute offsets; `shifted_*` move a finding with
its statement when an edit before it changed the length.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..limits import MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH
from ..syntax.tokens import CLOSER_OF, CLOSERS, OPENER_OF, OPENERS, RESERVED_WORDS, Kind, Token

Span = tuple[int, int]

# Tokens that may follow a whole literal or alias initializer.
_STATEMENT_ENDS = (Kind.NEWLINE, Kind.SEMICOLON, Kind.RBRACE, Kind.END)
# Tokens that may follow a child literal that is a field's whole value.
_FIELD_ENDS = (Kind.COMMA, Kind.NEWLINE, Kind.RBRACE)
# Tokens that cannot start a field value.
_NO_VALUE = (Kind.NEWLINE, Kind.COMMA, Kind.RBRACE, Kind.END)


# ---------------------------------------------------------------- model


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
    """`let binding = target[.child[.grandchild]]`.

    `visible_from` is where the binding becomes visible (the statement end
    after the initializer), so the lexical index can name its symbol.
    """

    binding: Span
    target: Span
    children: tuple[Span, ...]
    visible_from: int

    @property
    def is_root(self) -> bool:
        return not self.children


def field_named(fields: Iterable[RecordField], name: str) -> RecordField | None:
    return next((item for item in fields if item.name == name), None)


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


def _span(token: Token) -> Span:
    return (token.start, token.end)


class ShapeFound(NamedTuple):
    shape: RecordShape
    end: int  # of its initializer


class AliasFound(NamedTuple):
    alias: RecordAlias
    end: int  # of its initializer


def direct_shape(tokens: Sequence[Token], binding: int, opening: int) -> ShapeFound | None:
    """The shape of an initializer that is one whole record literal, with its end."""
    parsed = _parse_record(tokens, opening, MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH)
    if parsed is None or _kind_at(tokens, parsed.closing + 1) not in _STATEMENT_ENDS:
        return None
    shape = RecordShape(_span(tokens[binding]), tuple(parsed.fields), parsed.retained_children())
    return ShapeFound(shape, tokens[parsed.closing].end)


def direct_alias(tokens: Sequence[Token], binding: int, target: int) -> AliasFound | None:
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
        children.append(_span(tokens[last]))
    if _kind_at(tokens, last + 1) not in _STATEMENT_ENDS:
        return None
    alias = RecordAlias(
        _span(tokens[binding]), _span(tokens[target]), tuple(children), tokens[last + 1].start
    )
    return AliasFound(alias, tokens[last].end)


class RecordEntry(NamedTuple):
    """One stretch of a record literal between separators, as token indices."""

    first: int  # its first token (== `end` when empty: a blank line, `{}`)
    end: int  # the separator after it (a top-level `,` or line break) or the closing `}`

    @property
    def is_empty(self) -> bool:
        return self.first == self.end


class RecordEntries(NamedTuple):
    entries: tuple[RecordEntry, ...]  # every stretch, empty ones included
    closing: int  # the closing `}`


def record_entries(
    tokens: Sequence[Token], opening: int, until: int | None = None
) -> RecordEntries | None:
    """The entries of the record literal whose `{` is at `opening`.

    A `,` or line break outside nested brackets ends an entry; the first
    closer of a kind with none of that kind open ends the literal if it is
    `}`. None when the literal does not close (a stray `)` or `]`, or the end).

    With `until` (a cursor in a literal being typed) only the tokens wholly
    before it are read: when the literal has not closed by then, the last
    entry is the unfinished one, ending at the first token not read (the one
    the cursor is in or after), and `closing` is -1.
    """
    if _kind_at(tokens, opening) is not Kind.LBRACE:
        return None
    if until is not None and tokens[opening].end > until:
        return None  # the cursor is before the literal
    depths = dict.fromkeys(CLOSER_OF, 0)  # open brackets of each kind (`([)]` passes)
    entries: list[RecordEntry] = []
    first = index = opening + 1
    length = len(tokens) if until is None else _first_unread(tokens, first, until)
    while index < length:
        kind = tokens[index].kind
        if kind in OPENERS:
            depths[kind] += 1
        elif kind in CLOSERS:
            opener = OPENER_OF[kind]
            if depths[opener] == 0:
                if kind is not Kind.RBRACE:
                    return None
                entries.append(RecordEntry(first, index))
                return RecordEntries(tuple(entries), index)
            depths[opener] -= 1
        elif (kind is Kind.COMMA or kind is Kind.NEWLINE) and not any(depths.values()):
            entries.append(RecordEntry(first, index))
            first = index + 1
        elif kind is Kind.END:
            return None
        index += 1
    if until is None:
        return None
    entries.append(RecordEntry(first, index))
    return RecordEntries(tuple(entries), -1)


def _first_unread(tokens: Sequence[Token], index: int, until: int) -> int:
    """The first token from `index` on not wholly before `until` (a literal
    up to a cursor is short: a walk beats a search of the whole stream)."""
    length = len(tokens)
    while index < length and tokens[index].end <= until and tokens[index].start < until:
        index += 1
    return index


def _parse_record(tokens: Sequence[Token], opening: int, depth: int) -> _ParsedRecord | None:
    """Keys of the record literal opening at `opening`; None when it is not plain:
    an entry that is not `key: value`, or an empty one before a `,`."""
    read = record_entries(tokens, opening)
    if read is None:
        return None
    record = _ParsedRecord([], [], False, read.closing)
    names: set[str] = set()
    for entry in read.entries:
        if entry.is_empty:
            if tokens[entry.end].kind is Kind.COMMA:
                return None
            continue
        value = _parse_key(tokens, entry.first)
        if value is None:
            return None
        key = tokens[entry.first]
        field = RecordField(key.text, key.start, key.end)
        if key.text not in names:
            names.add(key.text)
            record.fields.append(field)
            if depth > 0:
                _attach_child(tokens, record, field, value, depth - 1)
        else:
            record.duplicates = True
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


# ---------------------------------------------------------------- moving


def shifted_shape(shape: RecordShape, delta: int) -> RecordShape:
    return RecordShape(
        _shifted_span(shape.binding, delta),
        _shifted_fields(shape.fields, delta),
        _shifted_children(shape.children, delta),
    )


def shifted_alias(alias: RecordAlias, delta: int) -> RecordAlias:
    return RecordAlias(
        _shifted_span(alias.binding, delta),
        _shifted_span(alias.target, delta),
        tuple(_shifted_span(child, delta) for child in alias.children),
        alias.visible_from + delta,
    )


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
