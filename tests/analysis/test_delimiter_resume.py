"""The delimiter scan resumed at a statement (after statements that settle
it, `sites.settles`) answers as the scan from the top, at every offset."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.sites import DelimiterIndex, open_delimiters_before
from tests.syntax.test_incremental import BASES

FRAGMENTS = ["(", ")", "{", "}", "[", "]", ",", '"', "/*", "*/", "//", "\n", "\r", "\r\n"]
FRAGMENTS += ["f(", "x", '"a', "let ", "|x| ", "\\", "é", "😀"]

edits = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=4),
        st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), edits)
def test_a_resumed_scan_answers_as_the_scan_from_the_top(base, changes):
    text, previous = base, DocumentAnalysis(base, 0)
    for version, (where, removed, inserted) in enumerate(changes, 1):
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + removed :]
        analysis = DocumentAnalysis(text, version, previous)
        from_the_top = DelimiterIndex(text, analysis.regions)
        for offset in range(len(text) + 1):
            assert open_delimiters_before(text, offset, analysis.delimiters) == (
                open_delimiters_before(text, offset, from_the_top)
            ), (text, offset)
        previous = analysis


def test_the_scan_resumes_at_the_statement_after_settled_ones():
    text = 'let a = f(1, "(")\nlet b = g(2,\n'
    analysis = DocumentAnalysis(text, 1)
    assert analysis._delimiter_scan_start(len(text) - 1) == text.index("let b")
    broken = "let a = f(1\nlet b = g(2,\n"
    assert DocumentAnalysis(broken, 1)._delimiter_scan_start(len(broken) - 1) == 0
