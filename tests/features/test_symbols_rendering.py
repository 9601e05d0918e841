"""The outline reuses rendered entries across versions only where they still hold."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.features.symbols import document_symbols

BASE = "".join(
    f"fn f{index}(x) {{\n    return x\n}}\nlet v{index} = f{index}(1)\n" for index in range(40)
)


def fresh(text: str) -> list:
    return list(document_symbols(DocumentAnalysis(text), PositionMap(text)))


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text.replace("return x\n}\nlet v3", "return 2\n}\nlet v3"),  # same length
        lambda text: "\n" + text,  # every line moves
        lambda text: text.replace("let v5 = f5(1)", "let v5 = f5(1); let w = 2"),
        lambda text: text.replace("fn f7(x) {\n    return x\n}\n", ""),
        lambda text: text.replace("let v2 = f2(1)\n", "let v2 = f2(1)\n\n"),  # lines below move
    ],
)
def test_rendered_entries_equal_a_fresh_outline(edit):
    rendering: dict = {}
    first = DocumentAnalysis(BASE, 1)
    assert list(document_symbols(first, PositionMap(BASE), rendering)) == fresh(BASE)
    text = edit(BASE)
    second = DocumentAnalysis(text, 2, first)
    answer = list(document_symbols(second, PositionMap(text), rendering))
    assert answer == fresh(text)
    assert len(answer) == len(second.outline) > 70


def test_unmoved_declarations_keep_their_entries():
    rendering: dict = {}
    first = DocumentAnalysis(BASE, 1)
    before = list(document_symbols(first, PositionMap(BASE), rendering))
    text = BASE.replace("let v30 = f30(1)", "let v30 = f30(7)")
    after = list(document_symbols(DocumentAnalysis(text, 2, first), PositionMap(text), rendering))
    assert after[0] is before[0] and after[-1] is before[-1]
