"""Shared helpers: analyse marked source, convert answers to plain tuples."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features.positions import PositionMap
from tests.conftest import strip_markers

URI = "file:///workspace/test.octoscript"


@dataclass
class Doc:
    source: str
    analysis: DocumentAnalysis
    positions: PositionMap
    marks: dict[str, int]
    catalogs: CatalogStore

    def at(self, mark: str = "c") -> int:
        return self.marks[mark]


def doc(marked: str, version: int | None = 7) -> Doc:
    """`@@name@@` markers become offsets; the cursor marker is usually `c`."""
    source, marks = strip_markers(marked)
    return Doc(
        source, DocumentAnalysis(source, version), PositionMap(source), marks, CatalogStore()
    )


def rng(value: types.Range | None) -> tuple[int, int, int, int] | None:
    if value is None:
        return None
    return (value.start.line, value.start.character, value.end.line, value.end.character)


def labels(answer: types.CompletionList) -> list[str]:
    return [item.label for item in answer.items]


def items(answer: types.CompletionList) -> list[tuple]:
    """(label, kind, edit range) per item."""
    return [(item.label, int(item.kind), rng(item.text_edit.range)) for item in answer.items]
