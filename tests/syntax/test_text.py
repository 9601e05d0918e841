"""The shared text toolkit reads identifiers, trivia and strings as the lexer does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.text import (
    has_bare_carriage_return,
    identifier_end,
    identifier_start_before,
    is_canonical_identifier,
    skip_space_backward,
    skip_space_forward,
    skip_string,
    skip_trivia,
)
from octoscript_lsp.syntax.tokens import Kind


def test_identifier_runs():
    source = "let total_2 = a1"
    assert identifier_end(source, 4) == 11
    assert identifier_end(source, 4, limit=8) == 8
    assert identifier_start_before(source, 11) == 4
    assert identifier_start_before(source, len(source)) == len(source) - 2
    assert is_canonical_identifier("total_2")
    assert not is_canonical_identifier("2total")
    assert not is_canonical_identifier("let")  # reserved
    assert not is_canonical_identifier("")


def test_trivia_and_space():
    source = "a  // note\n /* block */\tb"
    assert skip_trivia(source, 1) == len(source) - 1
    assert skip_trivia("x /* open", 1) is None
    # The limit ends a comment scan as it ends the text.
    assert skip_trivia(source, 1, limit=source.index("/*") + 3) is None
    assert skip_trivia("a / b", 1) == 2  # a slash that opens no comment
    assert skip_space_forward(" \v\tx", 0) == 3
    assert skip_space_backward("x \v\t", 4) == 1


def test_strings():
    source = 'say("a \\" b", "c")'
    body = source.index('"') + 1
    assert skip_string(source, body, len(source)) == (source.index(","), True)
    assert skip_string('"open\nnext"', 1, 11) == (None, False)
    assert skip_string('"abc"', 1, 3) == (3, False)


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


def test_a_bare_carriage_return_is_one_not_before_a_line_feed():
    assert not has_bare_carriage_return("a\nb")
    assert not has_bare_carriage_return("a\r\nb\r\n")
    assert has_bare_carriage_return("a\rb")
    assert has_bare_carriage_return("a\r\nb\r")
    assert has_bare_carriage_return("a\r\r\nb")
