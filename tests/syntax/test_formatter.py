"""Formatter: canonical spacing and indentation, preservation, idempotence, refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.formatting import FormattingRefused, canonical_text
from octoscript_lsp.limits import MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax import formatter
from octoscript_lsp.syntax.check import SyntaxRejected, analyze_syntax, format_source
from octoscript_lsp.syntax.formatter import (
    FormattedSourceTooLarge,
    format_statements,
    format_tokens,
)

CASES = [
    # (input, canonical output)
    ("let   a=1", "let a = 1\n"),
    ("a=b+c*d-e/f%g", "a = b + c * d - e / f % g\n"),
    ("x+=1;x-=2;x*=3;x/=4;x%=5", "x += 1; x -= 2; x *= 3; x /= 4; x %= 5\n"),
    ("let v= a&&b|| !c", "let v = a && b || ! c\n"),
    ("let v=a==b!=c<d<=e>f>=g", "let v = a == b != c < d <= e > f >= g\n"),
    ("let v = - a", "let v = - a\n"),
    ("let v= -a", "let v = - a\n"),
    ("f(a,b ,  c)", "f(a, b, c)\n"),
    ("f( a )", "f(a)\n"),
    ("f ()", "f()\n"),
    ("a . b . c ( )", "a.b.c()\n"),
    ("let r={a:1,b:2}", "let r = {a: 1, b: 2}\n"),
    ("let r = { a : 1 }", "let r = {a: 1}\n"),
    ("let r = {}", "let r = {}\n"),
    ("let a=[1,2 , 3]", "let a = [1, 2, 3]\n"),
    ("let a = [ ]", "let a = []\n"),
    ("let v=a [0] [1]", "let v = a[0][1]\n"),
    ("let v = f() [0]", "let v = f()[0]\n"),
    ('let v = "s" [0]', 'let v = "s"[0]\n'),
    ("let v = [[1] ,[2]]", "let v = [[1], [2]]\n"),
    ("let v = 5 .field", "let v = 5 .field\n"),
    ("let v = 5   .field", "let v = 5 .field\n"),
    # No space before `(` except after `if`, `elif` and `while` (the reference rule).
    ("let v = (5).field", "let v =(5).field\n"),
    ("a = (b)", "a =(b)\n"),
    ("return (a)", "return(a)\n"),
    ("let r = {a: (1)}", "let r = {a:(1)}\n"),
    ("let f = || (a)", "let f = ||(a)\n"),
    ("let v = [ (1) ]", "let v = [(1)]\n"),
    ("let v = 1.5e+3", "let v = 1.5e+3\n"),
    ("if(a){\nb\n}", "if (a) {\n    b\n}\n"),
    ("while(a){\n}", "while (a) {\n}\n"),
    ("if a {\n1\n} elif(b) {\n2\n}", "if a {\n    1\n} elif (b) {\n    2\n}\n"),
    ("fn f(a,b){\nreturn a\n}", "fn f(a, b) {\n    return a\n}\n"),
    ("fn f ( ) {\n}", "fn f() {\n}\n"),
    ("let f= |a|a", "let f = |a| a\n"),
    ("let f = | a , b |  a+b", "let f = |a, b| a + b\n"),
    ("let f= ||x", "let f = || x\n"),
    ("let f = ||{\nx\n}", "let f = || {\n    x\n}\n"),
    ("let f = |a| |b| a", "let f = |a| |b| a\n"),
    ('let v = tool.start("x",{}).await( )', 'let v = tool.start("x", {}).await()\n'),
    ("let v = try a() catch nil", "let v = try a() catch nil\n"),
    ("let v = try{\nnil\n}catch{\n0\n}", "let v = try {\n    nil\n} catch {\n    0\n}\n"),
    ("for k,v in items{\nbreak\n}", "for k, v in items {\n    break\n}\n"),
    ("loop{\n}", "loop {\n}\n"),
    ("use   mod . std . assert", "use mod.std.assert\n"),
    # nested blocks and records
    (
        "fn f() {\nif a {\nfor x in y {\nz\n}\n}\n}",
        "fn f() {\n    if a {\n        for x in y {\n            z\n        }\n    }\n}\n",
    ),
    (
        "let r = {\na: 1,\nb: {\nc: 2\n}\n}",
        "let r = {\n    a: 1,\n    b: {\n        c: 2\n    }\n}\n",
    ),
    ("let r = {{a: 1}}"[0:0] + "let r = {a: {b: 1}}", "let r = {a: {b: 1}}\n"),
    ("fn f() { a; }", "fn f() {a;}\n"),
    # comments stay where they are
    ("let a = 1   // note   ", "let a = 1   // note\n"),
    ("// head\nlet a = 1", "// head\nlet a = 1\n"),
    ("fn f() {\n// inside\nx\n}", "fn f() {\n    // inside\n    x\n}\n"),
    ("let a = /* c */ 1", "let a = /* c */ 1\n"),
    ("let a = 1/* c */+2", "let a = 1/* c */+ 2\n"),
    ("fn f() {\n  /* one\n two */ x\n}", "fn f() {\n    /* one\n    two */ x\n}\n"),
    # blank lines are kept, whitespace-only lines emptied
    ("let a = 1\n\n\nlet b = 2", "let a = 1\n\n\nlet b = 2\n"),
    ("let a = 1\n    \t\nlet b = 2", "let a = 1\n\nlet b = 2\n"),
    # line endings and trailing whitespace
    ("let a = 1\r\nlet b = 2\r\n", "let a = 1\nlet b = 2\n"),
    ("let a = 1   \nlet b = 2\t\t", "let a = 1\nlet b = 2\n"),
    ("let a = 1", "let a = 1\n"),
    ("let a = 1\n\n", "let a = 1\n\n"),
    ("   let a = 1", "let a = 1\n"),
    ("", ""),
    ("\n", "\n"),
    # spellings preserved
    ('let s = "\\u{41}\\n  é"', 'let s = "\\u{41}\\n  é"\n'),
    ("let n = 007", "let n = 007\n"),
]


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_canonical_output(source, expected):
    assert format_source(source) == expected


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_canonical_output_is_a_fixed_point(source, expected):
    assert format_source(expected) == expected
    assert analyze_syntax(expected).valid


def test_indentation_follows_braces_not_source_indentation():
    source = "fn f() {\n            a\n  b\n}"
    assert format_source(source) == "fn f() {\n    a\n    b\n}\n"


def test_closing_brace_dedents_before_writing():
    assert format_source("let r = {\na: {\nb: 1\n}\n}") == (
        "let r = {\n    a: {\n        b: 1\n    }\n}\n"
    )


def test_idempotent_on_fixture(fixture_source):
    if not analyze_syntax(fixture_source).valid:
        with pytest.raises(SyntaxRejected):
            format_source(fixture_source)
        return
    once = format_source(fixture_source)
    assert format_source(once) == once
    assert analyze_syntax(once).valid


def test_canonical_fixtures_are_unchanged(fixture_sources):
    for name in ("canonical_constructs", "grammar_v0_2", "workflow_language", "try_catch"):
        source = fixture_sources[name]
        assert format_source(source) == source, name


def test_spaced_import_fixture_is_normalised(fixture_sources):
    source = fixture_sources["import_path_spaced"]
    assert source == "use mod. worker\n"
    assert format_source(source) == "use mod.worker\n"


@pytest.mark.parametrize(
    "source",
    [
        "let a = 'x'",
        "let if = 1",
        "let a = 1 let b = 2",
        "f(1,)",
        "a\rb",
        "var a = 1",
        "let v = try { let a = 1\n} catch {\nnil\n}",
    ],
)
def test_invalid_source_is_refused(source):
    with pytest.raises(SyntaxRejected) as info:
        format_source(source)
    assert not info.value.result.valid
    assert info.value.result.diagnostics


def test_full_token_budget_omits_final_newline():
    # Exactly MAX_SYNTAX_TOKENS tokens: a final newline would be one too many.
    source = "x" + ";x" * ((MAX_SYNTAX_TOKENS - 1) // 2) + ";"
    result = analyze_syntax(source)
    assert result.valid
    assert len(result.tokens) == MAX_SYNTAX_TOKENS + 1
    formatted = format_tokens(source, result.tokens, MAX_SYNTAX_TOKENS)
    assert not formatted.endswith("\n")
    assert formatted.startswith("x; x; x")
    assert analyze_syntax(formatted).valid


def test_comment_only_source_gets_final_newline():
    assert format_source("// c") == "// c\n"
    assert format_source("/* c */  ") == "/* c */\n"


def test_formatting_by_statement_equals_one_pass_and_reuses_statements(monkeypatch):
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    formatted = []
    for path in sorted(fixtures.rglob("*.octoscript")):
        source = path.read_text(encoding="utf-8")
        result = analyze_syntax(source)
        if not result.valid:
            continue
        text = format_statements(result.statements, MAX_SYNTAX_TOKENS)
        assert text == format_tokens(source, result.tokens, MAX_SYNTAX_TOKENS), path
        formatted.append((result, text))
    # Formatting again formats no statement and answers the same.
    monkeypatch.setattr(formatter, "_formatted", _not_again)
    for result, text in formatted:
        assert format_statements(result.statements, MAX_SYNTAX_TOKENS) == text


def _not_again(statement):
    raise AssertionError("a kept statement was formatted again")


def _format_after_edit(before: str, after: str, monkeypatch) -> tuple[str, list[str]]:
    """Format `before`, edit it into `after` and format again: (the text,
    the statements formatted again, by their text)."""
    first = analyze_syntax(before)
    format_statements(first.statements, MAX_SYNTAX_TOKENS)
    second = analyze_syntax(after, previous=first)
    formatted = []
    real = formatter._formatted

    def counting(statement):
        # A window from the text's start makes a new head (empty here).
        if statement.text:
            formatted.append(statement.text)
        return real(statement)

    with monkeypatch.context() as patch:
        patch.setattr(formatter, "_formatted", counting)
        text = format_statements(second.statements, MAX_SYNTAX_TOKENS)
    assert text == format_source(after)
    return text, formatted


def test_statements_after_an_edit_are_reused_only_where_their_text_is_unchanged(monkeypatch):
    before = "let a = 1\nlet   b = 2\nfn f() {\n  a\n}\nlet c = 3\nlet d = 4\n"
    # An edit inside `b`'s statement: only it is formatted again (the one
    # before it is parsed again, but with the same text it is the old one).
    _, formatted = _format_after_edit(before, before.replace("2", "22"), monkeypatch)
    assert formatted == ["let   b = 22\n"]
    # A comment put before a statement on its line lies in the text of the
    # statement before it: that one is formatted again, not the next one.
    before = "let a = 1\n/* c\n*/ let b = 2\n  let c = 3\nlet d = 4\n"
    after = before.replace("  let c", "  /* y */let c")
    text, formatted = _format_after_edit(before, after, monkeypatch)
    assert "\n/* y */let c = 3\n" in text
    assert formatted == ["let b = 2\n  /* y */"]
    # Spaces before the first statement are the head's.
    text, formatted = _format_after_edit(before, "   " + before, monkeypatch)
    assert text.startswith("let a = 1\n")
    assert formatted == ["   "]


def test_statements_joined_on_a_line_are_formatted_plainly(monkeypatch):
    """A statement that leaves the formatter inside a line (`a; b`) is
    formatted in one pass with the ones after it up to a line break."""
    before = "let a = 1\nlet b = 2;let c=3;  let d = 4\nlet e = 5\n"
    text, formatted = _format_after_edit(before, before.replace("5", "55"), monkeypatch)
    assert text == "let a = 1\nlet b = 2; let c = 3; let d = 4\nlet e = 55\n"
    assert formatted == ["let e = 55\n"]


def test_formatting_after_an_edit_that_moves_the_tail_reads_statements_only(monkeypatch):
    """After an edit that changes the length every later statement moves: it
    is reused as it is, and formatting makes no whole-text view."""
    before = "".join(f"let v{index} = {index}\n" for index in range(200))
    after = before.replace("let v3 = 3\n", "let v3 = 33\n")
    first = analyze_syntax(before)
    format_statements(first.statements, MAX_SYNTAX_TOKENS)
    second = analyze_syntax(after, previous=first)
    formatted = []
    real = formatter._formatted
    monkeypatch.setattr(formatter, "_formatted", lambda item: formatted.append(1) or real(item))
    text = format_statements(second.statements, MAX_SYNTAX_TOKENS)
    assert text == after
    assert len(formatted) == 1
    assert "_views" not in vars(second)  # the whole-text tokens were never made


def test_a_text_formatted_past_the_output_budget_is_refused(monkeypatch):
    """Indentation can grow a text past MAX_FORMATTED_SOURCE_BYTES: statement
    by statement as in one pass, the formatter refuses it, and the document
    has no canonical text (the formatting request fails)."""
    source = "fn f() {\nlet a = 1\nlet b = 2\n}\nlet c = 3\n"
    canonical = format_source(source)
    monkeypatch.setattr(formatter, "MAX_FORMATTED_SOURCE_BYTES", len(canonical) - 1)
    result = analyze_syntax(source)
    with pytest.raises(FormattedSourceTooLarge):
        format_tokens(source, result.tokens, MAX_SYNTAX_TOKENS)
    with pytest.raises(FormattedSourceTooLarge):
        format_statements(result.statements, MAX_SYNTAX_TOKENS)
    analysis = DocumentAnalysis(source)
    assert analysis.valid and analysis.formatted is None
    with pytest.raises(FormattingRefused, match="exceeds the output budget"):
        canonical_text(analysis)
    monkeypatch.setattr(formatter, "MAX_FORMATTED_SOURCE_BYTES", len(canonical))
    assert DocumentAnalysis(source).formatted == canonical
