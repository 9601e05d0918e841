"""The text of each open document, kept exactly as the protocol defines it.

The server applies `didChange` content changes itself instead of relying on
pygls' workspace, whose line splitting also breaks at VT, FF, U+0085, U+2028
and friends and which clamps positions differently. The rules are those of
`features/positions` (the one line and column model): only LF, CRLF and a
bare CR end a line; a character past a line's end is the line's end before
its terminator; a line past the last is the end of the document; columns
count in the negotiated position encoding (`TextStore.encoding`), and one
inside a code point rounds down to the code point's start. The halves of
a surrogate pair that two changes bring side by side are one character, as
in the editor's buffer.

The changes of one notification apply in order, each to the text the one
before produced. A notification with an invalid change (a negative or
absurd position, an end before its start, or a result longer than
`MAX_SYNCED_TEXT_CHARS`) is refused whole: the previous text and version are
kept, one warning is logged, and the document is marked out of sync so that
later ranged changes (which the editor computed against text we do not hold)
are refused too. The editor keeps seeing answers and diagnostics for the
last good version until it sends a full-text change or reopens the document.

Nothing here reads a file: the text is only ever what the client sent.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .features.positions import (
    UTF16,
    PositionEncoding,
    column_offset,
    line_content_end,
    lsp_line_starts,
)
from .limits import MAX_ANCHOR_DISTANCE, MAX_POSITION_VALUE, MAX_SYNCED_TEXT_CHARS
from .syntax.text import has_bare_carriage_return

logger = logging.getLogger(__name__)


class InvalidChange(ValueError):
    """A content change that cannot be applied to the text we hold."""


@dataclass(frozen=True, slots=True)
class TextChange:
    """One content change: `start`/`end` are (line, character), None for full text."""

    text: str
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None

    @property
    def full(self) -> bool:
        return self.start is None


def _checked(position: tuple[int, int]) -> tuple[int, int]:
    line, character = position
    for value in (line, character):
        if type(value) is not int or not 0 <= value <= MAX_POSITION_VALUE:
            raise InvalidChange(f"position {position} is negative or out of range")
    return line, character


def offset_of(
    text: str,
    starts: list[int],
    position: tuple[int, int],
    encoding: PositionEncoding = UTF16,
) -> int:
    """Code-point offset of a valid (line, character) under the protocol's rules."""
    line, character = position
    if line >= len(starts):
        return len(text)
    end = line_content_end(text, starts, line)
    return column_offset(text, starts[line], end, character, encoding)[0]


# A line start of a text the sync knows: (line, offset). Line 0 starts at 0.
Anchor = tuple[int, int]
START: Anchor = (0, 0)


def _line_start(text: str, line: int, anchor: Anchor) -> int | None:
    """Offset where `line` starts in text whose lines all end at LF or CRLF,
    None for a line past the last.

    Counted from `anchor` (where the change before was: the next one is
    nearly always close), one `find` per line in between. An edit far from
    the last one splits the text up to that line instead (in C).
    """
    known, position = anchor
    if abs(line - known) > MAX_ANCHOR_DISTANCE:
        parts = text.split("\n", line)
        return len(text) - len(parts[-1]) if len(parts) > line else None
    find = text.find
    for _ in range(line - known):
        position = find("\n", position) + 1
        if position == 0:
            return None
    rfind = text.rfind
    for _ in range(known - line):
        # `position` starts a line after an LF: the LF before that one ends the line above.
        position = rfind("\n", 0, position - 1) + 1
    return position


def _offset_at(
    text: str, line_start: int | None, character: int, encoding: PositionEncoding
) -> int:
    """`offset_of` for text without a bare CR, given where the line starts."""
    if line_start is None:
        return len(text)
    end = text.find("\n", line_start)
    if end == -1:
        end = len(text)
    if end > line_start and text[end - 1] == "\r":
        end -= 1
    return column_offset(text, line_start, end, character, encoding)[0]


def _bare_carriage_return_near(text: str, low: int, high: int) -> bool:
    """Whether a CR at an offset in [low, high) of `text` is not followed by LF."""
    low = max(low, 0)
    return text.count("\r", low, high) != text.count("\r\n", low, high + 1)


@dataclass(slots=True)
class _Edited:
    """A text being changed, with what is known about it: where a line starts
    (`anchor`) and whether it has a bare CR (None: not worked out yet).
    Ranges count columns in `encoding`."""

    text: str
    anchor: Anchor = START
    bare_cr: bool | None = None
    encoding: PositionEncoding = UTF16

    def apply(self, change: TextChange) -> None:
        """Apply one change; raises InvalidChange."""
        if change.full:
            self.text, self.anchor, self.bare_cr = change.text, START, None
            return
        if change.end is None:
            raise InvalidChange("a ranged change without an end")
        start, end = _checked(change.start), _checked(change.end)
        if end < start:
            raise InvalidChange(f"range end {end} is before its start {start}")
        text = self.text
        if self.bare_cr is None:
            self.bare_cr = has_bare_carriage_return(text)
        if self.bare_cr:
            starts = lsp_line_starts(text)
            encoding = self.encoding
            first = offset_of(text, starts, start, encoding)
            last = offset_of(text, starts, end, encoding)
            anchor = START
        else:
            first_line = _line_start(text, start[0], self.anchor)
            first = _offset_at(text, first_line, start[1], self.encoding)
            line_anchor = START if first_line is None else (start[0], first_line)
            last_line = _line_start(text, end[0], line_anchor)
            last = _offset_at(text, last_line, end[1], self.encoding)
            # The text up to `first` stays: so does the line start before it.
            anchor = line_anchor
        inserted = change.text
        self.text, size = _joined(text[:first], inserted, text[last:])
        if self.bare_cr:
            self.bare_cr = None  # worked out again when needed
        else:
            # Only a CR just before the edit or inserted by it can now be bare.
            self.bare_cr = _bare_carriage_return_near(self.text, first - 1, first + size)
        self.anchor = anchor


def _is_high_surrogate(text: str, index: int) -> bool:
    return 0 <= index < len(text) and "\ud800" <= text[index] <= "\udbff"


def _is_low_surrogate(text: str, index: int) -> bool:
    return 0 <= index < len(text) and "\udc00" <= text[index] <= "\udfff"


def _pair(high: str, low: str) -> str:
    # UTF-16's own codec joins the halves (no surrogate arithmetic here).
    return (high + low).encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def _joined(before: str, inserted: str, after: str) -> tuple[str, int]:
    """`before + inserted + after`, and how long `inserted` is in it.

    JSON can send the halves of a surrogate pair in two changes (one lone
    surrogate each); side by side they are the one astral character a
    UTF-16 editor's buffer then holds, and that the same text sent whole
    decodes to, so they are joined where a change meets the text around it.
    """
    if _is_high_surrogate(inserted, len(inserted) - 1) and _is_low_surrogate(after, 0):
        inserted, after = inserted[:-1] + _pair(inserted[-1], after[0]), after[1:]
    if _is_high_surrogate(before, len(before) - 1):
        if _is_low_surrogate(inserted, 0):
            inserted = _pair(before[-1], inserted[0]) + inserted[1:]
            before = before[:-1]
        elif not inserted and _is_low_surrogate(after, 0):
            # A deletion that brings two halves together.
            before, after = before[:-1] + _pair(before[-1], after[0]), after[1:]
    return before + inserted + after, len(inserted)


def apply_change(text: str, change: TextChange, encoding: PositionEncoding = UTF16) -> str:
    """The text after one change; raises InvalidChange."""
    edited = _Edited(text, encoding=encoding)
    edited.apply(change)
    return edited.text


def apply_changes(text: str, changes: list[TextChange], encoding: PositionEncoding = UTF16) -> str:
    """The text after every change in order; raises InvalidChange for any bad one."""
    return _apply_all(_Edited(text, encoding=encoding), changes).text


def _apply_all(edited: _Edited, changes: list[TextChange]) -> _Edited:
    for change in changes:
        edited.apply(change)
        if len(edited.text) > MAX_SYNCED_TEXT_CHARS:
            raise InvalidChange(f"the text would exceed {MAX_SYNCED_TEXT_CHARS} characters")
    return edited


@dataclass(slots=True)
class SyncedText:
    version: int | None
    text: str
    in_sync: bool = True
    # Where the last change was and whether the text has a bare CR (`_Edited`).
    anchor: Anchor = START
    bare_cr: bool | None = None


class TextStore:
    """Client-sent text of the open documents, by the exact URI the client used.

    Ranged changes count columns in `encoding`, the session's negotiated
    position encoding (set at `initialize`)."""

    def __init__(self, encoding: PositionEncoding = UTF16) -> None:
        self._documents: dict[str, SyncedText] = {}
        self.encoding = encoding

    def text(self, uri: str) -> str | None:
        document = self._documents.get(uri)
        return document.text if document is not None else None

    def version(self, uri: str) -> int | None:
        document = self._documents.get(uri)
        return document.version if document is not None else None

    def open(self, uri: str, version: int | None, text: str) -> None:
        self._documents[uri] = SyncedText(version, text)

    def close(self, uri: str) -> None:
        self._documents.pop(uri, None)

    def change(self, uri: str, version: int | None, changes: list[TextChange]) -> bool:
        """Apply one notification's changes; False (text kept) when it was refused."""
        document = self._documents.get(uri)
        if document is None:
            logger.warning("ignored a change to %s, which is not open", uri)
            return False
        try:
            if not document.in_sync and not any(change.full for change in changes):
                raise InvalidChange("an earlier change was refused; waiting for the full text")
            if not document.in_sync:
                # The ranged changes before the last full-text one were
                # computed against text we do not hold: start from it.
                first_full = max(i for i, change in enumerate(changes) if change.full)
                changes = changes[first_full:]
            edited = _Edited(document.text, document.anchor, document.bare_cr, self.encoding)
            _apply_all(edited, changes)
        except InvalidChange as refusal:
            self.refuse(uri, version, str(refusal))
            return False
        self._documents[uri] = SyncedText(
            version, edited.text, anchor=edited.anchor, bare_cr=edited.bare_cr
        )
        return True

    def refuse(self, uri: str, version: object, reason: str) -> None:
        """A change notification that cannot be applied: keep the text, mark it stale."""
        document = self._documents.get(uri)
        if document is None:
            logger.warning("ignored a change to %s, which is not open", uri)
            return
        document.in_sync = False
        logger.warning(
            "refused a change to %s (version %s), keeping version %s until the full text "
            "arrives: %s",
            uri,
            version,
            document.version,
            reason,
        )
