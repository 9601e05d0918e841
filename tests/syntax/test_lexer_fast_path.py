"""The lexer's regex fast path must lex exactly as its character-level scanners.

`_lex` takes the common tokens from one compiled scanner and bounds the
token budget by its number of matches; `_scan_rare` lexes everything, one
construct at a time. With the scanner swapped for a pattern that never matches, every character goes
through `_scan_rare`: that run is the reference the fast path is compared
with, tokens, diagnostics (offsets, messages, codes, order), comments,
truncation and where the token budget ran out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax import lexer
from octoscript_lsp.syntax.codes import SyntaxCode
from octoscript_lsp.syntax.lexer import LexResult, tokenize
from octoscript_lsp.syntax.tokens import Kind, Token

from .test_incremental import FRAGMENTS as EDIT_FRAGMENTS
from .test_properties import FRAGMENTS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURE_FILES = sorted(path for path in FIXTURES.rglob("*") if path.is_file())
NEVER = re.compile(r"(?!)")
# Strings with every escape the fast path takes, pieces of escapes it leaves,
# numbers with exponents and block comments it takes or leaves.
EXTRA_FRAGMENTS = [
    '"a\\nb"',
    '"\\"\\\\"',
    '"\\t\\r"',
    '"\\',
    "\\",
    '\\"',
    '"\\u0041"',
    "\\n",
    "1e+5",
    "2.5E-3",
    "1e",
    "1e+",
    "1E5x",
    "/* a */",
    "/**/",
    "/* * */",
]
SOUP = st.lists(st.sampled_from(FRAGMENTS + EDIT_FRAGMENTS + EXTRA_FRAGMENTS), max_size=120)
BUDGETS = st.one_of(st.integers(min_value=1, max_value=40), st.just(MAX_SYNTAX_TOKENS))
CHECKED = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def character_level() -> Iterator[None]:
    # The fast path off: the one-token scanner never matches.
    saved = lexer._COMMON
    lexer._COMMON = NEVER
    try:
        yield
    finally:
        lexer._COMMON = saved


def reference(source: str, max_tokens: int = MAX_SYNTAX_TOKENS) -> LexResult:
    with character_level():
        return tokenize(source, max_tokens)


def snapshot(result: LexResult) -> tuple:
    return (
        [(token.kind, token.text, token.start, token.end) for token in result.tokens],
        result.diagnostics,
        result.truncated,
        result.comments,
        result.token_limit_offset,
    )


def assert_lexes_as_reference(source: str, max_tokens: int = MAX_SYNTAX_TOKENS) -> None:
    assert snapshot(tokenize(source, max_tokens)) == snapshot(reference(source, max_tokens))


def test_the_reference_never_takes_the_fast_path():
    # `a b` is two common tokens; without the scanner they still lex, one by one.
    with character_level():
        assert lexer._COMMON.match("a b") is None
        assert [token.text for token in tokenize("a b").tokens] == ["a", "b", ""]


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda path: path.name)
@pytest.mark.parametrize("budget", [MAX_SYNTAX_TOKENS, 1, 2, 7, 100])
def test_fixtures_lex_as_the_character_scanners_do(path: Path, budget: int):
    source = path.read_text(encoding="utf-8")
    assert_lexes_as_reference(source, budget)
    assert_lexes_as_reference(source.replace("\n", "\r\n"), budget)


# Edges of what the fast path takes: `**/` does not close a block comment,
# a line break inside one is a token, an exponent needs digits, a suffix or
# a second point leaves the number to `_scan_number`.
EDGES = [
    "/* **/",
    "/* **/ */ x",
    "/**/",
    "/***/",
    "/* * / */",
    "/*/ */",
    "/* a */*/",
    "/* a *//b",
    "/* a\n */",
    "/* a\r\n */ b",
    "1e5",
    "1e+5 1E-5 1.5e3",
    "1e",
    "1e+",
    "1e5x",
    "1e5.x",
    "1e5_",
    "1.e5",
    "1e5é",
    '"\\n" "\\"" "\\\\"',
    '"\\u0041" "\\u{41}" "\\u{D800}"',
    '"\\q"',
    '"\\',
    '"a\\\n"',
    '"\\"',
    "a\r\nb\rc",
]


@pytest.mark.parametrize("source", EDGES)
@pytest.mark.parametrize("budget", [MAX_SYNTAX_TOKENS, 1, 2])
def test_edges_of_the_fast_path_lex_as_the_character_scanners_do(source: str, budget: int):
    assert_lexes_as_reference(source, budget)
    assert_lexes_as_reference(f"x {source} y\n", budget)


@CHECKED
@given(SOUP, st.sampled_from(["", " ", "\n"]), BUDGETS)
def test_token_soup_lexes_as_the_character_scanners_do(parts, separator, budget):
    assert_lexes_as_reference(separator.join(parts), budget)


@CHECKED
@given(st.text(max_size=300), BUDGETS)
def test_arbitrary_text_lexes_as_the_character_scanners_do(source, budget):
    assert_lexes_as_reference(source, budget)


def _apply(text: str, where: float, removed: int, inserted: str) -> str:
    position = int(where * len(text))
    return text[:position] + inserted + text[position + removed :]


EDITS = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=12),
        st.lists(st.sampled_from(FRAGMENTS + EDIT_FRAGMENTS + EXTRA_FRAGMENTS), max_size=4).map(
            "".join
        ),
    ),
    min_size=1,
    max_size=4,
)


def test_fast_tokens_are_ordinary_tokens():
    token = tokenize("name").tokens[0]
    assert type(token) is Token
    assert token == Token(Kind.IDENT, "name", 0, 4)
    assert hash(token) == hash(Token(Kind.IDENT, "name", 0, 4))
    assert repr(token) == "Token(IDENT, 'name', 0, 4)"


def test_budget_runs_out_between_two_bad_operators_in_report_order():
    result = tokenize("a b ?? c ?? d", max_tokens=2)
    assert [(item.offset, item.code) for item in result.diagnostics] == [
        (4, SyntaxCode.UNSUPPORTED_OPERATOR),
        (7, SyntaxCode.TOKEN_LIMIT),
        (9, SyntaxCode.UNSUPPORTED_OPERATOR),
    ]
    assert result.token_limit_offset == 7
    assert [token.text for token in result.tokens] == ["a", "b", ""]


def test_an_escape_problem_is_reported_before_the_limit_its_string_exceeds():
    # The string is scanned (and its escape reported) before it is emitted.
    result = tokenize('a "\\q" b', max_tokens=1)
    assert [(item.offset, item.code) for item in result.diagnostics] == [
        (4, SyntaxCode.INVALID_ESCAPE),
        (2, SyntaxCode.TOKEN_LIMIT),
    ]


def test_comments_do_not_count_against_the_budget():
    source = "a // one\n// two\nb /* three */ c"
    result = tokenize(source, max_tokens=4)
    assert [token.kind for token in result.tokens] == [
        Kind.IDENT,
        Kind.NEWLINE,
        Kind.NEWLINE,
        Kind.IDENT,
        Kind.END,
    ]
    assert result.comments == [(2, 8), (9, 15), (18, 29)]
    assert result.token_limit_offset == 30
