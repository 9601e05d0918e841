"""Random multi-change notifications, valid or not, against the protocol's wording."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_POSITION_VALUE
from octoscript_lsp.text_sync import TextChange, TextStore
from tests.conftest import quick_and_full
from tests.sync.differential import BASES, FRAGMENTS, spec_apply

URI = "file:///sync.octoscript"
COORDINATE = st.integers(0, 6) | st.sampled_from([-1, MAX_POSITION_VALUE, MAX_POSITION_VALUE + 1])
POSITION = st.tuples(COORDINATE, COORDINATE)
TEXT = st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join)
CHANGE = st.one_of(
    st.tuples(POSITION, POSITION, TEXT).map(lambda item: TextChange(item[2], item[0], item[1])),
    TEXT.map(TextChange),
)


def _valid(change: TextChange) -> bool:
    if change.full:
        return True
    values = (*change.start, *change.end)
    return all(0 <= value <= MAX_POSITION_VALUE for value in values) and change.start <= change.end


def _spec(text: str, changes: list[TextChange]) -> str:
    for change in changes:
        text = (
            change.text if change.full else spec_apply(text, change.start, change.end, change.text)
        )
    return text


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(BASES), st.lists(st.lists(CHANGE, min_size=1, max_size=4), max_size=6))
def test_notifications_apply_in_order_or_are_refused_whole(base, notifications):
    store, expected, in_sync = TextStore(), base, True
    store.open(URI, 1, base)
    for version, changes in enumerate(notifications, start=2):
        if not in_sync:
            fulls = [index for index, change in enumerate(changes) if change.full]
            applicable = changes[fulls[-1] :] if fulls else None
        else:
            applicable = changes
        accepted = applicable is not None and all(_valid(change) for change in applicable)
        assert store.change(URI, version, changes) is accepted
        if accepted:
            expected, in_sync = _spec(expected, applicable), True
        else:
            in_sync = False
        assert store.text(URI) == expected


# Long texts, changes far apart and close together.
LONG_LINE = st.sampled_from(["let a = 1", "", "  x\r", "fn f() {", "\u00e9\U0001f600 y", "}"])
LONG_TEXT = st.lists(LONG_LINE, min_size=300, max_size=700).map("\n".join)
LINE = st.integers(0, 720)
NEAR = st.integers(-3, 3)
LONG_CHANGE = st.tuples(LINE, st.integers(0, 8), NEAR, st.integers(0, 8), TEXT)


def _changes_far_and_near_in_long_texts_match_the_protocol(base, notifications):
    store, expected = TextStore(), base
    store.open(URI, 1, base)
    for version, steps in enumerate(notifications, start=2):
        changes = []
        for line, character, lines_on, end_character, text in steps:
            end_line = max(line + lines_on, line)
            end = (end_line, end_character if end_line > line else max(end_character, character))
            changes.append(TextChange(text, (line, character), end))
        assert store.change(URI, version, changes)
        expected = _spec(expected, changes)
        assert store.text(URI) == expected


(
    test_changes_far_and_near_in_long_texts_match_the_protocol,
    test_changes_far_and_near_in_long_texts_match_the_protocol_full_count,
) = quick_and_full(
    _changes_far_and_near_in_long_texts_match_the_protocol,
    LONG_TEXT,
    st.lists(st.lists(LONG_CHANGE, min_size=1, max_size=3), max_size=8),
    quick=30,
    full=150,
    deadline=None,
)
