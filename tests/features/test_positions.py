"""`PositionMap.span_lines_and_columns` answers what two `line_and_column` calls do."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from octoscript_lsp.features.positions import PositionMap

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
