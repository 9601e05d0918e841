"""Semantic tokens' LSP encoding: relative positions, columns and lengths
counted in the session's position encoding (`positions.PositionEncoding`).

`encode` turns a whole document's items into the answer's numbers;
`encode_fragment` encodes one top-level statement's items apart from where
the statement lies (`semantic_tokens` puts such fragments one after the
other, working out only the numbers that depend on what precedes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .positions import UTF16, PositionEncoding
from .wire import integer_items

# (start, end, type, modifiers), code-point offsets on a single line.
Item = tuple[int, int, int, int]
# Items laid end to end, four numbers each: a statement's classification is
# kept for later versions, and one tuple of numbers per statement (instead
# of one tuple per token) keeps a first answer's tens of thousands of items
# from setting off the cyclic collector's passes over the whole analysis.
Flat = Sequence[int]


class Fragment(NamedTuple):
    """A statement's items encoded, all but its first two numbers (a named
    tuple, as `_Run`: one per statement of a first answer)."""

    first: int  # start of its first item, relative
    head: str  # ",length,type,modifiers" of the first item, then every later item's five
    lines: int  # line breaks between its first item and its last
    # Start and end column of its last item: relative to the first item's
    # column when `lines` is 0 (the first line's columns depend on the text
    # before the statement), else absolute.
    last_start_column: int
    last_end_column: int
    last_end: int  # end of its last item, relative


def encode_fragment(
    source: str, base: int, items: Sequence[int], encoding: PositionEncoding = UTF16
) -> Fragment:
    """A statement's items (flat, see `Flat`; offsets relative to `base`,
    never empty) encoded."""
    first = items[0] + base
    run = _encode_run(source, items, base, source.rfind("\n", 0, first) + 1, encoding)
    shift = run.data[1] if run.line == 0 else 0  # the first item's column
    return Fragment(
        items[0],
        "," + integer_items(run.data[2:]),
        run.line,
        run.last_column - shift,
        run.cursor_column - shift,
        run.cursor - base,
    )


def encode(source: str, items: list[Item], encoding: PositionEncoding = UTF16) -> list[int]:
    """LSP relative encoding in `encoding`'s columns, computed incrementally."""
    flat = [number for item in items for number in item]
    return _encode_run(source, flat, 0, 0, encoding).data


class _Run(NamedTuple):
    data: list[int]
    line: int  # line breaks counted from where the run started
    last_column: int  # column of the last item's start
    cursor: int  # end of the last item
    cursor_column: int  # its column


def _encode_run(
    source: str, items: Flat, base: int, line_start: int, encoding: PositionEncoding
) -> _Run:
    """`items` (flat, offsets relative to `base`) encoded from `line_start`, a line's start."""
    if encoding.code_points or source.isascii():
        return _encode_ascii_run(source, items, base, line_start)
    width = encoding.width
    data: list[int] = []
    line = 0
    previous_line = 0
    previous_column = 0
    cursor = line_start  # offset whose column on `line` is `cursor_column`
    cursor_column = 0
    numbers = iter(items)
    for start, end, token_type, modifiers in zip(numbers, numbers, numbers, numbers, strict=True):
        start += base
        end += base
        newline = source.rfind("\n", cursor, start)
        if newline != -1:
            line += source.count("\n", cursor, newline + 1)
            cursor, cursor_column = newline + 1, 0
        column = cursor_column + width(source[cursor:start])
        length = width(source[start:end])
        cursor, cursor_column = end, column + length
        if line == previous_line:
            data += (0, column - previous_column, length, token_type, modifiers)
        else:
            data += (line - previous_line, column, length, token_type, modifiers)
            previous_line = line
        previous_column = column
    return _Run(data, line, previous_column, cursor, cursor_column)


def _encode_ascii_run(source: str, items: Flat, base: int, line_start: int) -> _Run:
    """`_encode_run` where a column is an offset from its line's start (an
    ASCII text, or UTF-32: the loop a first answer runs for every item of
    the document)."""
    data: list[int] = []
    rfind, count = source.rfind, source.count
    line = previous_line = previous_column = column = 0
    cursor = line_start  # the end of the last item
    end = line_start
    numbers = iter(items)
    for start, end, token_type, modifiers in zip(numbers, numbers, numbers, numbers, strict=True):
        start += base
        end += base
        newline = rfind("\n", cursor, start)
        column = start - line_start
        if newline == -1:
            data += (0, column - previous_column, end - start, token_type, modifiers)
        else:
            line += count("\n", cursor, newline + 1)
            line_start = newline + 1
            column = start - line_start
            data += (line - previous_line, column, end - start, token_type, modifiers)
            previous_line = line
        previous_column = column
        cursor = end
    return _Run(data, line, column, end, column + (end - start) if data else 0)
