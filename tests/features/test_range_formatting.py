"""textDocument/rangeFormatting: only the touched top-level statements change."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.formatting import FormattingRefused, format_range
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.syntax.check import analyze_syntax, format_source
from tests.conftest import FIXTURES

MESSY = "let a=1\n\nfn f(x,y){\nlet z=x+y\n  z\n}\nfn g( p ){\np\n}\n"


def apply(text: str, start: int, end: int) -> tuple[str, list]:
    positions = PositionMap(text)
    edits = format_range(DocumentAnalysis(text), positions, start, end)
    for edit in reversed(edits):
        first = positions.offset(edit.range.start)
        last = positions.offset(edit.range.end)
        text = text[:first] + edit.new_text + text[last:]
    return text, edits


def test_one_messy_function_is_formatted_and_nothing_else():
    inside = MESSY.index("let z")
    after, edits = apply(MESSY, inside, inside)
    assert after == ("let a=1\n\nfn f(x, y) {\n    let z = x + y\n    z\n}\nfn g( p ){\np\n}\n")
    assert len(edits) == 1
    assert 2 <= edits[0].range.start.line and edits[0].range.end.line <= 5


def test_a_range_over_two_statements_formats_both():
    after, _ = apply(MESSY, 0, MESSY.index("fn f"))
    assert after.startswith("let a = 1\n\nfn f(x, y) {\n    let z = x + y\n")
    assert after.endswith("fn g( p ){\np\n}\n")


def test_statements_sharing_a_line_go_together():
    text = "let a=1; let b=2\nlet c=3\n"
    after, _ = apply(text, 0, 0)
    assert after == "let a = 1; let b = 2\nlet c=3\n"


def test_gaps_and_canonical_statements_give_no_edit():
    assert apply(MESSY, 8, 8)[1] == []  # the blank line between statements
    canonical = format_source(MESSY)
    assert apply(canonical, 0, len(canonical))[1] == []


def test_invalid_source_is_refused():
    with pytest.raises(FormattingRefused):
        apply("let a = \n", 0, 3)


def test_crlf_lines_stay_crlf():
    text = "let a=1\r\nfn f(x,y){\r\nx\r\n}\r\n"
    after, edits = apply(text, text.index("fn"), text.index("fn"))
    assert after == "let a=1\r\nfn f(x, y) {\r\n    x\r\n}\r\n"


def test_trailing_comments_and_indented_statements():
    text = "   let a=1 // note\nlet b=2\n"
    assert apply(text, 4, 4)[0] == "let a = 1 // note\nlet b=2\n"


def mess(text: str) -> str:
    """Strip optional spaces and indentation: valid, rarely canonical."""
    text = re.sub(r"(?m)^[ ]+", "", text)
    return re.sub(r" ([=+*<>]) ", r"\1", text).replace(", ", ",")


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.octoscript")), ids=lambda p: p.stem)
def test_each_statement_gets_the_whole_document_formatters_lines(path: Path):
    source = mess(path.read_text(encoding="utf-8"))
    syntax = analyze_syntax(source)
    if not syntax.valid:
        pytest.skip("the fixture is invalid (or messing made it so)")
    canonical = format_source(source)
    canonical_lines = set(canonical.split("\n"))
    for node in syntax.parsed.tree.children[:40]:
        after, edits = apply(source, node.start, node.start)
        # The result still formats to the same canonical text ...
        assert format_source(after) == canonical
        # ... and the edit stays within the statement's lines.
        for edit in edits:
            assert edit.range.start.line >= source.count("\n", 0, node.start)
            assert edit.range.end.line <= source.count("\n", 0, node.end)
        first_line = after.split("\n")[source.count("\n", 0, node.start)]
        assert first_line in canonical_lines
