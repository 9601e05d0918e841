"""Sequences whose stretches are an earlier version's items, moved on demand.

After an edit that changes the text's length, everything past it keeps its
tokens, tree and scope events, only moved: offsets by the length difference,
token indices by the token count difference. Copying every later item on
every keystroke is what made typing cost in proportion to the document, so
a `MovedList` holds those stretches as references into the earlier lists
plus one move `(token shift, offset delta)` each, and makes a moved item
only when a reader asks for it (once per chunk, then cached). Readers see an
ordinary read-only sequence of items at their absolute positions.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from ..limits import MAX_MOVED_PIECES

T = TypeVar("T")
# (token index shift, offset delta) added to an earlier item to place it here.
Move = tuple[int, int]
# A stretch base[low:high], moved by `move` (None: the items as they are).
Piece = tuple[list, int, int, "Move | None"]
# Makes the moved copies of a stretch of items (one call per stretch, not per item).
Mover = Callable[[list, Move], list]

# Items made at once when a reader first touches a moved stretch, as a power
# of two: tokens and events are cheap to make, a moved tree node is a copy of
# its whole subtree (see `assemble`'s `chunk_bits`).
TOKEN_CHUNK_BITS = 5


class MovedList(Sequence[T], Generic[T]):
    """A read-only sequence built from pieces of earlier lists, each moved lazily."""

    __slots__ = ("_pieces", "_starts", "_length", "_chunks", "_mover", "_bits", "_mask")

    def __init__(
        self, pieces: list[Piece], mover: Mover, chunk_bits: int = TOKEN_CHUNK_BITS
    ) -> None:
        self._pieces = pieces
        starts = []
        length = 0
        for _, low, high, _ in pieces:
            starts.append(length)
            length += high - low
        self._starts = starts
        self._length = length
        self._bits = chunk_bits
        self._mask = (1 << chunk_bits) - 1
        self._chunks: list[list | None] = [None] * ((length + self._mask) >> chunk_bits)
        self._mover = mover

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._slice(index)
        if index < 0:
            index += self._length
            if index < 0:
                raise IndexError("MovedList index out of range")
        elif index >= self._length:
            raise IndexError("MovedList index out of range")
        chunk = self._chunks[index >> self._bits]
        if chunk is None:
            chunk = self._fill(index >> self._bits)
        return chunk[index & self._mask]

    def __iter__(self) -> Iterator[T]:
        chunks = self._chunks
        for number in range(len(chunks)):
            chunk = chunks[number]
            yield from chunk if chunk is not None else self._fill(number)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, MovedList)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return f"MovedList({list(self)!r})"

    def materialized(self) -> list[T]:
        """All items as a plain list."""
        return self._range(0, self._length)

    def peek(self, index: int) -> tuple[Any, Move | None]:
        """The earlier item at `index` and the move that places it here, made
        nothing of (for binary searches that must not fill chunks)."""
        position = bisect_right(self._starts, index) - 1
        base, low, _, move = self._pieces[position]
        return base[low + index - self._starts[position]], move

    def pieces(self, low: int, high: int) -> list[Piece]:
        """The pieces covering [low, high), for building a later version."""
        found: list[Piece] = []
        if low >= high:
            return found
        starts = self._starts
        position = bisect_right(starts, low) - 1
        while position < len(starts) and starts[position] < high:
            base, base_low, base_high, move = self._pieces[position]
            start = starts[position]
            first = base_low + max(low - start, 0)
            last = base_low + min(high - start, base_high - base_low)
            if first < last:
                found.append((base, first, last, move))
            position += 1
        return found

    def _slice(self, index: slice) -> list[T]:
        start, stop, step = index.indices(self._length)
        if step != 1:
            return self._range(0, self._length)[index]
        return self._range(start, stop) if start < stop else []

    def _range(self, low: int, high: int) -> list[T]:
        out: list = []
        first, last = low >> self._bits, (high - 1) >> self._bits
        chunks = self._chunks
        for number in range(first, last + 1):
            chunk = chunks[number]
            out += chunk if chunk is not None else self._fill(number)
        offset = first << self._bits
        return out[low - offset : high - offset]

    def _fill(self, number: int) -> list:
        low = number << self._bits
        high = min(low + self._mask + 1, self._length)
        chunk = _items(self.pieces(low, high), self._mover)
        self._chunks[number] = chunk
        return chunk


def _items(pieces: list[Piece], mover: Mover) -> list:
    out: list = []
    for base, low, high, move in pieces:
        if move is None:
            out += base[low:high]
        else:
            out += mover(base[low:high], move)
    return out


def _joined(pieces: list[Piece], mover: Mover) -> list:
    """The items of unmoved pieces as one new list.

    An edit's pieces are mostly two long stretches of one earlier list (before
    and after the edit) around a few new items. Copying the earlier list from
    the first stretch's start to the second's end and replacing the few items
    between touches each kept item once; joining slices touches it three
    times (slice, extend, free), and these lists are the whole document's.
    """
    if len(pieces) > 1:
        base, low, high, _ = pieces[0]
        for last in range(len(pieces) - 1, 0, -1):
            other, other_low, other_high, _ = pieces[last]
            if other is base and other_low >= high:
                # Copying the replaced items too never costs more than the kept ones.
                if other_low - high <= (high - low) + (other_high - other_low):
                    out = base[low:other_high]
                    out[high - low : other_low - low] = _items(pieces[1:last], mover)
                    out += _items(pieces[last + 1 :], mover)
                    return out
                break
    return _items(pieces, mover)


def pieces_of(items: Sequence, low: int, high: int) -> list[Piece]:
    """Pieces covering items[low:high] of a list or a MovedList."""
    if isinstance(items, MovedList):
        return items.pieces(low, high)
    if low >= high:
        return []
    return [(items, low, high, None)]  # type: ignore[list-item]


def moved_pieces(pieces: list[Piece], shift: int, delta: int) -> list[Piece]:
    """The same pieces, each moved a further `shift` tokens and `delta` offsets."""
    if shift == 0 and delta == 0:
        return pieces
    found: list[Piece] = []
    for base, low, high, move in pieces:
        total = (shift, delta) if move is None else (move[0] + shift, move[1] + delta)
        found.append((base, low, high, None if total == (0, 0) else total))
    return found


def assemble(
    pieces: list[Piece], mover: Mover, chunk_bits: int = TOKEN_CHUNK_BITS
) -> list | MovedList:
    """A plain list when nothing is moved (copying references is cheap), else a
    MovedList of at most MAX_MOVED_PIECES pieces, making 2**chunk_bits items
    at a time."""
    if all(move is None for _, _, _, move in pieces):
        return _joined(pieces, mover)
    pieces = _merged(pieces)
    while len(pieces) > MAX_MOVED_PIECES:
        # Each edit at a new place adds two pieces; make the smallest moved one
        # for good, then join it with its plain neighbours.
        moved = [index for index, piece in enumerate(pieces) if piece[3] is not None]
        smallest = min(moved, key=lambda index: pieces[index][2] - pieces[index][1])
        made = _items([pieces[smallest]], mover)
        pieces[smallest] = (made, 0, len(made), None)
        pieces = _merged(pieces)
    return MovedList(pieces, mover, chunk_bits)


def _merged(pieces: list[Piece]) -> list[Piece]:
    """Joins neighbouring stretches: contiguous ones of one list, and plain ones
    (their references copied into one new list)."""
    found: list[Piece] = []
    for piece in pieces:
        base, low, high, move = piece
        if low >= high:
            continue
        if found:
            last_base, last_low, last_high, last_move = found[-1]
            if last_base is base and last_high == low and last_move == move:
                found[-1] = (base, last_low, high, move)
                continue
            if move is None and last_move is None:
                joined = last_base[last_low:last_high] + base[low:high]
                found[-1] = (joined, 0, len(joined), None)
                continue
        found.append(piece)
    return found
