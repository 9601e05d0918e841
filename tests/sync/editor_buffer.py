"""A deliberately simple model of an editor's buffer, for checking the server.

It shares no code with `octoscript_lsp.features.positions` or `text_sync`:
a line is cut at LF, CRLF or a bare CR, a column is found by encoding the
line's text in the negotiated encoding and slicing whole units off the
front, and a partial code point left at the cut is dropped (the column
rounds down, as the protocol's rules in this project say).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ENCODINGS = ("utf-8", "utf-16", "utf-32")

# Python codec and bytes per unit of each LSP position encoding.
_CODECS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def lines_with_ends(text: str) -> list[tuple[str, str]]:
    """(content, terminator) of every line; the last one's terminator is ''."""
    found = []
    for match in _LINE.finditer(text):
        piece = match.group()
        content = piece.rstrip("\r\n")
        found.append((content, piece[len(content) :]))
        if not piece or piece[-1] not in "\r\n":
            break
    return found


def column(line: str, offset: int, encoding: str) -> int:
    """How many units of `encoding` the first `offset` code points of `line` take."""
    codec, unit = _CODECS[encoding]
    return len(line[:offset].encode(codec)) // unit


def code_points(line: str, character: int, encoding: str) -> int:
    """The code-point offset on `line` of column `character` (rounded down, clamped)."""
    codec, unit = _CODECS[encoding]
    data = line.encode(codec)
    return len(data[: character * unit].decode(codec, errors="ignore"))


@dataclass
class EditorBuffer:
    """The editor's text, edited by LSP ranges in one encoding."""

    text: str
    encoding: str

    def offset(self, line: int, character: int) -> int:
        lines = lines_with_ends(self.text)
        if line >= len(lines):
            return len(self.text)
        before = sum(len(content) + len(end) for content, end in lines[:line])
        return before + code_points(lines[line][0], character, self.encoding)

    def position(self, offset: int) -> tuple[int, int]:
        """The LSP position of a code-point offset (at a line's content or its end)."""
        start = 0
        lines = lines_with_ends(self.text)
        for number, (content, end) in enumerate(lines):
            if offset <= start + len(content) or number == len(lines) - 1:
                return number, column(content, offset - start, self.encoding)
            start += len(content) + len(end)
        raise AssertionError("unreachable")

    def edit(self, start: tuple[int, int], end: tuple[int, int], new_text: str) -> None:
        first, last = self.offset(*start), self.offset(*end)
        self.text = self.text[:first] + new_text + self.text[last:]


def decode_tokens(data: list[int]) -> list[tuple[int, int, int, int, int]]:
    """Semantic tokens' relative numbers as (line, column, length, type, modifiers)."""
    found = []
    line = character = 0
    for index in range(0, len(data), 5):
        delta_line, delta_character, length, token_type, modifiers = data[index : index + 5]
        line += delta_line
        character = character + delta_character if delta_line == 0 else delta_character
        found.append((line, character, length, token_type, modifiers))
    return found
