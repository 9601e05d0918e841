"""`line_starts`: where each line starts, only LF ending a line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from octoscript_lsp.syntax.diagnostics import LineIndex, line_starts


def _after_each_line_feed(text: str) -> list[int]:
    return [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]


def test_lines_start_after_each_lf_only():
    assert line_starts("") == [0]
    assert line_starts("\n") == [0, 1]
    assert line_starts("ab\r\ncd\re\n\nf") == [0, 4, 9, 10]
    assert line_starts("é😀\nx") == [0, 3]  # code points, not UTF-16 units


@given(st.text(alphabet="ab \t\n\r\u00e9\U0001f600", max_size=80))
def test_line_starts_are_the_offsets_after_each_line_feed(text: str):
    assert line_starts(text) == _after_each_line_feed(text)
    assert len(LineIndex(text).line_starts) == text.count("\n") + 1
