"""The input-record site's former text scanner, kept only as the oracle of
`test_input_records_differential.py` (the reading through `record_entries`
must answer as it did). Not used by the server."""

from __future__ import annotations

from dataclasses import dataclass

from octoscript_lsp.analysis.sites import (
    DelimiterIndex,
    MemberSite,
    TextRegions,
    call_context,
    member_site,
)
from octoscript_lsp.limits import (
    MAX_MODULE_FIELD_NAME_BYTES,
    MAX_MODULE_INPUT_FIELDS,
    MAX_SIGNATURE_DELIMITER_DEPTH,
)
from octoscript_lsp.syntax.text import (
    IDENT_CONTINUE,
    IDENT_START,
    TRIVIA_SPACE,
    identifier_end,
    identifier_start_before,
    is_canonical_identifier,
)
from octoscript_lsp.syntax.trivia import (
    block_comment_end,
    line_comment_end,
    opens_comment,
    skip_string,
)

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class InputRecordSite:
    """A key position in the first literal-record argument of `recv.member(`."""

    callee: MemberSite
    field: Span
    parent: str | None
    declared: frozenset[str]


def input_record_site(
    source: str, regions: TextRegions, offset: int, delimiters: DelimiterIndex | None = None
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
    if opening >= len(source) or source[opening] != "{":
        return None
    scanned = _RecordScan(source, opening, offset).run()
    if scanned is None:
        return None
    field, parent, declared = scanned
    return InputRecordSite(callee, field, parent, frozenset(declared))


_FIELD, _AFTER_KEY, _VALUE = "field", "after-key", "value"


@dataclass(slots=True)
class _Level:
    parent: str | None
    declared: set[str]
    state: str = _FIELD
    key_start: int = -1
    value_of: str = ""
    started: bool = False


class _Abort(Exception):
    """The record prefix is not one the input-field site accepts."""


class _RecordScan:
    """Walks a record literal prefix up to the cursor, tracking keys per level.

    Only the root and one object-child level are key positions; anything else
    (a malformed separator, a repeated key, an unterminated string or comment
    before the cursor, mismatched delimiters) refuses the site.
    """

    def __init__(self, source: str, opening: int, offset: int) -> None:
        self.source = source
        self.offset = offset
        self.index = opening + 1
        self.delimiters: list[str] = []
        self.levels = [_Level(None, set())]

    @property
    def level(self) -> _Level:
        return self.levels[-1]

    def run(self) -> tuple[Span, str | None, set[str]] | None:
        if self.index > self.offset or self.offset > len(self.source):
            return None
        try:
            while self.index < self.offset:
                self._step()
        except _Abort:
            return None
        return self._finish()

    def _value(self) -> _Level:
        level = self.level
        if level.state != _VALUE:
            raise _Abort
        level.started = True
        return level

    def _mark_started(self) -> None:
        if self.level.state == _VALUE:
            self.level.started = True

    def _step(self) -> None:
        char = self.source[self.index]
        if char in IDENT_START:
            self._identifier()
        elif char in " \t":
            self.index += 1
        elif char in "\n\r":
            self._line_break(char)
        elif opens_comment(self.source, self.index):
            self._comment()
        elif char == '"':
            self._string()
        elif char == ":":
            self._colon()
        elif char == ",":
            self._comma()
        elif char == "{":
            self._open_curly()
        elif char in "([":
            self._value()
            self._push(char)
        elif char in ")]":
            self._close(char)
        elif char == "}":
            self._close_curly()
        else:
            self._value()
            self.index += 1

    def _identifier(self) -> None:
        level = self.level
        if level.state != _FIELD:
            self._mark_started()
            self.index += 1
            return
        start = self.index
        while self.index < self.offset and self.source[self.index] in IDENT_CONTINUE:
            self.index += 1
        name = self.source[start : self.index]
        if len(name) > MAX_MODULE_FIELD_NAME_BYTES or not is_canonical_identifier(name):
            raise _Abort
        level.state, level.key_start = _AFTER_KEY, start

    def _end_value_at_break(self) -> None:
        if not self.delimiters and self.level.state == _VALUE:
            self.level.state = _FIELD

    def _line_break(self, char: str) -> None:
        self._end_value_at_break()
        self.index += 1
        if char == "\r" and self.index < self.offset and self.source[self.index] == "\n":
            self.index += 1

    def _comment(self) -> None:
        source, offset = self.source, self.offset
        if source[self.index + 1] == "/":
            self.index = line_comment_end(source, self.index, offset)
            if self.index == offset:
                raise _Abort
            return
        end = block_comment_end(source, self.index, offset)
        if end is None:
            raise _Abort
        body = source[self.index + 2 : end - 2]
        self.index = end
        if "\n" in body or "\r" in body:
            self._end_value_at_break()

    def _string(self) -> None:
        self._value()
        source, offset = self.source, self.offset
        end, closed = skip_string(source, self.index + 1, offset)
        if not closed:
            raise _Abort
        self.index = end

    def _colon(self) -> None:
        level = self.level
        if level.state == _AFTER_KEY:
            name = self.source[level.key_start : self.index]
            if len(level.declared) == MAX_MODULE_INPUT_FIELDS or name in level.declared:
                raise _Abort
            level.declared.add(name)
            level.state, level.value_of, level.started = _VALUE, name, False
        elif level.state == _VALUE:
            level.started = True
        else:
            raise _Abort
        self.index += 1

    def _comma(self) -> None:
        if not self.delimiters:
            state = self.level.state
            if state == _AFTER_KEY:
                raise _Abort
            if state == _VALUE:
                self.level.state = _FIELD
        self.index += 1

    def _open_curly(self) -> None:
        level = self.level
        if level.state == _VALUE and not level.started and len(self.levels) == 1:
            level.started = True
            self.levels.append(_Level(level.value_of, set()))
            self.index += 1
            return
        self._value()
        self._push("{")

    def _push(self, char: str) -> None:
        if len(self.delimiters) == MAX_SIGNATURE_DELIMITER_DEPTH:
            raise _Abort
        self.delimiters.append(char)
        self.index += 1

    def _close(self, char: str) -> None:
        expected = "(" if char == ")" else "["
        if not self.delimiters or self.delimiters.pop() != expected:
            raise _Abort
        self._mark_started()
        self.index += 1

    def _close_curly(self) -> None:
        if self.delimiters:
            if self.delimiters[-1] != "{":
                raise _Abort
            self.delimiters.pop()
            self._mark_started()
        else:
            if len(self.levels) == 1 or self.level.state == _AFTER_KEY:
                raise _Abort
            self.levels.pop()
        self.index += 1

    def _finish(self) -> tuple[Span, str | None, set[str]] | None:
        field = _key_span_at(self.source, self.offset)
        level = self.level
        if field is None or level.state == _VALUE:
            return None
        if level.state == _AFTER_KEY and field[0] != level.key_start:
            return None
        return field, level.parent, level.declared


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
