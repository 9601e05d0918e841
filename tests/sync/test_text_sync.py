"""Incremental text sync follows the protocol, not `str.splitlines` (issue 15)."""

from __future__ import annotations

import logging

import pytest
from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.limits import MAX_POSITION_VALUE
from octoscript_lsp.text_sync import InvalidChange, TextChange, TextStore, apply_changes


def edit(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    return apply_changes(text, [TextChange(new, start, end)])


# ------------------------------------------------- the examples of issue 15


def test_deleting_after_a_line_separator_does_not_grow_the_text():
    assert edit("\u2028t", (0, 1), (0, 2), "") == "\u2028"


def test_a_line_separator_in_a_string_is_no_line_break():
    text = 'let s = "a\u2028b"\nlet t = s\n'
    after = edit(text, (1, 8), (1, 9), "u")
    assert after == 'let s = "a\u2028b"\nlet t = u\n'
    analysis = DocumentAnalysis(after)
    assert analysis.valid  # no syntax errors on a valid program


def test_an_insert_past_the_line_end_lands_before_the_line_feed():
    assert edit("let a = 1\nlet b = 2\n", (0, 10), (0, 10), "2") == "let a = 12\nlet b = 2\n"


def test_an_insert_past_a_crlf_line_end_creates_no_bare_cr():
    after = edit("let a = 1\r\nlet b = 2\r\n", (0, 99), (0, 99), "2")
    assert after == "let a = 12\r\nlet b = 2\r\n"


def test_a_position_inside_a_surrogate_pair_rounds_down_for_edits_and_requests():
    text = "a\U0001f600b"
    # Column 2 is between the halves of U+1F600: both mean "before it".
    assert edit(text, (0, 2), (0, 2), "X") == "aX\U0001f600b"
    positions = PositionMap(text)
    assert positions.offset(_position(0, 2)) == 1
    assert positions.strict_offset(_position(0, 2)) is None  # no answer there
    assert positions.strict_offset(_position(0, 3)) == 2


# ------------------------------------------------- the line model


@pytest.mark.parametrize(
    "separator", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
def test_only_lf_crlf_and_cr_end_lines(separator: str):
    text = f"ab{separator}cd\nef"
    assert edit(text, (1, 0), (1, 1), "X") == f"ab{separator}cd\nXf"
    assert edit(text, (0, 4), (0, 5), "X") == f"ab{separator}cX\nef"


def test_a_bare_cr_ends_a_line():
    assert edit("ab\rcd\r\nef", (1, 1), (2, 1), "") == "ab\rcf"


def test_a_line_past_the_last_is_the_end_of_the_document():
    assert edit("ab\ncd", (7, 3), (9, 0), "!") == "ab\ncd!"
    assert edit("ab\ncd", (1, 1), (40, 0), "") == "ab\nc"


def test_a_range_ending_past_a_line_end_keeps_the_terminator():
    assert edit("abc\r\ndef", (0, 1), (0, 50), "") == "a\r\ndef"


def test_changes_of_one_notification_apply_in_order():
    changes = [
        TextChange("X", (0, 0), (0, 0)),
        TextChange("Y", (0, 1), (0, 1)),  # after the X just inserted
        TextChange("new\n"),
        TextChange("!", (1, 0), (1, 0)),
    ]
    assert apply_changes("abc", changes) == "new\n!"


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ((0, 2), (0, 1)),  # end before start
        ((1, 0), (0, 5)),
        ((-1, 0), (0, 0)),  # negative
        ((0, -3), (0, 0)),
        ((0, 0), (MAX_POSITION_VALUE + 1, 0)),  # absurd
    ],
)
def test_invalid_ranges_are_refused(start, end):
    with pytest.raises(InvalidChange):
        edit("abc\ndef", start, end, "x")


# ------------------------------------------------- the store


def test_a_refused_notification_keeps_the_text_and_waits_for_the_full_text(caplog):
    store = TextStore()
    store.open("u", 1, "abc")
    with caplog.at_level(logging.WARNING):
        valid, invalid = TextChange("X", (0, 0), (0, 0)), TextChange("Y", (0, 2), (0, 1))
        assert not store.change("u", 2, [valid, invalid])
    assert (store.text("u"), store.version("u")) == ("abc", 1)
    assert len(caplog.records) == 1  # one warning line, no traceback
    assert caplog.records[0].exc_info is None
    # Ranged edits made against the editor's text cannot apply to ours.
    assert not store.change("u", 3, [TextChange("Z", (0, 0), (0, 0))])
    assert store.text("u") == "abc"
    # A full-text change resynchronises; ranged changes after it apply.
    assert store.change("u", 4, [TextChange("Q", (0, 0), (0, 1)), TextChange("new"), valid])
    assert (store.text("u"), store.version("u")) == ("Xnew", 4)
    assert store.change("u", 5, [TextChange("!", (0, 4), (0, 4))])
    assert store.text("u") == "Xnew!"


def test_reopening_resynchronises():
    store = TextStore()
    store.open("u", 1, "abc")
    assert not store.change("u", 2, [TextChange("x", (0, -1), (0, 0))])
    store.open("u", 7, "fresh")
    assert store.change("u", 8, [TextChange("!", (0, 5), (0, 5))])
    assert store.text("u") == "fresh!"


def test_unknown_documents_have_no_text():
    store = TextStore()
    assert store.text("file:///etc/passwd") is None
    assert not store.change("file:///etc/passwd", 1, [TextChange("x")])
    assert store.text("file:///etc/passwd") is None


def _position(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("a\r\nbc\r\n\r\nd", [0, 3, 7, 9]),
        ("a\rb\r\nc\nd\r", [0, 2, 5, 7, 9]),
        ("a\nb", [0, 2]),
    ],
)
def test_protocol_line_starts_end_lines_at_lf_crlf_and_a_bare_cr(text: str, starts: list[int]):
    positions = PositionMap(text)
    assert positions.line_starts == starts
    assert [positions.line_of(start) for start in starts] == list(enumerate(starts))


def test_without_a_bare_cr_the_protocol_lines_are_the_syntax_lines():
    """CRLF lines start after their LF too: the syntax layer's line starts,
    kept across edits, serve the protocol without a second list."""
    text = "let a = 1\r\nlet b = 2\r\n"
    lf_starts = [0, 11, 22]
    assert PositionMap(text, lf_starts).line_starts is lf_starts
    assert PositionMap(text + "\r", lf_starts).line_starts == [0, 11, 22, 23]
