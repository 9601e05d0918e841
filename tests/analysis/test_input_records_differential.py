"""The input-record key site, read through `record_entries`, answers as the
former text scanner did (`former_input_record_scan.py`) on random literals
typed up to every offset.

Left out: text where the lexer's operator run takes a comment opener (`+//`,
where the trivia reader and the lexer disagree) and bare carriage returns
(a line break to the text scanner, dropped by the lexer)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.input_records import input_record_site
from tests.analysis import former_input_record_scan as former
from tests.syntax.test_trivia import _comment_opener_after_operator

CALL = "use mod.app.weather\nweather.current("
PIECES = st.sampled_from(
    [
        *("a", "b", "ab", "x1", "let", "a: ", "b: {", "x: {", "a: 1", "a:-"),
        *(" ", "\t", "\n", "\r\n", "\f", "\v"),
        *(":", "::", ":-", ",", "=", "+", "-", "/", "*", "@", "é", "\\"),
        *("{", "}", "}}", "(", ")", "[", "]", "1"),
        *('"s"', '"', '"x\\"'),
        *("/*c*/", "/*\n*/", "// c\n", "/**/", "*/"),
    ]
)


def _answer(found) -> tuple | None:
    return found and (found.callee, found.field, found.parent, found.declared)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=12), st.sampled_from(["", ")", "})", "\n"]))
def test_answers_as_the_text_scanner_did(pieces, tail):
    source = CALL + "{" + "".join(pieces) + tail
    assume(not _comment_opener_after_operator(source))
    analysis = DocumentAnalysis(source, 1)
    tokens, regions, delimiters = analysis.syntax.tokens, analysis.regions, analysis.delimiters
    for offset in range(len(CALL) + 1, len(source) + 1):
        expected = former.input_record_site(source, regions, offset, delimiters)
        found = input_record_site(source, regions, tokens, offset, delimiters)
        assert _answer(found) == _answer(expected), (source, offset)
