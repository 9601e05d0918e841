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
from .limits import MAX_POSITION_VALUE, MAX_SYNCED_TEXT_CHARS

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


def _is_high_surrogate(text: str, index: int) -> bool:
    return 0 <= index < len(text) and "\ud800" <= text[index] <= "\udbff"


def _is_low_surrogate(text: str, index: int) -> bool:
    return 0 <= index < len(text) and "\udc00" <= text[index] <= "\udfff"


def _pair(high: str, low: str) -> str:
    # UTF-16's own codec joins the halves (no surrogate arithmetic here).
    return (high + low).encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def _joined(before: str, inserted: str, after: str) -> str:
    """`before + inserted + after`.

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
    return before + inserted + after


def apply_change(text: str, change: TextChange, encoding: PositionEncoding = UTF16) -> str:
    """The text after one change; raises InvalidChange."""
    if change.full:
        return change.text
    if change.end is None:
        raise InvalidChange("a ranged change without an end")
    start, end = _checked(change.start), _checked(change.end)
    if end < start:
        raise InvalidChange(f"range end {end} is before its start {start}")
    starts = lsp_line_starts(text)
    first = offset_of(text, starts, start, encoding)
    last = offset_of(text, starts, end, encoding)
    return _joined(text[:first], change.text, text[last:])


def apply_changes(text: str, changes: list[TextChange], encoding: PositionEncoding = UTF16) -> str:
    """The text after every change in order; raises InvalidChange for any bad one."""
    for change in changes:
        text = apply_change(text, change, encoding)
        if len(text) > MAX_SYNCED_TEXT_CHARS:
            raise InvalidChange(f"the text would exceed {MAX_SYNCED_TEXT_CHARS} characters")
    return text


@dataclass(slots=True)
class SyncedText:
    version: int | None
    text: str
    in_sync: bool = True


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
            text = apply_changes(document.text, changes, self.encoding)
        except InvalidChange as refusal:
            self.refuse(uri, version, str(refusal))
            return False
        self._documents[uri] = SyncedText(version, text)
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
