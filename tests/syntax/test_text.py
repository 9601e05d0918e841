"""The shared text toolkit reads identifiers and whitespace as the lexer does."""

from __future__ import annotations

from octoscript_lsp.syntax.text import (
    has_bare_carriage_return,
    identifier_end,
    identifier_start_before,
    is_canonical_identifier,
    skip_space_backward,
)


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


def test_space():
    assert skip_space_backward("x \v\t", 4) == 1


def test_a_bare_carriage_return_is_one_not_before_a_line_feed():
    assert not has_bare_carriage_return("a\nb")
    assert not has_bare_carriage_return("a\r\nb\r\n")
    assert has_bare_carriage_return("a\rb")
    assert has_bare_carriage_return("a\r\nb\r")
    assert has_bare_carriage_return("a\r\r\nb")
