"""textDocument/formatting: one whole-document edit, or a refusal."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..limits import MAX_SYNTAX_TOKENS
from ..syntax.formatter import FormattedSourceTooLarge, format_tokens
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
    try:
        return format_tokens(analysis.source, syntax.tokens, MAX_SYNTAX_TOKENS)
    except FormattedSourceTooLarge as error:
        raise FormattingRefused("formatted source exceeds the output budget") from error


def format_document(analysis: DocumentAnalysis, positions: PositionMap) -> list[types.TextEdit]:
    formatted = canonical_text(analysis)
    if formatted == analysis.source:
        return []
    return [types.TextEdit(range=positions.range(0, len(analysis.source)), new_text=formatted)]
