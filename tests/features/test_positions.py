"""The line and column model: spans, the position encodings and their negotiation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types

from octoscript_lsp.features.positions import (
    UTF8,
    UTF16,
    UTF32,
    PositionMap,
    client_encoding,
    negotiate,
)
from tests.sync.differential import ENCODINGS, spec_column, spec_offset, spec_position

TEXTS = st.lists(st.sampled_from(["a", "bc", " ", "\n", "\r\n", "\r", "é", "😀"]), max_size=30).map(
    "".join
)


@given(TEXTS, st.data())
def test_a_span_is_placed_as_its_two_ends_are(text: str, data):
    start = data.draw(st.integers(-2, len(text) + 2))
    end = data.draw(st.integers(max(start, 0), len(text) + 3))
    positions = PositionMap(text)
    assert positions.span_lines_and_columns(start, end) == (
        *positions.line_and_column(start),
        *positions.line_and_column(end),
    )


def test_ends_on_the_same_line_and_on_later_lines():
    text = "let a = 1\nfn f() {\r\n    😀\r}\n"
    positions = PositionMap(text)
    assert positions.span_lines_and_columns(4, 5) == (0, 4, 0, 5)
    assert positions.span_lines_and_columns(10, len(text) - 1) == (1, 0, 3, 1)
    assert positions.span_lines_and_columns(24, 25) == (2, 4, 2, 6)  # a surrogate pair


# ----------------------------------------------------------- position encodings

LINE = 'let s = "é😀—中"; let x = 1'
ENCODED_TEXTS = st.lists(
    st.sampled_from(["a", "bc", " ", "\n", "\r\n", "\r", "é", "e\u0301", "😀", "中", "—"]),
    max_size=30,
).map("".join)
BY_NAME = {"utf-8": UTF8, "utf-16": UTF16, "utf-32": UTF32}


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [
        (["utf-8", "utf-16"], UTF8),
        (["utf-32", "utf-16"], UTF32),
        (["utf-16", "utf-8"], UTF16),
        (["utf-8"], UTF8),
        (["latin-1", "utf-32"], UTF32),  # the first one the server knows
        (["latin-1"], UTF16),
        ([], UTF16),
        (None, UTF16),
    ],
)
def test_the_first_supported_encoding_the_client_offers_wins(offered, chosen):
    assert negotiate(offered) is chosen


def test_the_encoding_comes_from_the_general_capabilities():
    assert client_encoding(None) is UTF16
    assert client_encoding(types.ClientCapabilities()) is UTF16
    general = types.GeneralClientCapabilities(position_encodings=["utf-32"])
    assert client_encoding(types.ClientCapabilities(general=general)) is UTF32


def test_each_width_counts_its_own_unit():
    assert [encoding.width("é😀—中") for encoding in (UTF8, UTF16, UTF32)] == [12, 5, 4]
    assert [encoding.width("e\u0301") for encoding in (UTF8, UTF16, UTF32)] == [3, 2, 2]
    assert [encoding.width("plain") for encoding in (UTF8, UTF16, UTF32)] == [5, 5, 5]


@pytest.mark.parametrize(("encoding", "column"), [(UTF16, 21), (UTF8, 28), (UTF32, 20)])
def test_a_name_after_wide_characters_in_each_encoding(encoding, column):
    positions = PositionMap(LINE, None, encoding)
    x = LINE.index("x =")
    assert positions.position(x) == types.Position(line=0, character=column)
    assert positions.strict_offset(types.Position(line=0, character=column)) == x
    assert positions.wire_range(x, x + 1) == {
        "start": {"line": 0, "character": column},
        "end": {"line": 0, "character": column + 1},
    }


@pytest.mark.parametrize(
    ("encoding", "inside"),
    [
        (UTF8, [10, 12, 13, 14, 16, 17, 19, 20]),  # é's second byte, 😀's three, — and 中's two
        (UTF16, [11]),  # between 😀's surrogates
        (UTF32, []),
    ],
)
def test_a_column_inside_a_code_point_rounds_down_or_answers_nothing(encoding, inside):
    positions = PositionMap(LINE, None, encoding)
    start = LINE.index('"') + 1  # é
    boundaries = {
        spec_column(LINE, offset, encoding.name): offset for offset in range(len(LINE) + 1)
    }
    for character in range(spec_column(LINE, len(LINE), encoding.name) + 2):
        position = types.Position(line=0, character=character)
        if character in boundaries:
            assert positions.strict_offset(position) == boundaries[character]
            assert positions.offset(position) == boundaries[character]
            continue
        assert positions.strict_offset(position) is None
        expected = max(offset for column, offset in boundaries.items() if column < character)
        assert positions.offset(position) == expected
        if character in inside:
            assert start <= expected < start + 4
    missing = sorted(
        character
        for character in range(spec_column(LINE, len(LINE), encoding.name))
        if character not in boundaries
    )
    assert missing == inside


@pytest.mark.parametrize("name", ENCODINGS)
@given(text=ENCODED_TEXTS, data=st.data())
def test_positions_agree_with_the_editors_model(name: str, text: str, data):
    encoding = BY_NAME[name]
    positions = PositionMap(text, None, encoding)
    line = data.draw(st.integers(0, text.count("\n") + text.count("\r") + 1))
    character = data.draw(st.integers(0, 12))
    position = types.Position(line=line, character=character)
    offset = positions.offset(position)
    assert offset == spec_offset(text, line, character, name)
    if not text[offset - 1 : offset + 1] == "\r\n":  # not between a CR and its LF
        answered = positions.position(offset)
        assert (answered.line, answered.character) == spec_position(text, offset, name)
        assert positions.strict_offset(answered) == offset


@given(ENCODED_TEXTS, st.data())
def test_ascii_and_utf32_columns_are_offsets(text: str, data):
    offset = data.draw(st.integers(0, len(text)))
    utf32 = PositionMap(text, None, UTF32).position(offset)
    ascii_text = "".join("x" if ord(char) > 0x7F else char for char in text)
    for encoding in (UTF8, UTF16, UTF32):
        assert PositionMap(ascii_text, None, encoding).position(offset) == utf32


@pytest.mark.parametrize(("encoding", "width"), [(UTF8, 5), (UTF16, 3), (UTF32, 3)])
def test_a_lone_surrogate_from_json_is_measured_not_refused(encoding, width):
    text = "a\ud800b"
    positions = PositionMap(text, None, encoding)
    assert encoding.width(text) == width
    assert positions.position(3) == types.Position(line=0, character=width)
    assert positions.strict_offset(types.Position(line=0, character=width)) == 3
