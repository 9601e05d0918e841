"""Key positions inside the first literal-record argument of `recv.member(`.

`input_record_site` recognises a cursor at a key of the root record or of one
object-child level. It reads the literal typed up to the cursor through the
one record reader, `record_scan.record_entries` (entries between top-level
separators, the unfinished one last), and refuses the site for anything
malformed before the cursor: an entry that is not `key: value` (or empty),
a repeated key, an unterminated string, mismatched or too deeply nested
brackets, a cursor in a comment. The features decide what the catalogs
offer there.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..limits import (
    MAX_MODULE_FIELD_NAME_BYTES,
    MAX_MODULE_INPUT_FIELDS,
    MAX_SIGNATURE_DELIMITER_DEPTH,
)
from ..syntax.text import (
    IDENT_START,
    TRIVIA_SPACE,
    identifier_end,
    identifier_start_before,
    is_canonical_identifier,
)
from ..syntax.tokens import CLOSERS, OPENER_OF, OPENERS, Kind, Token, first_token_from
from ..syntax.trivia import block_comment_end, is_line_comment, string_end
from .record_scan import RecordEntries, RecordEntry, record_entries
from .sites import DelimiterIndex, MemberSite, TextRegions, call_context, member_site

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class InputRecordSite:
    """A key position in the first literal-record argument of `recv.member(`."""

    callee: MemberSite
    field: Span
    parent: str | None
    declared: frozenset[str]


def input_record_site(
    source: str,
    regions: TextRegions,
    tokens: Sequence[Token],
    offset: int,
    delimiters: DelimiterIndex | None = None,
) -> InputRecordSite | None:
    context = call_context(source, offset, delimiters)
    if context is None or context.active_argument != 0:
        return None
    callee = member_site(source, regions, context.callee_end)
    if callee is None or callee.member_end != context.callee_end:
        return None
    opening = context.open_paren + 1
    while opening < len(source) and source[opening] in TRIVIA_SPACE:
        opening += 1
    if opening >= len(source) or source[opening] != "{" or _in_comment(source, regions, offset):
        return None
    brace = first_token_from(tokens, opening)
    if brace == len(tokens) or tokens[brace].start != opening:
        return None
    found = _Reading(source, regions, tokens, offset).root(brace)
    if found is None:
        return None
    field, parent, declared = found
    return InputRecordSite(callee, field, parent, frozenset(declared))


def _in_comment(source: str, regions: TextRegions, offset: int) -> bool:
    """The cursor is inside a comment: a line comment runs up to its line
    break, a block comment closing right before the cursor is behind it."""
    found = regions.comment_before(offset)
    if found is None:
        return False
    start, end = found
    if offset <= start:
        return False
    if is_line_comment(source, start) or offset < end:
        return offset <= end
    return block_comment_end(source, start) is None  # open: it runs to the end


class _Refused(Exception):
    """The literal before the cursor is not one the input-field site accepts."""


class _Reading:
    """The literal up to the cursor, entry by entry (`record_entries`).

    Between two tokens lie white space and comments, or text the lexer
    dropped (an operator it does not know, as in `a:-1`, a stray character):
    that text counts as part of a value, and one starting with `:` right
    after a key as its colon, as the site has always read the literal."""

    def __init__(
        self, source: str, regions: TextRegions, tokens: Sequence[Token], offset: int
    ) -> None:
        self.source = source
        self.regions = regions
        self.tokens = tokens
        self.offset = offset

    def root(self, brace: int) -> Found | None:
        read = record_entries(self.tokens, brace, self.offset)
        if read is None or read.closing >= 0:
            return None
        try:
            return self._level(read, None, nested=True)
        except _Refused:
            return None

    def _level(self, read: RecordEntries, parent: str | None, nested: bool) -> Found | None:
        """The key position in a level the cursor is in (the root, or a child
        record), its parent key and declared keys."""
        declared: set[str] = set()
        entries = self._joined(read.entries)
        for entry in entries[:-1]:
            self._entry(entry, declared, nested)
        return self._at_cursor(entries[-1], parent, declared, nested)

    def _joined(self, entries: tuple[RecordEntry, ...]) -> list[RecordEntry]:
        """`entries` with a key that a line break separates from its colon
        joined to the entry holding the colon (the key declared with the break),
        as the site has always read it."""
        joined: list[RecordEntry] = []
        open_key = False
        for entry in entries:
            if open_key:
                entry = RecordEntry(joined.pop().first, entry.end)
            joined.append(entry)
            open_key = self._key_open(entry)
        return joined

    def _key_open(self, entry: RecordEntry) -> bool:
        """Only words, and a line break after them: the key's colon may follow."""
        tokens = self.tokens
        if entry.is_empty or tokens[entry.end].kind is not Kind.NEWLINE:
            return False
        after = tokens[entry.first].end
        for index in range(entry.first, entry.end):
            token = tokens[index]
            if token.kind is not Kind.NEWLINE:
                if token.kind is not Kind.IDENT or self._dropped(after, token.start) is not None:
                    return False
                after = token.end
        return self._dropped(after, tokens[entry.end].start) is None

    def _gap_end(self, index: int) -> int:
        """Where the text before the token at `index` ends (at most the cursor)."""
        return min(self.tokens[index].start, self.offset)

    def _dropped(self, start: int, end: int) -> int | None:
        """The first character in [start, end) that is neither white space
        nor in a comment: text between two tokens the lexer dropped."""
        source = self.source
        if start >= end or not source[start:end].strip(_BLANK):
            return None
        comments, starts = self.regions.comments, self.regions.comment_starts
        position = bisect_right(starts, start) - 1
        index = start
        if position >= 0 and comments[position][1] > start:
            index = comments[position][1]  # a line break the lexer saw in a comment
        position += 1
        while index < end:
            if source[index] in _BLANK:
                index += 1
            elif position < len(starts) and starts[position] == index:
                index = comments[position][1]
                position += 1
            else:
                return index
        return None

    def _key(self, entry: RecordEntry, declared: set[str]) -> _Key | None:
        """`key:` at the start of a non-empty entry; None when the entry ends
        (or the cursor comes) before a colon."""
        tokens, source = self.tokens, self.source
        key = tokens[entry.first]
        if (
            key.kind is not Kind.IDENT
            or len(key.text) > MAX_MODULE_FIELD_NAME_BYTES
            or not is_canonical_identifier(key.text)
            or self._dropped(tokens[entry.first - 1].end, key.start) is not None
        ):
            raise _Refused
        index, after = entry.first + 1, key.end
        while True:
            dropped = self._dropped(after, self._gap_end(index))
            if dropped is not None:
                if source[dropped] != ":":
                    raise _Refused
                return self._declare(key.start, dropped, index, True, declared)
            if index == entry.end:
                return None
            token = tokens[index]
            if token.kind is Kind.NEWLINE:  # a line break inside a joined key
                index, after = index + 1, token.end
                continue
            if token.kind is Kind.OPERATOR and token.text.startswith(":"):
                return self._declare(key.start, token.start, index + 1, token.text != ":", declared)
            # Plain words may follow the key before its colon (`a b: 1`
            # declares `a b`), as the site has always read it; nothing else.
            if token.kind is not Kind.IDENT or not IDENT_START.issuperset(token.text):
                raise _Refused
            index, after = index + 1, token.end

    def _declare(
        self, key_start: int, colon: int, value: int, started: bool, declared: set[str]
    ) -> _Key:
        name = self.source[key_start:colon]
        if len(declared) == MAX_MODULE_INPUT_FIELDS or name in declared:
            raise _Refused
        declared.add(name)
        return _Key(name, value, started)

    def _child_brace(self, key: _Key, end: int, nested: bool) -> int | None:
        """The `{` of a child record that is a root key's whole value so far."""
        tokens, value = self.tokens, key.value
        if (
            nested
            and not key.started
            and value < end
            and tokens[value].kind is Kind.LBRACE
            and self._dropped(tokens[value - 1].end, tokens[value].start) is None
        ):
            return value
        return None

    def _entry(self, entry: RecordEntry, declared: set[str], nested: bool) -> None:
        """A finished entry: empty, or `key: value` with a readable value."""
        tokens = self.tokens
        if entry.is_empty:
            if self._dropped(tokens[entry.first - 1].end, tokens[entry.end].start) is not None:
                raise _Refused
            return
        key = self._key(entry, declared)
        if key is None:
            raise _Refused  # a key without its colon
        value = key.value
        child = self._child_brace(key, entry.end, nested)
        if child is not None:
            read = record_entries(tokens, child)
            if read is None:
                raise _Refused
            value = self._closed_child(read)
        self._value(value, entry.end)

    def _closed_child(self, read: RecordEntries) -> int:
        """Check a child record closed before the cursor; where its value goes on."""
        declared: set[str] = set()
        for entry in self._joined(read.entries):
            self._entry(entry, declared, False)
        return read.closing + 1

    def _value(self, start: int, end: int) -> int:
        """Check a value's tokens (brackets matched, at most so deep, strings
        closed); how many brackets are still open at `end`."""
        tokens, source, offset = self.tokens, self.source, self.offset
        open_brackets: list[Kind] = []
        for index in range(start, end):
            token = tokens[index]
            kind = token.kind
            if kind in CLOSERS:
                if not open_brackets or open_brackets.pop() is not OPENER_OF[kind]:
                    raise _Refused
            elif kind in OPENERS:
                if len(open_brackets) == MAX_SIGNATURE_DELIMITER_DEPTH:
                    raise _Refused
                open_brackets.append(kind)
            elif kind is Kind.STRING and not string_end(source, token.start + 1, offset).closed:
                raise _Refused
        return len(open_brackets)

    def _at_cursor(
        self, entry: RecordEntry, parent: str | None, declared: set[str], nested: bool
    ) -> Found | None:
        """The unfinished entry: a key position when nothing or only the key
        being typed lies before the cursor; a child record's when the cursor
        is inside a root key's `{`."""
        tokens, source, offset = self.tokens, self.source, self.offset
        inside = tokens[entry.end] if entry.end < len(tokens) else None
        if inside is not None and inside.start >= offset:
            inside = None  # the first token after the cursor
        # A cursor between CR and LF: the CR is a line break already.
        broken = inside is not None and inside.kind is Kind.NEWLINE
        if entry.is_empty:
            if self._dropped(tokens[entry.first - 1].end, self._gap_end(entry.end)) is not None:
                return None
            if inside is None or broken:
                return _key_position(source, offset, None, parent, declared)
            if inside.kind is not Kind.IDENT:
                return None
            typed = source[inside.start : offset]
            if len(typed) > MAX_MODULE_FIELD_NAME_BYTES or not is_canonical_identifier(typed):
                return None
            return _key_position(source, offset, inside.start, parent, declared)
        key = self._key(entry, declared)
        if key is None:
            if inside is not None or entry.end - entry.first != 1:
                return None
            return _key_position(source, offset, tokens[entry.first].start, parent, declared)
        value = key.value
        child = self._child_brace(key, entry.end, nested)
        if child is not None:
            read = record_entries(tokens, child, offset)
            if read is None:
                return None
            if read.closing < 0:
                return self._level(read, key.name, nested=False)
            value = self._closed_child(read)
        if broken and self._value(value, entry.end) == 0:
            return _key_position(source, offset, None, parent, declared)
        return None  # a value position


class _Key(NamedTuple):
    name: str  # as declared: the text from the key up to its colon
    value: int  # the index of the value's first token
    started: bool  # the colon's own text already began the value (`:-`)


_BLANK = " \t\r\n"
Found = tuple[Span, str | None, set[str]]


def _key_position(
    source: str, offset: int, key_start: int | None, parent: str | None, declared: set[str]
) -> Found | None:
    """The key at the cursor; `key_start`: where the key being typed starts."""
    field = _key_span_at(source, offset)
    if field is None or (key_start is not None and field[0] != key_start):
        return None
    return field, parent, declared


def _key_span_at(source: str, offset: int) -> Span | None:
    start = identifier_start_before(source, offset)
    end = identifier_end(source, offset)
    if start == end:
        following = source[offset : offset + 1]
        if following and following not in TRIVIA_SPACE and following != "}":
            return None
        return (start, end)
    name = source[start:end]
    if len(name) > MAX_MODULE_FIELD_NAME_BYTES or not is_canonical_identifier(name):
        return None
    return (start, end)
