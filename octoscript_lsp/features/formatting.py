"""textDocument/formatting: one whole-document edit, or a refusal."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from .positions import PositionMap


class FormattingRefused(Exception):
    """The source cannot be formatted; the server answers RequestFailed."""


def canonical_text(analysis: DocumentAnalysis) -> str:
    """The whole document formatted, or FormattingRefused."""
    if analysis.too_large is not None:
        raise FormattingRefused(str(analysis.too_large))
    syntax = analysis.syntax
    if syntax is None or not syntax.valid:
        raise FormattingRefused("cannot format source with syntax errors")
    formatted = analysis.formatted  # computed once per version
    if formatted is None:
        raise FormattingRefused("formatted source exceeds the output budget")
    return formatted


def format_document(analysis: DocumentAnalysis, positions: PositionMap) -> list[types.TextEdit]:
    formatted = canonical_text(analysis)
    if formatted == analysis.source:
        return []
    return [types.TextEdit(range=positions.range(0, len(analysis.source)), new_text=formatted)]
