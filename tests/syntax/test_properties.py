"""Property tests: the syntax core never raises, and formatting is stable."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.limits import MAX_SYNTAX_DIAGNOSTICS
from octoscript_lsp.syntax.check import analyze_syntax, format_source

BOUNDED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FRAGMENTS = [
    "let",
    "fn",
    "if",
    "elif",
    "else",
    "try",
    "catch",
    "for",
    "in",
    "loop",
    "while",
    "return",
    "break",
    "continue",
    "use",
    "mod",
    "true",
    "false",
    "nil",
    "var",
    "match",
    "ok",
    "and",
    "x",
    "y",
    "_z9",
    "1",
    "2.5",
    "1e9",
    "5.",
    "1u8",
    '"s"',
    '"\\u{1F600}"',
    '"\\q"',
    "'q'",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    ".",
    "=",
    "+=",
    "-=",
    "==",
    "!=",
    "<",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "~",
    "&&",
    "||",
    "|",
    "..",
    "=>",
    "++",
    "?",
    "@",
    "#",
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "// c",
    "/* c */",
    "/* \n */",
    "/*",
    "**/",
    '"',
    ".await()",
    "é",
    "😀",
    "\x00",
    "\ud800",
]


def _assert_well_formed(source: str) -> None:
    result = analyze_syntax(source)
    assert len(result.diagnostics) <= MAX_SYNTAX_DIAGNOSTICS
    for item in result.diagnostics:
        assert 0 <= item.offset <= len(source)
        line, column = result.line_column(item.offset)
        assert line >= 1 and column >= 1
    assert result.valid is (not result.diagnostics and not result.diagnostics_truncated)


@BOUNDED
@given(st.text(max_size=400))
def test_arbitrary_text_never_raises(source):
    _assert_well_formed(source)


@BOUNDED
@given(st.text(alphabet=st.characters(codec=None), max_size=200))
def test_arbitrary_code_points_including_surrogates_never_raise(source):
    _assert_well_formed(source)


@BOUNDED
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=120).map(" ".join))
def test_spaced_token_soup_never_raises(source):
    _assert_well_formed(source)


@BOUNDED
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=120).map("".join))
def test_glued_token_soup_never_raises(source):
    _assert_well_formed(source)


@BOUNDED
@given(st.lists(st.sampled_from(["(", "[", "{", "f(", "|| ", "a: ", "-", "x"]), max_size=600))
def test_deep_opener_soup_never_raises(parts):
    _assert_well_formed("".join(parts))


# ---------------------------------------------------------------- valid programs

NAMES = st.sampled_from(["a", "b", "value", "item_1", "_tmp", "catch", "result"])
NUMBERS = st.sampled_from(["0", "1", "42", "3.14", "1e3", "2.5E-2"])
STRINGS = st.sampled_from(['""', '"text"', '"a\\nb"', '"\\u{1F600}"', '"\\u0041"', '"é"'])
SPACE = st.sampled_from(["", " ", "  ", "\t"])


LEAVES = st.one_of(NAMES, NUMBERS, STRINGS, st.sampled_from(["true", "false", "nil"]))
BINARY_OPERATORS = st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||"])


def _expressions_over(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """One grammar layer whose operands come from `inner`."""
    binary = st.tuples(inner, SPACE, BINARY_OPERATORS, st.sampled_from([" ", "  "]), inner).map(
        "".join
    )
    call = st.tuples(NAMES, st.lists(inner, max_size=3)).map(
        lambda parts: f"{parts[0]}({', '.join(parts[1])})"
    )
    member = st.tuples(inner, NAMES).map(lambda parts: f"({parts[0]}).{parts[1]}")
    array = st.lists(inner, max_size=3).map(lambda items: "[" + " ,".join(items) + "]")
    record = st.lists(st.tuples(NAMES, inner), max_size=3).map(
        lambda members: "{" + ", ".join(f"{key}: {value}" for key, value in members) + "}"
    )
    # A `{` right after the parameters starts a block, so a record body is wrapped.
    lambda_ = st.tuples(st.lists(NAMES, max_size=2), inner).map(
        lambda parts: (
            (f"|{', '.join(parts[0])}| " if parts[0] else "|| ")
            + (f"({parts[1]})" if parts[1].startswith("{") else parts[1])
        )
    )
    index = st.tuples(NAMES, inner).map(lambda parts: f"{parts[0]}[{parts[1]}]")
    unary = st.tuples(st.sampled_from(["!", "-", "~"]), NAMES).map(lambda p: f"{p[0]} {p[1]}")
    awaited = NAMES.map(lambda name: f"{name}.start().await()")
    # A control expression or lambda is parenthesized wherever it is an operand.
    try_ = st.tuples(inner, inner).map(lambda p: f"(try ({p[0]}) catch ({p[1]}))")
    return st.one_of(
        LEAVES,
        binary,
        call,
        member,
        array,
        record,
        lambda_.map(lambda t: f"({t})"),
        index,
        unary,
        awaited,
        try_,
    )


EXPRESSIONS = _expressions_over(_expressions_over(LEAVES))
SIMPLE_STATEMENTS = st.one_of(
    st.tuples(NAMES, EXPRESSIONS).map(lambda p: f"let {p[0]} = {p[1]}"),
    NAMES.map(lambda name: f"let {name}"),
    st.tuples(NAMES, st.sampled_from(["=", "+=", "-="]), EXPRESSIONS).map(
        lambda p: f"{p[0]} {p[1]}  {p[2]}"
    ),
    EXPRESSIONS,
    st.sampled_from(["// a comment", "/* block */ x", "use mod.std.assert", "return"]),
    st.tuples(NAMES, st.lists(NAMES, max_size=2)).map(
        lambda p: f"let {p[0]} = |{', '.join(p[1])}| {{\n    nil\n}}"
    ),
)


def _block(statements: list[str]) -> str:
    return "{\n" + "".join(f"{statement}\n" for statement in statements) + "}"


def _statements_over(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    body = st.lists(inner, max_size=3).map(_block)
    fn = st.tuples(NAMES, st.lists(NAMES, max_size=3, unique=True), body).map(
        lambda p: f"fn {p[0]}({','.join(p[1])}) {p[2]}"
    )
    if_else = st.tuples(EXPRESSIONS, body, st.one_of(st.none(), body)).map(
        lambda p: f"if ({p[0]}) {p[1]}" + (f" else {p[2]}" if p[2] else "")
    )
    loop_ = st.tuples(NAMES, EXPRESSIONS, body).map(lambda p: f"for {p[0]} in ({p[1]}) {p[2]}")
    while_ = st.tuples(EXPRESSIONS, body).map(lambda p: f"while ({p[0]}) {p[1]}")
    trailing_comment = st.tuples(SIMPLE_STATEMENTS, st.sampled_from(["  // note", "\t/* n */"]))
    return st.one_of(SIMPLE_STATEMENTS, fn, if_else, loop_, while_, trailing_comment.map("".join))


STATEMENTS = _statements_over(_statements_over(SIMPLE_STATEMENTS))


PROGRAMS = st.tuples(
    st.lists(STATEMENTS, max_size=6),
    st.sampled_from(["\n", "\r\n", "\n\n", " \n"]),
).map(lambda parts: parts[1].join(parts[0]))


@BOUNDED
@given(PROGRAMS)
def test_generated_programs_are_valid(source):
    result = analyze_syntax(source)
    assert result.valid, (source, result.diagnostics)


@BOUNDED
@given(PROGRAMS)
def test_formatting_is_idempotent_and_keeps_validity(source):
    once = format_source(source)
    assert analyze_syntax(once).valid
    assert format_source(once) == once
    assert "\r" not in once
    assert all(line == line.rstrip(" \t") for line in once.split("\n"))


@BOUNDED
@given(PROGRAMS)
def test_formatting_keeps_the_token_spellings(source):
    before = analyze_syntax(source)
    after = analyze_syntax(format_source(source))

    def spellings(result):
        words = [
            result.source[token.start : token.end].replace("\r\n", "\n") for token in result.tokens
        ]
        # The formatter may add the final newline.
        while len(words) > 1 and words[-2] == "\n":
            del words[-2]
        return words

    assert spellings(before) == spellings(after)
