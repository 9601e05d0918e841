"""The delimiter scan over the text's regions answers exactly like a
character-by-character scan from the top."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.sites import DelimiterIndex, OpenDelimiter, open_delimiters_before
from octoscript_lsp.limits import MAX_SIGNATURE_ARGUMENTS, MAX_SIGNATURE_DELIMITER_DEPTH
from octoscript_lsp.syntax.trivia import block_comment_end, line_comment_end, string_end

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


def _scan_by_characters(text: str, offset: int) -> list[OpenDelimiter] | None:
    """The model: every character up to the cursor in turn, strings and
    comments skipped where the trivia reader ends them."""
    stack: list[list] = []
    index = 0
    while index < offset:
        char = text[index]
        following = text[index + 1 : index + 2]
        if char == '"':
            found = string_end(text, index + 1, offset)
            if found.at_line_break:
                return None
            index = found.end
            if not found.closed:
                break
            continue
        if char == "/" and following == "/":
            index = line_comment_end(text, index, offset)
            if index == offset:
                return None
            continue
        if char == "/" and following == "*":
            index = block_comment_end(text, index, offset)
            if index is None:
                return None
            continue
        if char in "([{":
            if len(stack) == MAX_SIGNATURE_DELIMITER_DEPTH:
                return None
            stack.append([char, index, 0])
        elif char in ")]}":
            if not stack or stack.pop()[0] + char not in ("()", "[]", "{}"):
                return None
        elif char == ",":
            if not stack:
                return None
            if stack[-1][0] == "(":
                stack[-1][2] += 1
                if stack[-1][2] >= MAX_SIGNATURE_ARGUMENTS:
                    return None
        index += 1
    return [OpenDelimiter(kind, at, commas) for kind, at, commas in stack]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join))
def test_index_matches_full_scan_at_every_offset(text: str):
    index = DelimiterIndex(text)
    for offset in range(len(text) + 1):
        expected = _scan_by_characters(text, offset)
        assert open_delimiters_before(text, offset, index) == expected
        assert open_delimiters_before(text, offset) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["(", "[", "{", ")", ",", ",", '"a"', "\n"]), max_size=300))
def test_the_depth_and_argument_bounds_refuse_as_the_model_does(pieces: list[str]):
    text = "".join(pieces)
    for offset in range(0, len(text) + 1, 5):
        assert open_delimiters_before(text, offset) == _scan_by_characters(text, offset)


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


def test_the_bounds_refuse_at_the_limits():
    for depth in (MAX_SIGNATURE_DELIMITER_DEPTH, MAX_SIGNATURE_DELIMITER_DEPTH + 1):
        text = "(" * depth
        assert open_delimiters_before(text, len(text)) == _scan_by_characters(text, len(text))
    assert len(open_delimiters_before("(" * MAX_SIGNATURE_DELIMITER_DEPTH, 128)) == 128
    assert open_delimiters_before("(" * (MAX_SIGNATURE_DELIMITER_DEPTH + 1), 129) is None
    below = "f(" + "1, " * (MAX_SIGNATURE_ARGUMENTS - 1)
    assert open_delimiters_before(below, len(below))[0].commas == MAX_SIGNATURE_ARGUMENTS - 1
    closed = "f(" + "1, " * MAX_SIGNATURE_ARGUMENTS + ")\ng("
    assert open_delimiters_before(closed, len(closed)) is None
