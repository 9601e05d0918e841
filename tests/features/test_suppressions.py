"""Suppression comments in the editor: the rule `check` uses, the unused-comment
hint, and the "Ignore `CODE` on this line" quick fix."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.suppressions import reported
from octoscript_lsp.cli.findings import findings_of
from octoscript_lsp.cli.rules import Rules
from octoscript_lsp.features import diagnostics
from octoscript_lsp.features.code_actions import code_actions
from octoscript_lsp.features.positions import PositionMap
from tests.features.test_advisory import MODULES, store

URI = "file:///work/s.octoscript"
TOOLS = [{"name": "text.echo", "format": "text"}]


def editor(text: str, catalogs=None) -> list[tuple]:
    """(line, column, code, severity, tags) of what the editor shows, 1-based columns."""
    analysis, positions = DocumentAnalysis(text), PositionMap(text)
    found = diagnostics.syntax_diagnostics(analysis, positions)
    if catalogs is not None:
        found += diagnostics.advisory_diagnostics(analysis, positions, catalogs)
    return sorted(
        (
            item.range.start.line + 1,
            item.range.start.character + 1,
            item.code,
            int(item.severity),
            tuple(item.tags or ()),
        )
        for item in found
    )


def cli(text: str, catalogs=None) -> list[tuple[int, int, str | None]]:
    found = findings_of("s", DocumentAnalysis(text), catalogs, Rules(report_unused=True))
    return sorted((item.line, item.column, item.code) for item in found.all)


HINT = int(types.DiagnosticSeverity.Hint)
ERROR = int(types.DiagnosticSeverity.Error)
FADED = (types.DiagnosticTag.Unnecessary,)


def test_syntax_diagnostics_leave_out_what_a_comment_silences() -> None:
    text = (
        "let a = [1,] // octoscript: ignore[trailing-comma]\n"
        "let b = [2,] // octoscript: ignore[reserved-word]\n"
        "// octoscript: ignore\n"
        "let c = [3,]\n"
    )
    assert editor(text) == [(2, 12, "trailing-comma", ERROR, ())]
    # Without catalogs the second pass still runs: it tells the unused comments.
    assert diagnostics.needs_second_pass(DocumentAnalysis(text))
    analysis = DocumentAnalysis(text)
    unused = diagnostics.advisory_diagnostics(analysis, PositionMap(text), store())
    assert [(item.code, item.severity, item.tags) for item in unused] == [
        ("unused-suppression", types.DiagnosticSeverity.Hint, [types.DiagnosticTag.Unnecessary])
    ]
    assert unused[0].range == types.Range(
        start=types.Position(line=1, character=13), end=types.Position(line=1, character=49)
    )
    assert not diagnostics.needs_second_pass(DocumentAnalysis("let a = [1,]\n"))


def test_advice_and_syntax_are_screened_together() -> None:
    catalogs = store(toolCatalog=TOOLS)
    text = (
        "use mod.tool\n"
        'let a = tool.call("text.ecko", "x") // octoscript: ignore[unlisted]\n'
        'let b = tool.call("text.echo", "x") // octoscript: ignore[unlisted-tool]\n'
        'let c = tool.call("nope", "x")\n'
    )
    shown = editor(text, catalogs)
    assert [(line, code) for line, _, code, _, _ in shown] == [
        (3, "unused-suppression"),
        (4, "unlisted-tool"),
    ]
    assert shown[0][3:] == (HINT, FADED)
    assert [(line, column, code) for line, column, code, _, _ in shown] == cli(text, catalogs)


@pytest.mark.parametrize(
    "text",
    [
        "let a = 'x' // octoscript: ignore[single-quoted]\nlet b = [1,]\n",
        "var a = 1 // octoscript: ignore[reserved]\n",
        "// octoscript: ignore[trailing]\r\nlet a = [1,]\r\nlet b = [2,]\r\n",
        'let s = "// octoscript: ignore"; let a = [1,]\n',
        "let a = [1,] /* octoscript: ignore */\n",
        "let a = [1,]\n// octoscript: ignore\n",
    ],
)
def test_editor_and_check_agree(text: str) -> None:
    shown = [(line, column, code) for line, column, code, _, _ in editor(text, store())]
    assert shown == cli(text, store())


def ignore_actions(text: str, line: int, catalogs=None) -> list[tuple[str, str]]:
    """(title, fixed text) of each ignore fix offered on 0-based `line`."""
    positions = PositionMap(text)
    start = positions.offset(types.Position(line=line, character=0))
    found = code_actions(DocumentAnalysis(text), positions, URI, start, start, catalogs)
    out = []
    for action in found:
        if not action.title.startswith("Ignore `"):
            continue
        assert action.kind == types.CodeActionKind.QuickFix and action.diagnostics
        (edit,) = action.edit.changes[URI]
        begin, end = positions.offset(edit.range.start), positions.offset(edit.range.end)
        out.append((action.title, text[:begin] + edit.new_text + text[end:]))
    return out


@pytest.mark.parametrize(
    ("text", "line", "fixed"),
    [
        # A new comment at the end of the line (trailing blanks replaced).
        ("let a = [1,]   \n", 0, "let a = [1,]  // octoscript: ignore[trailing-comma]\n"),
        # An existing comment for the line is extended, alone above or at the end.
        (
            "// octoscript: ignore[reserved-word ]\nlet a = [1,]\n",
            1,
            "// octoscript: ignore[reserved-word, trailing-comma ]\nlet a = [1,]\n",
        ),
        (
            "let a = [1,] // octoscript: ignore[x]\n",
            0,
            "let a = [1,] // octoscript: ignore[x, trailing-comma]\n",
        ),
        # The line ends in a comment: the new one goes alone above, indented.
        (
            "fn f() {\n    return [1,] // why\n}\n",
            1,
            "fn f() {\n    // octoscript: ignore[trailing-comma]\n    return [1,] // why\n}\n",
        ),
        ("let a = [1,]\r\n", 0, "let a = [1,]  // octoscript: ignore[trailing-comma]\r\n"),
        ("let a = [1,]", 0, "let a = [1,]  // octoscript: ignore[trailing-comma]"),
    ],
)
def test_ignore_fix_adds_or_extends_the_comment(text: str, line: int, fixed: str) -> None:
    ((title, result),) = ignore_actions(text, line)
    assert title == "Ignore `trailing-comma` on this line"
    assert result == fixed
    # Applied, it silences exactly that finding: the line reports nothing more.
    assert line + 1 not in [
        item.line for item in findings_of("s", DocumentAnalysis(result), None).all
    ]


def test_ignore_fix_for_catalog_advice_and_one_per_code() -> None:
    catalogs = store(toolCatalog=TOOLS, moduleCatalog=MODULES)
    text = 'use mod.tool\nlet a = [tool.call("text.ecko", "x"), tool.call("text.ekko", "y")]\n'
    assert ignore_actions(text, 1, catalogs) == [
        (
            "Ignore `unlisted-tool` on this line",
            text.replace('"y")]\n', '"y")]  // octoscript: ignore[unlisted-tool]\n'),
        )
    ]
    assert (
        reported(DocumentAnalysis(ignore_actions(text, 1, catalogs)[0][1]), catalogs).advice == []
    )
    # A silenced finding gets no fix; neither does a line with none.
    assert ignore_actions("let a = [1,] // octoscript: ignore\n", 0) == []
    assert ignore_actions("let a = 1\n", 0) == []


PIECES = [
    "let a = [1,]",
    "var b = 1",
    "let c = 'x'",
    'let d = "s // octoscript: ignore"',
    "  let e = (1,)",
    "// note",
    "/* block\n still */",
    "let f = [2,] /* tail */",
    "let g = [3,] // why",
    "// octoscript: ignore[reserved-word]",
    "let h = [4,] // octoscript: ignore[x]",
    "let i = 1",
    "",
]


@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
)
@settings(max_examples=150, deadline=None)
def test_each_ignore_fix_silences_exactly_its_findings(pieces: list[str], newline: str) -> None:
    """Applying one offered ignore fix removes that line's findings of its code and
    changes nothing else `check` reports."""
    text = newline.join(pieces) + newline
    before = findings_of("s", DocumentAnalysis(text), None).all
    positions = PositionMap(text)
    analysis = DocumentAnalysis(text)
    offered = 0
    for action in code_actions(analysis, positions, URI, 0, len(text), None):
        if not action.title.startswith("Ignore `"):
            continue
        (diagnostic,) = action.diagnostics
        code, line = diagnostic.code, diagnostic.range.start.line + 1
        (edit,) = action.edit.changes[URI]
        start, end = positions.offset(edit.range.start), positions.offset(edit.range.end)
        fixed = text[:start] + edit.new_text + text[end:]
        after = findings_of("s", DocumentAnalysis(fixed), None).all
        # A comment put alone above moves the fixed line and those after it down one.
        moved = 1 if edit.new_text.endswith(newline) else 0
        back = [(item.line - moved if item.line > line else item.line, item.code) for item in after]
        expected = [
            (item.line, item.code) for item in before if (item.line, item.code) != (line, code)
        ]
        offered += 1
        assert sorted(back) == sorted(expected), (text, action.title)
    # Every shown finding's line and code got its fix.
    assert offered == len({(item.line, item.code) for item in before})
