"""The lexer's regex fast path must lex exactly as its character-level scanners.

`_lex` takes the common tokens from one compiled scanner, makes the
tokens without `Token.__init__` and bounds the token budget by its number of
matches; `_scan_rare` lexes everything, one construct at a time. With the
scanner swapped for a pattern that never matches, every character goes
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
from octoscript_lsp.syntax.lexer import LexResult, retokenize, tokenize
from octoscript_lsp.syntax.tokens import Kind, Token

from .test_incremental import BASES
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
    # Both fast paths off: the one-token scanner and the whole-text cut.
    saved = lexer._COMMON, lexer._COMMON_SPLIT
    lexer._COMMON = lexer._COMMON_SPLIT = NEVER
    try:
        yield
    finally:
        lexer._COMMON, lexer._COMMON_SPLIT = saved


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


@CHECKED
@given(st.sampled_from(BASES), EDITS, BUDGETS)
def test_relexing_after_edits_lexes_as_the_character_scanners_do(base, changes, budget):
    # Restarts at a newline, adopting the old tail: the same result as the
    # reference lexing the whole edited text.
    previous, text = tokenize(base, budget), base
    for change in changes:
        edited = _apply(text, *change)
        previous, _ = retokenize(edited, text, previous, budget)
        text = edited
        assert snapshot(previous) == snapshot(reference(text, budget))


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


# ---------------------------------------------------------------- the whole-text cut

# Texts of common tokens only (bad operators and one-line comments included),
# which `_lex_whole_text` takes at once.
COMMON_FRAGMENTS = [
    "let",
    "x",
    "_z9",
    "true",
    "1",
    "2.5",
    "1e9",
    "2.5E-3",
    '"text"',
    '"a\\nb\\t\\"\\\\"',
    "=",
    "==",
    "+=",
    ".",
    "/",
    "/=",
    "=>",
    "??",
    "+/",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    "\n",
    "\r\n",
    "\t",
    "\f",
    "// note",
    "/* a */",
    "/**/",
]
COMMON_SOUP = st.lists(st.sampled_from(COMMON_FRAGMENTS), max_size=120)


def _whole_text(source: str, pos: int = 0, max_tokens: int = MAX_SYNTAX_TOKENS):
    """What `_lex_whole_text` does from `pos`: (where the scanner goes on,
    tokens, diagnostics, comments)."""
    sink = lexer.DiagnosticSink()
    out = lexer._TokenBuffer(max_tokens, sink, [])
    comments: list[tuple[int, int]] = []
    until, _, _ = lexer._lex_whole_text(source, pos, out, comments)
    return until, out.tokens, sink.items, comments


@CHECKED
@given(COMMON_SOUP, st.sampled_from(["", " ", "\n"]), BUDGETS)
def test_common_text_is_cut_at_once_as_the_scanners_lex_it(parts, separator, budget):
    source = separator.join(parts)
    assert_lexes_as_reference(source, budget)
    until, tokens, diagnostics, comments = _whole_text(source, 0, budget)
    # What it took is what the scanners make of the text up to there.
    result = reference(source[:until], budget)
    assert tokens == list(result.tokens)[:-1]
    assert (diagnostics, comments) == (result.diagnostics, result.comments)


@CHECKED
@given(SOUP, st.sampled_from(["", " ", "\n"]), BUDGETS)
def test_what_the_cut_takes_is_what_the_scanners_make_of_the_text_before(parts, separator, budget):
    source = separator.join(parts)
    until, tokens, diagnostics, comments = _whole_text(source, 0, budget)
    result = reference(source[:until], budget)
    assert tokens == list(result.tokens)[:-1]
    assert (diagnostics, comments) == (result.diagnostics, result.comments)


@CHECKED
@given(
    st.lists(st.sampled_from(COMMON_FRAGMENTS + FRAGMENTS), max_size=120),
    st.sampled_from(["", " ", "\n"]),
    BUDGETS,
    st.sampled_from([0, 1, 7, 40]),
)
def test_stretch_by_stretch_the_cut_lexes_as_the_scanners(parts, separator, budget, stretch):
    # Short stretches: a text is cut a few lines at a time, stopping at the
    # first stretch with anything else in it.
    source = separator.join(parts)
    saved = lexer._CUT_CHARS
    lexer._CUT_CHARS = stretch
    try:
        assert_lexes_as_reference(source, budget)
        until, tokens, diagnostics, comments = _whole_text(source, 0, budget)
    finally:
        lexer._CUT_CHARS = saved
    result = reference(source[:until], budget)
    assert tokens == list(result.tokens)[:-1]
    assert (diagnostics, comments) == (result.diagnostics, result.comments)


def test_a_generated_program_is_cut_at_once():
    source = (
        "use mod.tool\n"
        "fn step(left, right) {\n"
        "    let total = math.max(left, right) + 1 // the larger\n"
        '    let record = {name: "n", inner: {count: 2, flag: true}}\n'
        "    if total > 10 { total += record.inner.count }\n"
        "    return total\n"
        "}\n"
    ) * 3
    until, tokens, diagnostics, comments = _whole_text(source)
    assert until == len(source)
    result = reference(source)
    assert tokens == list(result.tokens)[:-1]
    assert (diagnostics, comments) == ([], result.comments) != ([], [])
    # From an offset too (relexing to the end of an edited text), at that offset.
    start = source.index("fn step")
    until, tokens, _, _ = _whole_text(source, start)
    assert until == len(source)
    assert tokens[0] == Token(Kind.IDENT, "fn", start, start + 2)


@pytest.mark.parametrize(
    "source",
    [
        "a /* one\ntwo */ b",  # a block comment over lines: its line breaks are tokens
        "a /* * */ b",
        'a "\\u0041"',
    ],
)
def test_a_text_with_a_construct_valid_text_may_hold_is_not_cut(source: str):
    # Cutting would stop at it: a file's header comment would leave it all.
    assert _whole_text(source) == (0, [], [], [])
    assert _whole_text(f"x {source}", 2) == (2, [], [], [])
    assert_lexes_as_reference(source)


@pytest.mark.parametrize(
    ("source", "until"),
    [
        ("a b 'c' d", 3),  # a single-quoted string
        ("a\rb", 1),  # a bare CR
        ("a # b", 1),
        ("a = 1e5x", 3),
        ("x\u00e9 y", 1),
        ("a b #", 3),  # only the space after the last token
        ("// don't\na '", 10),  # a quote in a comment is the comment's
    ],
)
def test_the_cut_stops_where_anything_else_starts(source: str, until: int):
    # The tokens before it are the scanners'; they go on from there.
    found, tokens, diagnostics, comments = _whole_text(source)
    assert found == until
    result = reference(source[:until])
    assert tokens == list(result.tokens)[:-1]
    assert (diagnostics, comments) == (result.diagnostics, result.comments)
    assert_lexes_as_reference(source)
    assert_lexes_as_reference(source, 2)


def test_over_the_budget_the_cut_takes_what_surely_fits():
    # Each piece makes at most one token: two pieces (a comment among them),
    # then the scanner goes on from the end of the second and reports the limit.
    until, tokens, _, comments = _whole_text("a // c\nb c d", 0, 2)
    assert until == 6
    assert [token.text for token in tokens] == ["a"]
    assert comments == [(2, 6)]
    assert _whole_text("a b c", 0, 3)[0] == 5
    assert _whole_text("a b c", 0, 0) == (0, [], [], [])
    assert_lexes_as_reference("a // c\nb c d", 2)


def test_past_a_stretch_left_to_the_scanners_the_text_is_cut_again(monkeypatch):
    # A header comment over lines and an error further on: each stretch with
    # one goes to the scanners, the stretches after them are cut again.
    lines = [f"let v{index} = f(v{index}, 1)\n" for index in range(60)]
    lines[30] = "let e = 1 # 2\n"
    source = "/* header\n   comment */\n" + "".join(lines)
    cuts: list[tuple[int, int]] = []
    original = lexer._lex_whole_text

    def recorded(text, pos, out, comments):
        answer = original(text, pos, out, comments)
        cuts.append((pos, answer[0]))
        return answer

    monkeypatch.setattr(lexer, "_CUT_CHARS", 200)
    assert_lexes_as_reference(source)
    monkeypatch.setattr(lexer, "_lex_whole_text", recorded)
    tokenize(source)
    assert cuts[0] == (0, 0)  # the header comment's stretch
    assert cuts[-1][1] == len(source)  # the last stretches were cut
    error = source.index("#")
    assert any(start <= error - 4 < until for start, until in cuts)  # up to the error
    assert any(start > error for start, _ in cuts)  # and again after it
