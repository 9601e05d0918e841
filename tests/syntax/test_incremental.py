"""Incremental re-analysis must equal a fresh analysis on every edit."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.syntax import parser as parser_module
from octoscript_lsp.syntax.check import SyntaxResult, analyze_syntax
from tests.conftest import quick_and_full

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BASES = sorted(path.read_text(encoding="utf-8") for path in FIXTURES.rglob("*.octoscript"))
BASES += [
    "let a = 1\nlet b = {x: 1,\n  y: 2}\nfn f(p) {\n    return p\n}\n",
    # CRLF line ends, inside and outside a block comment.
    "let a = 1\r\n/* one\r\ntwo */\r\nfn f(p) {\r\n    return p\r\n}\r\nlet b = a\r\n",
    '/* block\ncomment */\nlet s = "text"\n// line\nlet t = s\n',
    'use mod.tool\nlet r = tool.call("x", "y")\n} stray\nlet z = r\n',
    # The runtime parser's extra rejections, reused per top-level statement.
    "let a = {b: [1]}\nlet f = || {\n1\n} == 2\nif a.b = 1 {\n}\nlet g = |p| p\n",
]
FRAGMENTS = [
    "\n",
    " ",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    '"',
    "'",
    "/*",
    "*/",
    "//",
    "let ",
    "fn ",
    "x",
    "1",
    "1.",
    ".",
    "=",
    "+",
    "|",
    "try ",
    "catch ",
    "\r\n",
    "\r",
    "\\u{D800}",
    "é",
    "😀",
    "use mod.",
    "if x {\n",
    "}\n",
]


def snapshot(result: SyntaxResult) -> tuple:
    return (
        result.lex.tokens,
        result.lex.diagnostics,
        result.lex.truncated,
        result.lex.comments,
        result.parsed.diagnostics,
        result.parsed.truncated,
        result.parsed.first_diagnostic_offset,
        result.parsed.events,
        result.parsed.tree,
        result.valid,
        result.diagnostics,
    )


edits = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=12),
        st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join),
    ),
    min_size=1,
    max_size=4,
)


def apply(text: str, where: float, removed: int, inserted: str) -> str:
    position = int(where * len(text))
    return text[:position] + inserted + text[position + removed :]


def reparsed(base: str, edit, changes):
    """(incremental, fresh) results after each change, each incremental one
    reusing the one before; `edit(text, change)` makes the next text."""
    previous = analyze_syntax(base)
    text = base
    for change in changes:
        text = edit(text, *change)
        incremental = analyze_syntax(text, previous=previous)
        yield incremental, analyze_syntax(text)
        previous = incremental


def assert_same_parse(incremental, fresh) -> None:
    assert snapshot(incremental) == snapshot(fresh)
    assert incremental.parsed.units == fresh.parsed.units
    assert incremental.statements.starts == fresh.statements.starts
    assert incremental.parsed.unit_runtime_checks == fresh.parsed.unit_runtime_checks
    assert incremental.vm == fresh.vm


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), edits)
def test_incremental_equals_full(base: str, changes):
    for incremental, fresh in reparsed(base, apply, changes):
        assert_same_parse(incremental, fresh)


def _edited_lines(line_end: str, old: str, new: str):
    """(earlier, incremental) results for one edit of 2,000 `let` lines."""
    base = "".join(f"let v{index} = {index}{line_end}" for index in range(2000))
    previous = analyze_syntax(base)
    result = analyze_syntax(base.replace(old, new), previous=previous)
    assert snapshot(result) == snapshot(analyze_syntax(result.source))
    return previous, result


def test_edit_near_the_end_reuses_almost_everything():
    previous, result = _edited_lines("\n", "let v1999 = 1999", "let v1999 = 2000")
    # The statements before the edit are the very objects of the earlier version.
    assert result.statements.statements[1000] is previous.statements.statements[1000]
    assert result.statements.statements[0] is previous.statements.statements[0]
    assert result.statements.statements[1999] is not previous.statements.statements[1999]


def test_an_edit_in_a_crlf_document_keeps_the_statements_after_it():
    previous, result = _edited_lines("\r\n", "let v1000 = 1000", "let v1000 = 1001")
    # Past the edit, the very statements of the earlier version.
    assert result.statements.statements[1500] is previous.statements.statements[1500]
    assert result.statements.statements[-1] is previous.statements.statements[-1]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), edits, st.integers(min_value=1, max_value=60))
def test_incremental_equals_full_under_a_small_token_budget(base: str, changes, budget: int):
    previous = analyze_syntax(base, max_tokens=budget)
    text = base
    for where, removed, inserted in changes:
        text = apply(text, where, removed, inserted)
        incremental = analyze_syntax(text, max_tokens=budget, previous=previous)
        assert snapshot(incremental) == snapshot(analyze_syntax(text, max_tokens=budget))
        assert (
            incremental.lex.token_limit_offset
            == analyze_syntax(text, max_tokens=budget).lex.token_limit_offset
        )
        previous = incremental


def test_edit_near_the_start_reuses_the_tail():
    base = "".join(
        f"let v{index} = {{a: {index}}}\nfn f{index}(x) {{\n    return x\n}}\n"
        for index in range(300)
    )
    previous = analyze_syntax(base)
    edited = "let first = 0\n" + base.replace("let v1 = {a: 1}", "let v1 = {a: 1, b: 2}")
    result = analyze_syntax(edited, previous=previous)
    assert snapshot(result) == snapshot(analyze_syntax(edited))
    assert result.statements.starts == analyze_syntax(edited).statements.starts
    assert result.parsed.units == analyze_syntax(edited).parsed.units


def _incremental_equals_full_on_a_long_document(changes):
    base = "".join(
        f'let v{index} = [{index}, "s"]\nfn f{index}(x) {{\n    return x + v{index}\n}}\n'
        for index in range(300)
    )
    for incremental, fresh in reparsed(base, apply, changes):
        assert_same_parse(incremental, fresh)


(
    test_incremental_equals_full_on_a_long_document,
    test_incremental_equals_full_on_a_long_document_full_count,
) = quick_and_full(
    _incremental_equals_full_on_a_long_document,
    edits,
    quick=3,
    full=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _incremental_and_fresh(before: str, after: str) -> tuple[SyntaxResult, SyntaxResult]:
    return analyze_syntax(after, previous=analyze_syntax(before)), analyze_syntax(after)


def test_a_newline_moving_into_a_block_comment_is_not_reused():
    """Issue 15: `}\\np*/=`, insert `/*` at (0,1). The newline that started the old
    second step now sits inside a comment; only the token count still matches."""
    incremental, fresh = _incremental_and_fresh("}\np*/=", "}/*\np*/=")
    assert snapshot(incremental) == snapshot(fresh)
    assert [d.message for d in incremental.diagnostics][1:] == [
        "expected an expression",
        "expected an expression",
    ]
    assert incremental.diagnostics[2].offset == 8  # 1:4, the end of the text


def test_a_newline_moving_out_of_a_block_comment_is_not_reused():
    """Issue 15: `}/*\\no*/+r`, delete (0,1)-(0,3): the old step began at a newline
    inside a comment; reusing it left a stale tree (and a stale semantic token)."""
    incremental, fresh = _incremental_and_fresh("}/*\no*/+r", "}\no*/+r")
    assert snapshot(incremental) == snapshot(fresh)
    assert [node.kind for node in incremental.parsed.tree.children] == ["error"]


def _count_parsed_statements(monkeypatch) -> list[int]:
    """The token index of every statement the parser parses from now on."""
    parsed_statements: list[int] = []
    original = parser_module._Parser.parse_statement

    def counting(self):
        parsed_statements.append(self.index)
        return original(self)

    monkeypatch.setattr(parser_module._Parser, "parse_statement", counting)
    return parsed_statements


def test_the_tail_is_still_reused_when_the_lexer_state_agrees(monkeypatch):
    base = "".join(f"let v{index} = {index}\n" for index in range(200))
    previous = analyze_syntax(base)
    edited = "/* c */ " + base
    parsed_statements = _count_parsed_statements(monkeypatch)
    result = analyze_syntax(edited, previous=previous)
    # The window: the first two statements and the one it resumes at.
    assert len(parsed_statements) <= 3
    monkeypatch.undo()
    assert snapshot(result) == snapshot(analyze_syntax(edited))
    assert result.parsed.units == analyze_syntax(edited).parsed.units


# Replacing characters keeps every later offset: the unchanged tail's tokens
# and top-level steps are then shared with the earlier version, not copied.
same_length_edits = st.lists(
    st.tuples(st.floats(min_value=0, max_value=1), st.sampled_from(FRAGMENTS)),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), same_length_edits)
def test_incremental_equals_full_after_same_length_replacements(base: str, changes):
    def replace(text: str, where: float, inserted: str) -> str:
        return apply(text, where, len(inserted), inserted)[: len(text)]

    for incremental, fresh in reparsed(base, replace, changes):
        assert_same_parse(incremental, fresh)


def test_replacing_a_digit_shares_the_tail():
    base = "".join(f"let v{index} = {index}\n" for index in range(2000))
    previous = analyze_syntax(base)
    edited = base.replace("let v10 = 10", "let v10 = 19")
    result = analyze_syntax(edited, previous=previous)
    assert result.statements.statements[1500] is previous.statements.statements[1500]
    assert result.statements.starts[1500] == previous.statements.starts[1500]
    assert snapshot(result) == snapshot(analyze_syntax(edited))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), edits)
def test_line_starts_follow_every_edit(base: str, changes):
    for incremental, fresh in reparsed(base, apply, changes):
        assert incremental.lines.line_starts == fresh.lines.line_starts


# Typing at the start of the text: single characters inserted and deleted
# again (backspace), on the first line or before it. No newline precedes the
# edit, so the lexer restarts at the text start and re-adopts the tail; every
# later token, node and event is the previous version's, moved on read.
keystrokes = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=14),  # offset into the first line (clamped)
        st.one_of(st.sampled_from(FRAGMENTS), st.just("")),  # "" = backspace
    ),
    min_size=1,
    max_size=12,
)


def _first_line_edit(text: str, column: int, inserted: str) -> str:
    line_end = text.find("\n")
    position = min(column, line_end if line_end >= 0 else len(text))
    if inserted:
        return text[:position] + inserted + text[position:]
    return text[: max(position - 1, 0)] + text[position:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), keystrokes)
def test_typing_on_the_first_line_equals_full(base: str, strokes):
    for incremental, fresh in reparsed(base, _first_line_edit, strokes):
        assert_same_parse(incremental, fresh)


# Single-character inserts and deletes spread over the text: each new place
# adds stretches to the moved sequences, past MAX_MOVED_PIECES too.
scattered_keystrokes = st.lists(
    st.tuples(st.floats(min_value=0, max_value=1), st.sampled_from([*FRAGMENTS, ""])),
    min_size=1,
    max_size=30,
)


def _scattered_typing_on_a_long_document_equals_full(strokes):
    base = "".join(
        f"let v{index} = {{a: {index}}}\nfn f{index}(x) {{\n    return |p| {{ p }} + x\n}}\n"
        for index in range(120)
    )

    def keystroke(text: str, where: float, inserted: str) -> str:
        return apply(text, where, 0 if inserted else 1, inserted)

    for incremental, fresh in reparsed(base, keystroke, strokes):
        assert_same_parse(incremental, fresh)


(
    test_scattered_typing_on_a_long_document_equals_full,
    test_scattered_typing_on_a_long_document_equals_full_full_count,
) = quick_and_full(
    _scattered_typing_on_a_long_document_equals_full,
    scattered_keystrokes,
    quick=3,
    full=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_typing_on_the_first_line_reparses_one_statement(monkeypatch):
    base = "use mod.tool\n" + "".join(f"let v{index} = {index}\n" for index in range(400))
    previous = analyze_syntax(base)
    parsed_statements = _count_parsed_statements(monkeypatch)
    typed = analyze_syntax("use mod.toqol\n" + base[13:], previous=previous)
    deleted = analyze_syntax(base, previous=typed)
    # Each time the first statement, and the second as the token after it.
    assert len(parsed_statements) == 4
    monkeypatch.undo()
    # Past the first line every statement was kept, only its start moved.
    assert typed.statements.statements[1:] == previous.statements.statements[1:]
    assert typed.statements.starts[5] == previous.statements.starts[5] + 1
    assert typed.lex.tokens[-2].start == len(base)  # the last newline, moved
    assert snapshot(typed) == snapshot(analyze_syntax(typed.source))
    # Backspace: the first statement's text again; the rest are the same objects.
    assert deleted.statements.statements[0].key == previous.statements.statements[0].key
    assert deleted.statements.statements[1:] == previous.statements.statements[1:]
    assert deleted.lex.tokens == previous.lex.tokens
    assert snapshot(deleted) == snapshot(previous)


def test_an_edit_that_joins_the_token_before_it_reparses_the_statement_before():
    """Deleting `}` from `/}/` makes `//` a comment: the token that ended
    where the edit starts changes, and so does the statement before it."""
    base = (
        '/* head */  let s = "text" // line\n\n// alone\n  let t = s\nfn g() {\n return |x| x\n}\n'
    )
    broken = base.replace("// alone", "/}/ alone")
    previous = analyze_syntax(broken, previous=analyze_syntax(base))
    undone = analyze_syntax(base, previous=previous)
    assert snapshot(undone) == snapshot(analyze_syntax(base))
    assert undone.valid
