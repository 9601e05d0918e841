"""textDocument/semanticTokens/full/delta: the last answer's numbers edited.

The server keeps, per open document (`documents.OpenDocument`), the numbers
of the last full or delta answer (as the comma-separated JSON text
`semantic_tokens` makes them) and the answer's `resultId`. A delta request
naming that id gets the edit that turns those numbers into this version's:
everything between the longest common run of leading numbers and the
longest common run of trailing ones.
A request naming any other id gets a full answer.

The numbers are compared as text (C-speed slice comparisons, not a loop
over Python integers). The two texts are canonical (no spaces, no leading
zeros), so equal runs of numbers are equal runs of text between commas;
each text gets a trailing comma so that every number ends with one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax.lexer import common_prefix, common_suffix
from .wire import WireText


@dataclass(frozen=True, slots=True)
class LastTokens:
    """A document's last semantic-tokens answer: its id and its numbers."""

    result_id: str
    items: str  # comma-separated numbers, "" for none

    def following(self, items: str) -> LastTokens:
        """The next answer's record (ids count up per document)."""
        return LastTokens(str(int(self.result_id) + 1), items)


FIRST = LastTokens("0", "")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace `delete_count` numbers from `start` with the numbers `data`."""

    start: int
    delete_count: int
    data: str  # comma-separated numbers, "" for none


def full(previous: LastTokens | None, items: str) -> tuple[LastTokens, WireText]:
    """A full answer of `items` and the record to keep for the next delta."""
    last = (previous or FIRST).following(items)
    return last, full_answer(last)


def delta(
    previous: LastTokens | None, previous_result_id: str, items: str
) -> tuple[LastTokens, WireText]:
    """The edit from the answer named `previous_result_id` to `items` (a full
    answer when that is not the last one kept), and the record to keep."""
    last = (previous or FIRST).following(items)
    if previous is None or previous.result_id != previous_result_id:
        return last, full_answer(last)
    return last, delta_answer(last, edit_between(previous.items, items))


def full_answer(last: LastTokens) -> WireText:
    return WireText(f'{{"resultId":"{last.result_id}","data":[{last.items}]}}')


def delta_answer(last: LastTokens, edit: Edit | None) -> WireText:
    """A delta answer: one edit, or none when the numbers are unchanged."""
    if edit is None:
        return WireText(f'{{"resultId":"{last.result_id}","edits":[]}}')
    return WireText(
        f'{{"resultId":"{last.result_id}","edits":[{{"start":{edit.start},'
        f'"deleteCount":{edit.delete_count},"data":[{edit.data}]}}]}}'
    )


def edit_between(previous: str, current: str) -> Edit | None:
    """The one edit turning `previous`'s numbers into `current`'s (None: equal)."""
    if previous == current:
        return None
    old = previous + "," if previous else ""
    new = current + "," if current else ""
    # Whole numbers both texts start with: each ends with a comma inside the common prefix.
    common = common_prefix(old, new)
    kept_before = old.count(",", 0, common)
    start = old.rfind(",", 0, common) + 1  # where the first differing number starts
    # Whole numbers both end with, after `start` in both.
    tail = common_suffix(old, new, min(len(old), len(new)) - start)
    old_from, new_from = len(old) - tail, len(new) - tail
    kept_after = old.count(",", old_from, len(old) - 1)
    if _starts_number(old, old_from, start) and _starts_number(new, new_from, start):
        kept_after += 1
        tail_text = tail
    elif kept_after:
        tail_text = len(old) - old.index(",", old_from) - 1
    else:
        tail_text = 0
    inserted = new[start : len(new) - tail_text]
    return Edit(kept_before, old.count(",") - kept_before - kept_after, inserted[:-1])


def _starts_number(text: str, offset: int, low: int) -> bool:
    """Whether a number starts at `offset` (never before `low`, where one does)."""
    return offset < len(text) and (offset == low or text[offset - 1] == ",")
