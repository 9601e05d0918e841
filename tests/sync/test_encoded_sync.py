"""Ranged changes in each position encoding against a model of the editor's buffer.

The editor applies an LSP range by encoding each line in the negotiated
encoding and slicing whole units (`differential.spec_apply`); the server's
text store must hold the same text after every notification, for text with
astral, combining and CJK characters, CRLF and lone CR.
"""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from octoscript_lsp.features.positions import ENCODINGS as SERVER_ENCODINGS
from octoscript_lsp.text_sync import TextChange, TextStore
from tests.conftest import quick_and_full
from tests.sync.differential import (
    ENCODINGS,
    as_json_decodes,
    line_lengths,
    spec_apply,
    spec_column,
    spec_offset,
)

URI = "file:///encoded.octoscript"
PIECES = ["a", "let ", "x", " ", "\n", "\r\n", "\r", "😀", "e\u0301", "é", "中", "—", '"', "{"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
INSERTED = st.lists(st.sampled_from(PIECES), max_size=4).map("".join)


@st.composite
def notification(draw, text: str, encoding: str) -> list[tuple[tuple[int, int], tuple, str]]:
    """One to three ranged changes, each placed in the text the one before leaves
    (past a line's end, past the last line and inside code points now and then)."""
    changes = []
    for _ in range(draw(st.integers(1, 3))):
        lengths = line_lengths(text, encoding)
        first = _position(draw, lengths)
        second = _position(draw, lengths) if draw(st.booleans()) else first
        start, end = min(first, second), max(first, second)
        inserted = draw(INSERTED)
        changes.append((start, end, inserted))
        text = spec_apply(text, start, end, inserted, encoding)
    return changes


def _position(draw, lengths: list[int]) -> tuple[int, int]:
    line = draw(st.integers(0, len(lengths)))
    length = lengths[line] if line < len(lengths) else 0
    return line, draw(st.integers(0, length + 2))


@pytest.mark.parametrize("encoding", ENCODINGS)
def _the_server_holds_the_editors_text_after_ranged_changes(encoding: str, base: str, data):
    store = TextStore(SERVER_ENCODINGS[encoding])
    store.open(URI, 1, base)
    expected = base
    for version in range(2, data.draw(st.integers(2, 8))):
        changes = data.draw(notification(expected, encoding))
        sent = [TextChange(inserted, start, end) for start, end, inserted in changes]
        assert store.change(URI, version, sent)
        for start, end, inserted in changes:
            expected = spec_apply(expected, start, end, inserted, encoding)
        assert store.text(URI) == expected


(
    test_the_server_holds_the_editors_text_after_ranged_changes,
    test_the_server_holds_the_editors_text_after_ranged_changes_full_count,
) = quick_and_full(
    _the_server_holds_the_editors_text_after_ranged_changes,
    base=TEXT,
    data=st.data(),
    quick=40,
    full=200,
    deadline=None,
)


LONG_LINE = st.sampled_from(["let a = 1", "", "  x\r", "é😀 中", "e\u0301—y", "}"])
LONG_TEXT = st.lists(LONG_LINE, min_size=300, max_size=600).map("\n".join)


@pytest.mark.parametrize("encoding", ENCODINGS)
def _far_and_near_changes_in_long_texts(encoding: str, base: str, data):
    """The store finds a line from the last change's (or by splitting, far away)."""
    store = TextStore(SERVER_ENCODINGS[encoding])
    store.open(URI, 1, base)
    expected = base
    for version in range(2, 8):
        lengths = line_lengths(expected, encoding)
        line = data.draw(st.integers(0, len(lengths) - 1))
        start = (line, data.draw(st.integers(0, lengths[line] + 1)))
        end = (line + data.draw(st.integers(0, 2)), data.draw(st.integers(0, 9)))
        end = max(start, end)
        inserted = data.draw(INSERTED)
        assert store.change(URI, version, [TextChange(inserted, start, end)])
        expected = spec_apply(expected, start, end, inserted, encoding)
        assert store.text(URI) == expected


test_far_and_near_changes_in_long_texts, test_far_and_near_changes_in_long_texts_full_count = (
    quick_and_full(
        _far_and_near_changes_in_long_texts,
        base=LONG_TEXT,
        data=st.data(),
        quick=8,
        full=40,
        deadline=None,
    )
)


# Lone surrogates, which only JSON can send: each half of a pair alone, and
# both halves in separate changes (which side by side make one character).
LONE = ["\ud83d", "\ude00", "\udbff", "\udc00"]
LONE_TEXT = st.lists(st.sampled_from(PIECES + LONE), max_size=30).map("".join)
LONE_INSERTED = st.lists(st.sampled_from(PIECES[:4] + LONE), max_size=3).map("".join)


@pytest.mark.parametrize("encoding", ENCODINGS)
def _lone_surrogates_in_the_text_and_in_changes(encoding: str, base: str, data):
    base = as_json_decodes(base)
    store = TextStore(SERVER_ENCODINGS[encoding])
    store.open(URI, 1, base)
    expected = base
    for version in range(2, data.draw(st.integers(2, 8))):
        lengths = line_lengths(expected, encoding)
        first = _position(data.draw, lengths)
        second = _position(data.draw, lengths) if data.draw(st.booleans()) else first
        start, end = min(first, second), max(first, second)
        inserted = as_json_decodes(data.draw(LONE_INSERTED))
        assert store.change(URI, version, [TextChange(inserted, start, end)])
        low, high = spec_offset(expected, *start, encoding), spec_offset(expected, *end, encoding)
        expected = as_json_decodes(expected[:low] + inserted + expected[high:])
        assert store.text(URI) == expected


(
    test_lone_surrogates_in_the_text_and_in_changes,
    test_lone_surrogates_in_the_text_and_in_changes_full_count,
) = quick_and_full(
    _lone_surrogates_in_the_text_and_in_changes,
    base=LONE_TEXT,
    data=st.data(),
    quick=40,
    full=200,
    deadline=None,
)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_halves_of_a_pair_sent_apart_are_one_character(encoding: str):
    store = TextStore(SERVER_ENCODINGS[encoding])
    store.open(URI, 1, 'let s = ""\n')
    assert store.change(URI, 2, [TextChange("\ud83d", (0, 9), (0, 9))])
    after_high = spec_column("\ud83d", 1, encoding) + 9
    assert store.change(URI, 3, [TextChange("\ude00", (0, after_high), (0, after_high))])
    assert store.text(URI) == 'let s = "😀"\n'
    # Low half first, then the high one before it; then a deletion between.
    store.open(URI, 4, "ab")
    assert store.change(URI, 5, [TextChange("\ude00x", (0, 1), (0, 1))])
    assert store.change(URI, 6, [TextChange("\ud83d", (0, 1), (0, 1))])
    assert store.text(URI) == "a😀xb"
    store.open(URI, 7, "\ud83dx\ude00")
    width = spec_column("\ud83d", 1, encoding)
    assert store.change(URI, 8, [TextChange("", (0, width), (0, width + 1))])
    assert store.text(URI) == "😀"
