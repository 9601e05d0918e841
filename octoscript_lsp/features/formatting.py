"""textDocument/formatting and rangeFormatting: edits towards the canonical
text (the whole-document formatter's), or a refusal.

Range formatting copies the lines of the top-level statements a range
touches from the canonical text. A statement is touched when its span meets
the range (ends included); statements that share a line with a touched one
are taken too, so whole lines are replaced. The answer is one edit trimmed
to what changes, inside those lines; nothing else moves. Invalid source is
refused (RequestFailed) either way.
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..syntax.check import SourceTooLarge, SyntaxRejected, analyze_syntax, format_source
from ..syntax.formatter import FormattedSourceTooLarge
from ..syntax.tree import Node
from .positions import PositionMap, changed_span


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


def format_range(
    analysis: DocumentAnalysis, positions: PositionMap, range_start: int, range_end: int
) -> list[types.TextEdit]:
    formatted = canonical_text(analysis)
    if formatted == analysis.source:
        return []
    source = analysis.source
    assert analysis.syntax is not None  # canonical_text refuses otherwise
    before = analysis.syntax.parsed.tree.children
    try:
        after = analyze_syntax(formatted).parsed.tree.children
    except SourceTooLarge as error:
        # Formatting may grow a text past the source budget (indentation).
        raise FormattingRefused("the formatted document exceeds the source budget") from error
    if len(before) != len(after):
        raise FormattingRefused("the formatter changed the statement structure")
    touched = [
        index
        for index, node in enumerate(before)
        if node.start <= range_end and range_start <= node.end
    ]
    if not touched:
        return []
    first, last = _whole_lines(source, formatted, before, after, touched[0], touched[-1])
    old_start, old_end = _line_span(source, before[first].start, before[last].end)
    new_start, new_end = _line_span(formatted, after[first].start, after[last].end)
    replacement = formatted[new_start:new_end]
    if "\r\n" in source[old_start:old_end]:
        # The canonical text is LF; keep a CRLF document's lines CRLF.
        replacement = replacement.replace("\n", "\r\n")
    if not _agrees(source, formatted, old_start, old_end, replacement):
        raise FormattingRefused("the range cannot be formatted on its own")
    if source[old_start:old_end] == replacement:
        return []
    start, end, text = changed_span(source[old_start:old_end], replacement)
    edit_range = positions.range(old_start + start, old_start + end)
    return [types.TextEdit(range=edit_range, new_text=text)]


def _whole_lines(
    source: str, formatted: str, before: list[Node], after: list[Node], first: int, last: int
) -> tuple[int, int]:
    """Widen [first, last] over statements sharing a line, in either text."""
    while first > 0 and (
        _same_line(source, before[first - 1].end, before[first].start)
        or _same_line(formatted, after[first - 1].end, after[first].start)
    ):
        first -= 1
    while last + 1 < len(before) and (
        _same_line(source, before[last].end, before[last + 1].start)
        or _same_line(formatted, after[last].end, after[last + 1].start)
    ):
        last += 1
    return first, last


def _same_line(text: str, end: int, start: int) -> bool:
    return "\n" not in text[end:start]


def _line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """From the start of `start`'s line to the end of `end`'s line (before CR LF)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end == -1:
        line_end = len(text)
    elif line_end > end and text[line_end - 1] == "\r":
        line_end -= 1
    return line_start, line_end


def _agrees(source: str, formatted: str, start: int, end: int, replacement: str) -> bool:
    """The edited document is valid and formats to the same canonical text."""
    edited = source[:start] + replacement + source[end:]
    try:
        return format_source(edited) == formatted
    except (SyntaxRejected, SourceTooLarge, FormattedSourceTooLarge):
        return False
