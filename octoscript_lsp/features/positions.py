"""Code-point offsets inside, LSP positions in the negotiated encoding at the edge.

This module owns the protocol's line and column model, shared by request
positions, answer ranges, semantic tokens and incremental text sync
(`text_sync`):

- the column unit is the one `initialize` settled on (`negotiate`, LSP
  3.17's `positionEncoding`): UTF-8 bytes, UTF-16 code units (the default)
  or UTF-32 code points, a `PositionEncoding` here. An ASCII text's
  columns are the same in all three and are counted without measuring;
- only LF, CRLF and a bare CR end a line (never U+2028, U+0085, FF, ...);
- a character past a line's end means the end of that line, before its
  terminator; a line past the last means the end of the document;
- a column inside a code point (between the UTF-8 bytes of one character,
  or between the two halves of a UTF-16 surrogate pair) means the position
  before that code point: columns round down to a whole code point, for
  edits and requests alike. Requests that need a position exactly at a
  character (`strict_offset`: hover, completion, definition, ...) answer
  nothing there, as the reference does, just as they do for a column past
  the line's end.

A bare CR is a syntax error, so it only matters for broken text; syntax
diagnostics keep the checker's own LF-only lines (`diagnostic_position`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lsprotocol import types

from ..syntax.check import utf8_length
from ..syntax.diagnostics import line_starts
from ..syntax.lexer import common_prefix, common_suffix
from ..syntax.text import has_bare_carriage_return

_LINE_BREAK = re.compile(r"\r\n?|\n")

# The bytes that continue a UTF-8 sequence (10xxxxxx): deleting them leaves
# one byte per code point.
_UTF8_CONTINUATION = bytes(range(0x80, 0xC0))
# The high byte of a UTF-16 trailing (low) surrogate, DC00 to DFFF.
_TRAILING_SURROGATE_HIGH_BYTES = bytes(range(0xDC, 0xE0))


def utf16_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _utf8_column(source: str, start: int, end: int, character: int) -> tuple[int, bool]:
    """`column_offset` in UTF-8 bytes for a non-ASCII line."""
    data = source[start:end].encode("utf-8", "surrogatepass")
    if character >= len(data):
        return end, character == len(data)
    # Code points starting in the first `character` bytes.
    count = len(data[:character].translate(None, _UTF8_CONTINUATION))
    if 0x80 <= data[character] < 0xC0:
        return start + count - 1, False  # inside that code point's bytes
    return start + count, True


def _utf16_column(source: str, start: int, end: int, character: int) -> tuple[int, bool]:
    """`column_offset` in UTF-16 code units for a non-ASCII line."""
    try:
        data = source[start:end].encode("utf-16-le")
    except UnicodeEncodeError:  # a lone surrogate, which only JSON can send
        return _utf16_column_by_character(source, start, end, character)
    units = len(data) // 2
    if character >= units:
        return end, character == units
    # Code points starting in the first `character` units: all but the
    # trailing halves of surrogate pairs (told by each unit's high byte).
    high_bytes = data[1 : 2 * character : 2]
    trailing = len(high_bytes) - len(high_bytes.translate(None, _TRAILING_SURROGATE_HIGH_BYTES))
    count = character - trailing
    if data[2 * character + 1] in _TRAILING_SURROGATE_HIGH_BYTES:
        return start + count - 1, False  # between this code point's surrogates
    return start + count, True


def _utf16_column_by_character(
    source: str, start: int, end: int, character: int
) -> tuple[int, bool]:
    """`_utf16_column` one code point at a time (a lone surrogate is one unit)."""
    offset = start
    remaining = character
    for char in source[start:end]:
        if remaining == 0:
            return offset, True
        width = 2 if ord(char) > 0xFFFF else 1
        if remaining < width:
            return offset, False  # inside this code point's surrogate pair
        remaining -= width
        offset += 1
    return offset, remaining == 0


def _utf32_column(source: str, start: int, end: int, character: int) -> tuple[int, bool]:
    """`column_offset` in code points (any line of UTF-32, an ASCII line of any encoding)."""
    return (start + character, True) if character <= end - start else (end, False)


@dataclass(frozen=True, slots=True, eq=False)
class PositionEncoding:
    """One `positionEncoding`: what a column counts.

    `width` measures a text in that unit; `column` finds a column on a
    non-ASCII line (`column_offset`'s contract). `code_points`: columns are
    code-point offsets whatever the text (UTF-32), so nothing is measured.
    """

    name: str
    width: Callable[[str], int]
    column: Callable[[str, int, int, int], tuple[int, bool]]
    code_points: bool = False


# A lone surrogate, which only JSON can send, counts as its code point's three bytes.
UTF8 = PositionEncoding(types.PositionEncodingKind.Utf8.value, utf8_length, _utf8_column)
UTF16 = PositionEncoding(types.PositionEncodingKind.Utf16.value, utf16_width, _utf16_column)
UTF32 = PositionEncoding(
    types.PositionEncodingKind.Utf32.value, len, _utf32_column, code_points=True
)
ENCODINGS = {encoding.name: encoding for encoding in (UTF8, UTF16, UTF32)}


def negotiate(offered: Sequence[object] | None) -> PositionEncoding:
    """The encoding for a client's `general.positionEncodings`.

    The list is in the client's order of preference: its first entry the
    server supports wins; UTF-16, which every client must support, when the
    list is absent or offers none of them.
    """
    for name in offered or ():
        encoding = ENCODINGS.get(name) if isinstance(name, str) else None
        if encoding is not None:
            return encoding
    return UTF16


def client_encoding(capabilities: types.ClientCapabilities | None) -> PositionEncoding:
    """`negotiate` over an `initialize` request's client capabilities."""
    general = capabilities.general if capabilities is not None else None
    return negotiate(general.position_encodings if general is not None else None)


def lsp_line_starts(source: str, lf_starts: list[int] | None = None) -> list[int]:
    """Offset of every line start, lines ending at LF, CRLF or a bare CR.

    Without a bare CR they are the LF-only line starts (`lf_starts`, when the
    caller has them): a CRLF line starts after its LF as well.
    """
    if not has_bare_carriage_return(source):
        return line_starts(source) if lf_starts is None else lf_starts
    return [0] + [match.end() for match in _LINE_BREAK.finditer(source)]


def line_content_end(source: str, starts: list[int], line: int) -> int:
    """Offset where `line`'s text ends, before its terminator (0 <= line < len(starts))."""
    if line + 1 >= len(starts):
        return len(source)
    end = starts[line + 1] - 1  # the terminator's last character
    if source[end] == "\n" and end > starts[line] and source[end - 1] == "\r":
        end -= 1
    return end


def column_offset(
    source: str, start: int, end: int, character: int, encoding: PositionEncoding = UTF16
) -> tuple[int, bool]:
    """(offset, exact) of column `character` >= 0, in `encoding`'s units, of
    the text source[start:end].

    A column past the end gives `end`; a column inside a code point (between
    its UTF-8 bytes or its surrogates) rounds down to that code point's
    start. `exact` is False in both cases: the column is no character
    boundary of the line.
    """
    if encoding.code_points or source[start:end].isascii():
        return _utf32_column(source, start, end, character)
    return encoding.column(source, start, end, character)


class PositionMap:
    """Offsets to LSP positions and back for one text, in one encoding."""

    __slots__ = ("source", "line_starts", "lf_line_starts", "encoding", "plain")

    def __init__(
        self,
        source: str,
        lf_starts: list[int] | None = None,
        encoding: PositionEncoding = UTF16,
    ) -> None:
        self.source = source
        self.encoding = encoding
        # Columns that are code-point offsets (an ASCII text, or UTF-32):
        # no slice to measure per position (an outline of a large document
        # has thousands).
        self.plain = encoding.code_points or source.isascii()
        # The syntax layer's LF line starts of the same text, when at hand.
        self.lf_line_starts = line_starts(source) if lf_starts is None else lf_starts
        self.line_starts = lsp_line_starts(source, self.lf_line_starts)

    def diagnostic_position(self, offset: int) -> types.Position:
        """Position of a syntax diagnostic: lines end at LF only, like the checker's."""
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.lf_line_starts, offset) - 1
        return types.Position(line=line, character=self._column(self.lf_line_starts[line], offset))

    def line_of(self, offset: int) -> tuple[int, int]:
        """(LSP line number, offset of that line's start) of an offset."""
        line = bisect_right(self.line_starts, offset) - 1
        return line, self.line_starts[line]

    def position(self, offset: int) -> types.Position:
        line, character = self.line_and_column(offset)
        return types.Position(line=line, character=character)

    def wire_position(self, offset: int) -> dict:
        """The JSON form of `position`, for answers built as plain dicts."""
        line, character = self.line_and_column(offset)
        return {"line": line, "character": character}

    def line_and_column(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.line_starts, offset) - 1
        return line, self._column(self.line_starts[line], offset)

    def span_lines_and_columns(self, start: int, end: int) -> tuple[int, int, int, int]:
        """`line_and_column` of `start` and of `end` (not before it), the
        line found once when both lie on it (an outline's names, short
        declarations)."""
        length = len(self.source)
        start = max(0, min(start, length))
        end = max(start, min(end, length))
        line_starts = self.line_starts
        line = bisect_right(line_starts, start) - 1
        line_start = line_starts[line]
        if line + 1 < len(line_starts) and end >= line_starts[line + 1]:
            end_line = bisect_right(line_starts, end, line + 1) - 1
            end_start = line_starts[end_line]
        else:
            end_line, end_start = line, line_start
        return (
            line,
            self._column(line_start, start),
            end_line,
            self._column(end_start, end),
        )

    def _column(self, line_start: int, offset: int) -> int:
        """The column of `offset` on the line starting at `line_start`."""
        if self.plain:
            return offset - line_start
        return self.encoding.width(self.source[line_start:offset])

    def wire_range(self, start: int, end: int) -> dict:
        return {"start": self.wire_position(start), "end": self.wire_position(end)}

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def offset(self, position: types.Position) -> int:
        """Offset of an LSP position, clamped into the document (the module's rules)."""
        line = position.line
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.source)
        return self._column_offset(line, max(0, position.character))[0]

    def strict_offset(self, position: types.Position) -> int | None:
        """Offset of a position exactly at a character boundary, else None.

        Like the reference, a request at a column past the line's end, past
        the last line or inside a surrogate pair gets no answer.
        """
        line = position.line
        if line < 0 or line >= len(self.line_starts) or position.character < 0:
            return None
        offset, within = self._column_offset(line, position.character)
        return offset if within else None

    def _column_offset(self, line: int, character: int) -> tuple[int, bool]:
        end = line_content_end(self.source, self.line_starts, line)
        return column_offset(self.source, self.line_starts[line], end, character, self.encoding)


def changed_span(before: str, after: str) -> tuple[int, int, str]:
    """(start, end, text): `before[start:end]` replaced by `text` gives `after`, the
    span between their common prefix and suffix (the cursor outside it stays put)."""
    prefix = common_prefix(before, after)
    if 0 < prefix < len(before) and before[prefix - 1 : prefix + 1] == "\r\n":
        prefix -= 1  # never between the halves of a line break
    suffix = common_suffix(before, after, min(len(before), len(after)) - prefix)
    end = len(before) - suffix
    if prefix < end < len(before) and before[end - 1 : end + 1] == "\r\n":
        end += 1
        suffix -= 1
    return prefix, end, after[prefix : len(after) - suffix]
