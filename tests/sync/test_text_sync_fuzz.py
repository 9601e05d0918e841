"""Random multi-change notifications, valid or not, against the protocol's wording."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_POSITION_VALUE
from octoscript_lsp.text_sync import TextChange, TextStore
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
