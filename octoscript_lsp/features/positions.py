"""Code-point offsets inside, UTF-16 LSP positions at the edge.

LSP lines end at LF, CRLF or a bare CR, as the reference server counts them
for request positions and answer ranges. A bare CR is a syntax error, so it
only matters for broken text; syntax diagnostics keep the checker's own
LF-only lines (`diagnostic_position`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from ..syntax.diagnostics import line_starts


def _utf16_width(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


_BARE_CR = re.compile(r"\r(?!\n)")


def _lsp_line_starts(source: str, lf_starts: list[int]) -> list[int]:
    """Line starts where a bare CR also ends a line (LF-only when there is none)."""
    carriage_returns = source.count("\r")
    if not carriage_returns or carriage_returns == source.count("\r\n"):
        return lf_starts
    starts = lf_starts + [match.end() for match in _BARE_CR.finditer(source)]
    starts.sort()
    return starts


class PositionMap:
    __slots__ = ("source", "line_starts", "lf_line_starts")

    def __init__(self, source: str, lf_starts: list[int] | None = None) -> None:
        self.source = source
        # The syntax layer's LF line starts of the same text, when at hand.
        self.lf_line_starts = line_starts(source) if lf_starts is None else lf_starts
        self.line_starts = _lsp_line_starts(source, self.lf_line_starts)

    def diagnostic_position(self, offset: int) -> types.Position:
        """Position of a syntax diagnostic: lines end at LF only, like the checker's."""
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.lf_line_starts, offset) - 1
        start = self.lf_line_starts[line]
        return types.Position(line=line, character=_utf16_width(self.source[start:offset]))

    def line_of(self, offset: int) -> tuple[int, int]:
        """(LSP line number, offset of that line's start) of an offset."""
        line = bisect_right(self.line_starts, offset) - 1
        return line, self.line_starts[line]

    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[line]
        return types.Position(line=line, character=_utf16_width(self.source[start:offset]))

    def wire_position(self, offset: int) -> dict:
        """The JSON form of `position`, for answers built as plain dicts."""
        offset = max(0, min(offset, len(self.source)))
        line = bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[line]
        return {"line": line, "character": _utf16_width(self.source[start:offset])}

    def wire_range(self, start: int, end: int) -> dict:
        return {"start": self.wire_position(start), "end": self.wire_position(end)}

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def line_end(self, line: int) -> int:
        if line + 1 < len(self.line_starts):
            end = self.line_starts[line + 1] - 1
            if end > self.line_starts[line] and self.source[end - 1] == "\r":
                end -= 1
            return end
        return len(self.source)

    def offset(self, position: types.Position) -> int:
        """Offset of an LSP position, clamped into the document."""
        line = position.line
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.source)
        start = self.line_starts[line]
        end = self.line_end(line)
        remaining = max(0, position.character)
        text = self.source[start:end]
        if text.isascii():
            return start + min(remaining, len(text))
        offset = start
        for char in text:
            width = 2 if ord(char) > 0xFFFF else 1
            if remaining < width:
                break
            remaining -= width
            offset += 1
        return offset

    def strict_offset(self, position: types.Position) -> int | None:
        """Offset of a position inside the text, or None past a line's end or mid-pair."""
        line = position.line
        if line < 0 or line >= len(self.line_starts) or position.character < 0:
            return None
        start = self.line_starts[line]
        end = self.line_end(line)
        text = self.source[start:end]
        remaining = position.character
        if text.isascii():
            return start + remaining if remaining <= len(text) else None
        offset = start
        for char in text:
            if remaining == 0:
                return offset
            width = 2 if ord(char) > 0xFFFF else 1
            if remaining < width:
                return None
            remaining -= width
            offset += 1
        return offset if remaining == 0 else None
