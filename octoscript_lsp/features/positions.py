"""Code-point offsets inside, UTF-16 LSP positions at the edge.

This module owns the protocol's line and column model, shared by request
positions, answer ranges and incremental text sync (`text_sync`):

- only LF, CRLF and a bare CR end a line (never U+2028, U+0085, FF, ...);
- a character past a line's end means the end of that line, before its
  terminator; a line past the last means the end of the document;
- a position inside a UTF-16 surrogate pair (between the two halves of one
  astral code point) means the position before that code point: columns
  round down to a whole code point, for edits and requests alike. Requests
  that need a position exactly at a character (`strict_offset`: hover,
  completion, definition, ...) answer nothing there, as the reference does,
  just as they do for a column past the line's end.

A bare CR is a syntax error, so it only matters for broken text; syntax
diagnostics keep the checker's own LF-only lines (`diagnostic_position`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from ..syntax.diagnostics import line_starts
from ..syntax.text import has_bare_carriage_return

_LINE_BREAK = re.compile(r"\r\n?|\n")


def utf16_width(text: str) -> int:
    """How many UTF-16 code units `text` takes (an LSP column's unit)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def utf16_distance(source: str, ascii: bool, start: int, end: int) -> int:
    """`utf16_width(source[start:end])`; for an ASCII `source` (`ascii`,
    known to the caller) the offsets' difference, with no slice made."""
    if ascii:
        return end - start
    return utf16_width(source[start:end])


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


def column_offset(source: str, start: int, end: int, character: int) -> tuple[int, bool]:
    """(offset, exact) of UTF-16 column `character` >= 0 of the text source[start:end].

    A column past the end gives `end`; a column between the halves of a
    surrogate pair rounds down to that code point's start. `exact` is False
    in both cases: the column is no character boundary of the line.
    """
    text = source[start:end]
    if text.isascii():
        return (start + character, True) if character <= len(text) else (end, False)
    offset = start
    remaining = character
    for char in text:
        if remaining == 0:
            return offset, True
        width = 2 if ord(char) > 0xFFFF else 1
        if remaining < width:
            return offset, False  # inside this code point's surrogate pair
        remaining -= width
        offset += 1
    return offset, remaining == 0


class PositionMap:
    __slots__ = ("source", "line_starts", "lf_line_starts", "ascii")

    def __init__(self, source: str, lf_starts: list[int] | None = None) -> None:
        self.source = source
        # An ASCII text's UTF-16 columns are code-point columns: no slice to
        # measure per position (an outline of a large document has thousands).
        self.ascii = source.isascii()
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
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.line_starts, offset) - 1
        return types.Position(line=line, character=self._column(self.line_starts[line], offset))

    def wire_position(self, offset: int) -> dict:
        """The JSON form of `position`, for answers built as plain dicts."""
        line, character = self.line_and_column(offset)
        return {"line": line, "character": character}

    def line_and_column(self, offset: int) -> tuple[int, int]:
        """`position`'s two numbers, for answers written as JSON text."""
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
        """The UTF-16 column of `offset` on the line starting at `line_start`."""
        return utf16_distance(self.source, self.ascii, line_start, offset)

    def wire_range(self, start: int, end: int) -> dict:
        return {"start": self.wire_position(start), "end": self.wire_position(end)}

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def line_end(self, line: int) -> int:
        return line_content_end(self.source, self.line_starts, line)

    def offset(self, position: types.Position) -> int:
        """Offset of an LSP position, clamped into the document (the module's rules)."""
        line = position.line
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.source)
        start = self.line_starts[line]
        character = max(0, position.character)
        return column_offset(self.source, start, self.line_end(line), character)[0]

    def diagnostic_offset(self, position: types.Position) -> int:
        """Inverse of `diagnostic_position` (LF-only lines), clamped into the document."""
        starts = self.lf_line_starts
        line = min(max(position.line, 0), len(starts) - 1)
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.source)
        return column_offset(self.source, starts[line], end, max(0, position.character))[0]

    def strict_offset(self, position: types.Position) -> int | None:
        """Offset of a position exactly at a character boundary, else None.

        Like the reference, a request at a column past the line's end, past
        the last line or inside a surrogate pair gets no answer.
        """
        line = position.line
        if line < 0 or line >= len(self.line_starts) or position.character < 0:
            return None
        start = self.line_starts[line]
        offset, within = column_offset(self.source, start, self.line_end(line), position.character)
        return offset if within else None
