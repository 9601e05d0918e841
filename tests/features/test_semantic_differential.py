"""Incremental semantic tokens (full and delta) and documentSymbol against a
fresh open of the same text, over random edits made of lone CRs, CRLFs,
LFs and block-comment marks, in each position encoding."""

from __future__ import annotations

from hypothesis import HealthCheck
from hypothesis import strategies as st

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features import semantic_delta
from octoscript_lsp.features.positions import UTF8, UTF16, UTF32, PositionMap
from octoscript_lsp.features.semantic_tokens import full, full_items, range_tokens
from octoscript_lsp.features.symbols import document_symbols_wire
from tests.conftest import quick_and_full
from tests.features.semantic_reference import reference_full, reference_range
from tests.features.test_semantic_delta import apply_answer
from tests.features.test_semantic_tokens import COMMENTED
from tests.syntax.test_incremental import apply

_PIECES = ["\r", "\r\n", "\n", "/*", "*/", " ", "x", "let y = 1", "fn g(p) { p }", "é😀"]
EDITS = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=4),
        st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4).map("".join),
        st.booleans(),
    ),
    min_size=1,
    max_size=10,
)
_LINES = (
    "use mod.std.math\nlet a = 1\nfn f(p) {\n    return p + a + math.pi\n}\n"
    "/* note */\nlet b = f(a)\nlet c = [b, 2] // end\n"
)
BASES = [_LINES, _LINES.replace("\n", "\r\n"), _LINES.replace("\n", "\r"), COMMENTED]


def _answers_equal_a_fresh_open(base: str, changes, encoding):
    previous = DocumentAnalysis(base, 0)
    last, answer = semantic_delta.full(None, full_items(previous, encoding))
    held = apply_answer([], answer)
    text = base
    for version, (where, removed, inserted, asked) in enumerate(changes, start=1):
        text = apply(text, where, removed, inserted)
        current = DocumentAnalysis(text, version, previous)
        previous = current
        if not asked and version < len(changes):
            continue  # versions no request reads: the next one comes over several edits
        fresh = DocumentAnalysis(text)
        expected = reference_full(fresh, encoding).data
        items = full_items(current, encoding)
        last, answer = semantic_delta.delta(last, last.result_id, items)
        held = apply_answer(held, answer)
        assert held == expected
        assert full(current, encoding).data == expected
        middle = len(text) // 2
        assert range_tokens(current, middle - 30, middle + 30, encoding) == reference_range(
            fresh, middle - 30, middle + 30, encoding
        )
        positions = PositionMap(text, None, encoding)
        assert document_symbols_wire(current, positions) == document_symbols_wire(
            fresh, PositionMap(text, None, encoding)
        )


(
    test_answers_over_line_end_and_comment_edits_equal_a_fresh_open,
    test_answers_over_line_end_and_comment_edits_equal_a_fresh_open_full_count,
) = quick_and_full(
    _answers_equal_a_fresh_open,
    st.sampled_from(BASES),
    EDITS,
    st.sampled_from([UTF8, UTF16, UTF32]),
    quick=40,
    full=600,
    # The case: lone CRs, then a statement commented out and back in.
    examples=[
        (BASES[0], [(0.3, 0, "\r\r", True), (0.5, 0, "/*", False), (0.7, 0, "*/", True)], UTF16),
        (BASES[2], [(0.45, 1, "\r/*", True), (0.8, 0, "*/\r", True)], UTF8),
    ],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
