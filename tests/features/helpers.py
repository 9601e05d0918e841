"""Shared helpers: analyse marked source, convert answers to plain tuples."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from lsprotocol import types
from lsprotocol.converters import get_converter

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features.completion import complete_wire
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.features.wire import WireDict, WireText
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


@functools.cache
def _converter():
    return get_converter()


def complete(
    analysis: DocumentAnalysis,
    positions: PositionMap,
    offset: int | None,
    catalogs: CatalogStore,
    prefill: bool = False,
) -> types.CompletionList:
    """The completion answer as lsprotocol objects (the server sends large
    lists in wire form)."""
    answer = complete_wire(analysis, positions, offset, catalogs, prefill)
    if isinstance(answer, WireText):
        return _converter().structure(json.loads(answer), types.CompletionList)
    if isinstance(answer, WireDict):
        return _converter().structure(dict(answer), types.CompletionList)
    return answer
