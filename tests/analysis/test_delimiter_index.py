"""The checkpointed delimiter scan answers exactly like a scan from the top."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.sites import DelimiterIndex, open_delimiters_before

FRAGMENTS = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    '"',
    "\\",
    "\n",
    "/",
    "*",
    "//",
    "/*",
    "*/",
    "a",
    " ",
    "f(",
    "\r",
    "x, y",
    '"s"',
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join))
def test_index_matches_full_scan_at_every_offset(text: str):
    index = DelimiterIndex(text)
    for offset in range(len(text) + 1):
        assert open_delimiters_before(text, offset, index) == open_delimiters_before(text, offset)


def test_open_call_after_many_lines():
    text = "".join(f"let v{n} = f({n}, [1, 2])\n" for n in range(500)) + "g(1, 2, "
    index = DelimiterIndex(text)
    found = open_delimiters_before(text, len(text), index)
    assert found is not None and [(d.kind, d.commas) for d in found] == [("(", 2)]


def test_a_stray_closer_refuses_every_later_cursor():
    text = "let a = 1)\n" + "f(\n" * 3
    index = DelimiterIndex(text)
    assert open_delimiters_before(text, len(text), index) is None
    assert open_delimiters_before(text, 9, index) == []
