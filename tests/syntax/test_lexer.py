"""Lexer: token stream shape and every lexical rejection, with exact positions.

Expected (line, column) pairs follow the reference checker: 1-based, columns
counted in code points, a CRLF's CR in the column before its LF.
"""

from __future__ import annotations

import pytest

from octoscript_lsp.limits import MAX_SYNTAX_DIAGNOSTICS, MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax.check import SourceTooLarge, analyze_syntax
from octoscript_lsp.syntax.lexer import tokenize
from octoscript_lsp.syntax.tokens import Kind

from .util import messages, positions, summary


def kinds(source: str) -> list[tuple[str, str]]:
    result = tokenize(source)
    assert result.ok, result.diagnostics
    return [
        (token.kind.name, source[token.start : token.end])
        for token in result.tokens
        if token.kind is not Kind.END
    ]


# ---------------------------------------------------------------- token stream


def test_identifiers_keywords_and_operators():
    assert kinds("let x_1 = a.b(c)") == [
        ("IDENT", "let"),
        ("IDENT", "x_1"),
        ("OPERATOR", "="),
        ("IDENT", "a"),
        ("OPERATOR", "."),
        ("IDENT", "b"),
        ("LPAREN", "("),
        ("IDENT", "c"),
        ("RPAREN", ")"),
    ]


def test_punctuation_kinds():
    assert [kind for kind, _ in kinds("{}()[],;")] == [
        "LBRACE",
        "RBRACE",
        "LPAREN",
        "RPAREN",
        "LBRACKET",
        "RBRACKET",
        "COMMA",
        "SEMICOLON",
    ]


@pytest.mark.parametrize(
    "operator",
    [
        "!",
        "-",
        "+",
        "~",
        "=",
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "||",
        "&&",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "*",
        "/",
        "%",
        ".",
        ":",
        "|",
    ],
)
def test_every_canonical_operator_is_one_token(operator):
    assert kinds(f"a {operator} b")[1] == ("OPERATOR", operator)


def test_operator_characters_run_together():
    # Adjacent operator characters form one run: `!-` is not two operators.
    assert positions("a = !-b") == [(1, 5)]
    assert messages("a = !-b") == ["operator `!-` is not part of canonical Octoscript"]


@pytest.mark.parametrize("number", ["0", "42", "1.5", "1.25e+2", "2E10", "3e-4", "10.0e5", "007"])
def test_numbers(number):
    assert kinds(number) == [("NUMBER", number)]


def test_numeric_field_access_with_space_is_three_tokens():
    assert kinds("5 .field") == [("NUMBER", "5"), ("OPERATOR", "."), ("IDENT", "field")]


@pytest.mark.parametrize(
    "literal",
    [
        '""',
        '"plain"',
        '"\\" \\\\ \\n \\r \\t"',
        '"\\u0041"',
        '"\\u{1}"',
        '"\\u{10FFFF}"',
        '"\\u{1F600}"',
        '"é 😀 // not a comment"',
        '"\\uFFFF"',
    ],
)
def test_valid_strings_are_one_token(literal):
    assert kinds(literal) == [("STRING", literal)]


def test_newlines_lf_and_crlf_are_tokens():
    assert kinds("a\nb\r\nc") == [
        ("IDENT", "a"),
        ("NEWLINE", "\n"),
        ("IDENT", "b"),
        ("NEWLINE", "\r\n"),
        ("IDENT", "c"),
    ]


def test_comments_are_skipped_but_block_comment_newlines_count():
    assert kinds("a // x\nb") == [("IDENT", "a"), ("NEWLINE", "\n"), ("IDENT", "b")]
    assert kinds("a /* x\r\ny\n */ b") == [
        ("IDENT", "a"),
        ("NEWLINE", "\r\n"),
        ("NEWLINE", "\n"),
        ("IDENT", "b"),
    ]


def test_horizontal_whitespace_includes_form_feed():
    assert kinds("a\t\fb") == [("IDENT", "a"), ("IDENT", "b")]


def test_end_token_sits_at_source_end():
    result = tokenize("ab ")
    assert result.tokens[-1].kind is Kind.END
    assert (result.tokens[-1].start, result.tokens[-1].end) == (3, 3)


def test_offsets_are_code_points():
    result = tokenize('"😀" x')
    assert [(token.start, token.end) for token in result.tokens[:2]] == [(0, 3), (4, 5)]


# ---------------------------------------------------------------- rejections

LEXICAL_REJECTIONS = [
    # (source, first (line, column), diagnostic count)
    ("let s = 'text'", (1, 9), 1),
    ("let s = 'it\\'s'", (1, 9), 1),
    ("let s = 'open\nlet t = 1", (1, 9), 1),
    ("let n = 1u32", (1, 10), 1),
    ("let n = 2_000", (1, 10), 1),
    ("let n = 1.5f", (1, 12), 1),
    ("let n = 5.", (1, 10), 1),
    ("let n = 5.x", (1, 10), 1),
    ("let n = 5..6", (1, 10), 2),
    ("let n = 1e", (1, 10), 1),
    ("let n = 1e+", (1, 10), 1),
    ("let n = 1E-x", (1, 10), 2),
    ("let n = 1ex", (1, 10), 2),
    ("let r = 1..3", (1, 10), 2),
    ("let r = a..b", (1, 10), 1),
    ("let f = |x| => x", (1, 13), 1),
    ("x++", (1, 2), 1),
    ("let v = a ? b : c", (1, 11), 1),
    ("let v = @(0)", (1, 9), 1),
    ("let v = a ** b", (1, 11), 1),
    ("let v = a ^ b", (1, 11), 1),
    ("let v = a & b", (1, 11), 1),
    ("let v = a === b", (1, 11), 1),
    ("let v = a -> b", (1, 11), 1),
    ("let v = a::b", (1, 10), 1),
    ("# comment", (1, 1), 1),
    ("let $a = 1", (1, 5), 1),
    ("let a = 1 # 2", (1, 11), 1),
    ("let café = 1", (1, 8), 1),
    ("let a = 1 \u00a0", (1, 11), 1),
    ("let a = `x`", (1, 9), 2),
    ("let a = 1\rlet b = 2", (1, 10), 1),
    ("let a = 1\r", (1, 10), 1),
    ("a\r\nb\rc", (2, 2), 1),
    ('let s = "open', (1, 9), 1),
    ('let s = "open\nlet t = 1', (1, 9), 1),
    ('let s = "open\r\nlet t = 1', (1, 9), 1),
    ('let s = "tail\\', (1, 9), 2),
    ('let s = "a\\q"', (1, 12), 1),
    ('let s = "a\\x41"', (1, 12), 1),
    ('let s = "a\\0"', (1, 12), 1),
    ('let s = "a\\\'"', (1, 12), 1),
    ('let s = "\\uD800"', (1, 9), 1),
    ('let s = "\\uDFFF"', (1, 9), 1),
    ('let s = "\\u{D800}"', (1, 9), 1),
    ('let s = "\\u{110000}"', (1, 9), 1),
    ('let s = "\\u{FFFFFF}"', (1, 9), 1),
    ('let s = "\\u{}"', (1, 9), 1),
    ('let s = "\\u{1000000}"', (1, 9), 1),
    ('let s = "\\u{0000041}"', (1, 9), 1),
    ('let s = "\\u{41"', (1, 9), 2),
    ('let s = "\\u{4G}"', (1, 9), 1),
    ('let s = "\\u41"', (1, 9), 1),
    ('let s = "\\u"', (1, 9), 1),
    ('let s = "\\uZZZZ"', (1, 9), 1),
    ("/* never closed", (1, 1), 1),
    ("let a = 1\n  /* open\nlet b = 2", (2, 3), 1),
    ("/* ends with **/ let a = 1", (1, 1), 1),
    ("/* a */ */", (1, 9), 1),
]


@pytest.mark.parametrize(("source", "expected_first", "expected_count"), LEXICAL_REJECTIONS)
def test_lexical_rejection_positions(source, expected_first, expected_count):
    assert summary(source) == (expected_first, expected_count)
    assert not analyze_syntax(source).valid


def test_single_quoted_string_message():
    assert messages("'a'") == ["only double-quoted strings are part of canonical Octoscript"]


def test_decimal_point_message_mentions_field_access():
    (message,) = messages("5.x")
    assert "decimal point" in message and "followed by a digit" in message


def test_numeric_suffix_message():
    assert messages("1u32") == ["numeric literal suffixes are not part of canonical Octoscript"]


def test_exponent_message():
    assert messages("1e") == ["an exponent needs at least one digit"]


def test_unicode_escape_messages():
    assert messages('"\\u{110000}"') == ["unicode escapes must encode a valid Unicode scalar value"]
    assert "four hexadecimal digits" in messages('"\\u{}"')[0]


def test_unsupported_character_message_names_it():
    assert messages("#") == ["unsupported character `#` in canonical Octoscript"]


def test_operator_message_names_the_whole_run():
    assert messages("a => b") == ["operator `=>` is not part of canonical Octoscript"]


def test_bare_carriage_return_message():
    assert "carriage return" in messages("a\rb")[0]


def test_star_star_slash_does_not_close_but_star_slash_after_it_does():
    # `**/` is skipped as `*` + `*/`-candidate-consumed; a later `*/` closes.
    assert positions("/* a **/ b */\nlet x = 1") == []


def test_star_newline_inside_block_comment_is_consumed_without_a_newline_token():
    # The character after a failed `*` candidate is swallowed, even a newline.
    tokens = tokenize("/* *\n */ x").tokens
    assert [token.kind for token in tokens] == [Kind.IDENT, Kind.END]


def test_nul_and_control_characters_are_unsupported():
    assert positions("a\x00b") == [(1, 2)]
    assert positions("a\x7fb") == [(1, 2)]
    assert messages("\x00") == ["unsupported character U+0000 in canonical Octoscript"]


def test_non_ascii_inside_strings_and_comments_is_fine():
    assert positions('let a = "日本" // ✓\n/* ü */') == []


def test_columns_count_code_points_after_non_ascii():
    # The emoji is one column even though it is two UTF-16 units.
    assert positions('let s = "😀" ?') == [(1, 13)]


def test_lexical_errors_hide_parser_errors():
    # `let if` would be a parse error, but a lexical error anywhere wins.
    assert summary("let if = 1\nlet a = 'x'") == ((2, 9), 1)


def test_lexer_reports_every_problem_in_order():
    assert positions("a ? b\n'c'\n#") == [(1, 3), (2, 1), (3, 1)]


# ---------------------------------------------------------------- limits


def test_exactly_the_token_budget_is_accepted():
    # `x` then (`;` `x`) pairs: 1 + 2 * 16383 = 32767 tokens, plus one newline.
    source = "x" + ";x" * ((MAX_SYNTAX_TOKENS - 1) // 2) + "\n"
    assert len(tokenize(source).tokens) == MAX_SYNTAX_TOKENS + 1  # END is outside
    assert analyze_syntax(source).valid


def test_token_limit_reports_once_at_the_first_excess_token():
    source = "x\n" * (MAX_SYNTAX_TOKENS // 2) + "y z w"
    result = analyze_syntax(source)
    assert len(result.diagnostics) == 1
    assert "token count exceeds the maximum of 32768" in result.diagnostics[0].message
    assert result.line_column(result.diagnostics[0].offset) == (MAX_SYNTAX_TOKENS // 2 + 1, 1)
    assert not result.valid
    assert len(result.tokens) == MAX_SYNTAX_TOKENS + 1


def test_token_limit_keeps_reporting_other_lexical_errors():
    source = "x\n" * (MAX_SYNTAX_TOKENS // 2) + "y #"
    assert summary(source) == ((MAX_SYNTAX_TOKENS // 2 + 1, 1), 2)


def test_custom_token_budget():
    result = tokenize("a b c", max_tokens=2)
    assert [token.kind for token in result.tokens] == [Kind.IDENT, Kind.IDENT, Kind.END]
    assert [item.offset for item in result.diagnostics] == [4]


def test_source_over_256_kib_raises():
    with pytest.raises(SourceTooLarge):
        analyze_syntax("x" * (256 * 1024 + 1))


def test_source_budget_counts_utf8_bytes():
    # 87,382 three-byte characters in a comment exceed 256 KiB in UTF-8.
    with pytest.raises(SourceTooLarge):
        analyze_syntax("//" + "€" * 87_382)
    analyze_syntax("//" + "€" * 87_000)


def test_exactly_256_kib_is_accepted():
    result = analyze_syntax("//" + "x" * (256 * 1024 - 2))
    assert result.valid


def test_diagnostics_are_capped_with_truncated_flag():
    result = analyze_syntax("#" * 40)
    assert len(result.diagnostics) == MAX_SYNTAX_DIAGNOSTICS
    assert result.diagnostics_truncated
    assert not result.valid
    result = analyze_syntax("#" * MAX_SYNTAX_DIAGNOSTICS)
    assert len(result.diagnostics) == MAX_SYNTAX_DIAGNOSTICS
    assert not result.diagnostics_truncated
