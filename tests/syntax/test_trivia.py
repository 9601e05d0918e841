"""The trivia reader ends comments and strings where the lexer does."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.sites import TextRegions
from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.tokens import OPERATOR_CHARS, Kind
from octoscript_lsp.syntax.trivia import (
    block_comment_end,
    comment_end,
    decode_string_literal,
    line_comment_end,
    opens_comment,
    skip_trivia,
    string_end,
)

# Pieces that stress the endings: stars before slashes, escapes (braced and
# malformed ones), quotes, both line breaks, comment openers.
PIECES = st.sampled_from(
    [
        "a",
        " ",
        "\n",
        "\r\n",
        "\r",
        "/",
        "*",
        "**/",
        "*/",
        "/*",
        "//",
        '"',
        "\\",
        '\\"',
        "\\u",
        "\\u{",
        "\\u{1F600}",
        "\\u{zz",
        "}",
        "12",
        "{",
        "x = ",
    ]
)
TEXTS = st.lists(PIECES, max_size=24).map("".join)


def test_trivia_and_space():
    source = "a  // note\n /* block */\tb"
    assert skip_trivia(source, 1) == len(source) - 1
    assert skip_trivia("x /* open", 1) is None
    # The limit ends a comment scan as it ends the text.
    assert skip_trivia(source, 1, limit=source.index("/*") + 3) is None
    assert skip_trivia("a / b", 1) == 2  # a slash that opens no comment


def test_a_star_before_the_slash_does_not_close_a_block_comment():
    assert block_comment_end("/* a **/ b */ c", 0) == len("/* a **/ b */")
    assert block_comment_end("/***/", 0) is None
    assert block_comment_end("/****/", 0) == 6
    assert block_comment_end("/* a */", 0, limit=6) is None
    assert skip_trivia("/* a **/ b", 0) is None
    lexed = tokenize("/* a **/ b */ c")
    assert lexed.comments == [(0, len("/* a **/ b */"))]


def test_line_comments_end_at_either_line_break():
    assert line_comment_end("// a\rb", 0) == 4
    assert line_comment_end("// a\nb", 0) == 4
    assert line_comment_end("// a", 0) == 4
    # A limit inside the `//` itself: the comment is not read (the cursor is in it).
    assert line_comment_end("//", 0, limit=1) == 2
    assert opens_comment("//", 0) and opens_comment("/*", 0)
    assert not opens_comment("/ *", 0) and not opens_comment("/", 0)
    assert not opens_comment("//", 0, limit=1)


def test_strings():
    source = 'say("a \\" b", "c")'
    body = source.index('"') + 1
    assert string_end(source, body, len(source)) == (source.index(","), True, False)
    assert string_end('"open\nnext"', 1, 11) == (5, False, True)
    assert string_end('"abc"', 1, 3) == (3, False, False)
    # A malformed braced escape runs to its `}`, past a quote.
    assert string_end('"\\u{zz" }"', 1) == (len('"\\u{zz" }"'), True, False)
    assert string_end('"\\u{1F600}"', 1).end == len('"\\u{1F600}"')
    assert string_end('"ab\r\n"', 1) == (3, False, True)


def _lexer_strings(source: str) -> list[tuple[int, int]]:
    return [
        (token.start, token.end) for token in tokenize(source).tokens if token.kind is Kind.STRING
    ]


@settings(max_examples=400)
@given(TEXTS)
def test_comment_and_string_ends_match_the_lexer(source: str):
    """Wherever the lexer starts a comment or a string, the reader ends it
    where the lexer did."""
    lexed = tokenize(source)
    for start, end in lexed.comments:
        found = comment_end(source, start)
        assert (len(source) if found is None else found) == end
    for start, end in _lexer_strings(source):
        found = string_end(source, start + 1)
        assert (found.end if found.closed else min(found.end, len(source))) == end


def _comment_opener_after_operator(source: str) -> bool:
    """A `//` or `/*` right after an operator character: the lexer's operator
    run takes the slash (`=//` is one invalid operator), which a reader of
    half-typed text does not model."""
    return any(
        source.startswith(("//", "/*"), index) and source[index - 1] in OPERATOR_CHARS
        for index in range(1, len(source))
    )


@settings(max_examples=400)
@given(TEXTS)
def test_text_regions_are_the_lexer_comments_and_strings(source: str):
    """The whole-text scan the cursor sites use finds the lexer's comments and strings."""
    assume(not _comment_opener_after_operator(source))
    regions = TextRegions(source)
    assert regions.comments == tokenize(source).comments
    found = [
        (region.content_start - 1, region.content_end + (1 if region.terminated else 0))
        for region in regions.strings
    ]
    assert found == _lexer_strings(source)


@given(st.text(alphabet='ab_1 \t\n/*"\\x', max_size=30))
def test_skip_trivia_lands_on_the_lexer_next_token(source: str):
    """From the start of the text, skipping trivia reaches the first token the
    lexer makes (or the end), unless a block comment never closes."""
    lexed = tokenize(source)
    found = skip_trivia(source, 0)
    if found is None:
        assert "/*" in source
        return
    first = next((t for t in lexed.tokens if t.kind is not Kind.NEWLINE), None)
    newline_first = lexed.tokens[0].kind is Kind.NEWLINE
    if first is not None and not newline_first and not lexed.diagnostics:
        assert found == first.start


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ('""', ""),
        ('"plain"', "plain"),
        ('"\\n\\r\\t\\\\\\""', '\n\r\t\\"'),
        ('"\\u0041\\u{42}\\u{10FFFF}"', "AB\U0010ffff"),
        ('"é😀"', "é😀"),
        ('"\\q"', None),
        ('"\\u{}"', None),
        ('"\\u{1234567}"', None),
        ('"\\u{110000}"', None),
        ('"\\uD800"', None),
        ('"\\u12"', None),
        ('"\\u{12"', None),
        ('"\\"', None),
        ("x", None),
    ],
)
def test_decode_string_literal(literal, value):
    assert decode_string_literal(literal) == value
