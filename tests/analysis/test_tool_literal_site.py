"""The tool-name literal site `recv.m("|` reads the call through
`syntax/member_calls` over tokens, exactly as the text reading it replaced."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.sites import ToolLiteralSite, tool_literal_site
from octoscript_lsp.analysis.surfaces import tool_method
from octoscript_lsp.syntax.codes import SyntaxCode
from octoscript_lsp.syntax.text import (
    identifier_start_before,
    is_canonical_identifier,
    skip_space_backward,
)


def _text_reading(analysis: DocumentAnalysis, offset: int) -> ToolLiteralSite | None:
    """The earlier reading, backwards over the text from the string: the oracle."""
    source = analysis.source
    region = analysis.regions.string_at(offset)
    if region is None:
        return None
    open_paren_end = skip_space_backward(source, region.content_start - 1)
    if open_paren_end == 0 or source[open_paren_end - 1] != "(":
        return None
    method_end = skip_space_backward(source, open_paren_end - 1)
    method_start = identifier_start_before(source, method_end)
    if method_start == method_end or method_start == 0 or source[method_start - 1] != ".":
        return None
    method = source[method_start:method_end]
    if tool_method(method) is None:
        return None
    receiver_end = method_start - 1
    receiver_start = identifier_start_before(source, receiver_end)
    if receiver_start > 0 and source[receiver_start - 1] == ".":
        return None
    if not is_canonical_identifier(source[receiver_start:receiver_end]):
        return None
    return ToolLiteralSite(
        method, (receiver_start, receiver_end), region.content_start, region.content_end
    )


def site(text: str, offset: int) -> ToolLiteralSite | None:
    analysis = DocumentAnalysis(text, 1)
    return tool_literal_site(analysis.source, analysis.regions, analysis.syntax.tokens, offset)


def test_the_first_argument_of_a_tool_method_call():
    text = 'use mod.tool\ntool.call_json("we'
    found = site(text, len(text))
    assert found == ToolLiteralSite("call_json", (13, 17), 29, len(text))
    text = 'tool.start_json(\n   "x")'
    assert site(text, text.index("x")) == ToolLiteralSite("start_json", (0, 4), 21, 22)


def test_what_the_site_refuses():
    for text in (
        'tool . call_json("',  # space around the dot
        'tool./**/call_json("',  # a comment between the parts
        'tool.call_json(/**/"',  # a comment before the string
        'a.tool.call_json("',  # the receiver is itself a member
        '1tool.call_json("',  # not one whole identifier
        'let.call_json("',  # reserved
        'tool.call_jsonx("',  # not a tool method
        'tool.call_json(1, "',  # not the first argument
        '"tool.call_json(\n"',  # the call is text of an unterminated string
    ):
        assert site(text, len(text)) is None, text


_PIECES = st.sampled_from(
    [
        "tool",
        "t1",
        "1",
        "_",
        "let",
        ".",
        "call_json",
        "start_json",
        "tool.call_json(",
        '.start_json( "',
        "(",
        ")",
        '"',
        "a",
        " ",
        "\n",
        "\r\n",
        "\v",
        "/*c*/",
        "/*\n*/",
        "//",
        "+",
        ",",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=14))
def test_equals_the_text_reading(pieces):
    analysis = DocumentAnalysis("".join(pieces), 1)
    tokens = analysis.syntax.tokens
    open_strings = [
        diagnostic.offset
        for diagnostic in analysis.syntax.diagnostics
        if diagnostic.code is SyntaxCode.UNTERMINATED_STRING
    ]
    for offset in range(len(analysis.source) + 1):
        found = tool_literal_site(analysis.source, analysis.regions, tokens, offset)
        expected = _text_reading(analysis, offset)
        if expected is not None and any(start < expected.receiver[1] for start in open_strings):
            # The text reading read back into an unterminated string's text
            # (`"tool.call_json(` then a line break); the lexer's tokens do not.
            continue
        assert found == expected, (analysis.source, offset)
