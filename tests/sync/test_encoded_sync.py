"""Ranged changes in each position encoding against a model of the editor's buffer.

The editor applies an LSP range by encoding each line in the negotiated
encoding and slicing whole units (`differential.spec_apply`); the server's
text store must hold the same text after every notification, for text with
astral, combining and CJK characters, CRLF and lone CR.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.features.positions import ENCODINGS as SERVER_ENCODINGS
from octoscript_lsp.text_sync import TextChange, TextStore
from tests.sync.differential import ENCODINGS, line_lengths, spec_apply

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
@settings(max_examples=200, deadline=None)
@given(base=TEXT, data=st.data())
def test_the_server_holds_the_editors_text_after_ranged_changes(encoding: str, base: str, data):
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


LONG_LINE = st.sampled_from(["let a = 1", "", "  x\r", "é😀 中", "e\u0301—y", "}"])
LONG_TEXT = st.lists(LONG_LINE, min_size=300, max_size=600).map("\n".join)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=40, deadline=None)
@given(base=LONG_TEXT, data=st.data())
def test_far_and_near_changes_in_long_texts(encoding: str, base: str, data):
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
