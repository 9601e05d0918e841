"""textDocument/foldingRange and textDocument/selectionRange from the syntax tree.

Folding: `{}` blocks, records, arrays and call argument lists that span lines
(folded up to the line before their closer, so the closer stays visible), runs
of two or more whole-line `//` comments and multi-line block comments. At most
one range starts on any line; the outermost construct wins.

Selection: for each offset, the token (or comment) under it, then every tree
node containing it from the innermost out to the program, equal ranges merged.
"""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..limits import MAX_SELECTION_RANGE_DEPTH
from ..syntax.tokens import Kind, Token
from ..syntax.tree import Node
from ..syntax.trivia import is_line_comment
from .positions import PositionMap

_BRACKETED = frozenset({"block", "record", "array", "call"})


# --------------------------------------------------------------------------- folding


def folding_ranges(analysis: DocumentAnalysis) -> list[types.FoldingRange]:
    syntax = analysis.syntax
    if syntax is None:
        return []
    line_starts = syntax.lines.line_starts
    found: dict[int, types.FoldingRange] = {}
    for node in syntax.parsed.tree.walk():
        if node.kind in _BRACKETED:
            _add_bracketed(found, node, syntax.tokens, line_starts)
    for folding in _comment_ranges(analysis.source, syntax.lex.comments, line_starts):
        found.setdefault(folding.start_line, folding)
    return [found[line] for line in sorted(found)]


def _line_of(line_starts: list[int], offset: int) -> int:
    return bisect_right(line_starts, offset) - 1


def _add_bracketed(
    found: dict[int, types.FoldingRange],
    node: Node,
    tokens: list[Token],
    line_starts: list[int],
) -> None:
    opener = _opening_offset(node, tokens)
    if opener is None or node.end <= opener:
        return
    start_line = _line_of(line_starts, opener)
    end_line = _line_of(line_starts, node.end - 1) - 1
    if end_line > start_line and start_line not in found:
        found[start_line] = _folding(start_line, end_line, types.FoldingRangeKind.Region)


def _opening_offset(node: Node, tokens: list[Token]) -> int | None:
    """Offset of the `(` of a call, else of the node's own opening bracket."""
    if node.kind == "call":
        if node.token < 0 or tokens[node.token].kind is not Kind.LPAREN:
            return None
        return tokens[node.token].start
    return node.start


def _comment_ranges(
    source: str, comments: list[tuple[int, int]], line_starts: list[int]
) -> list[types.FoldingRange]:
    ranges: list[types.FoldingRange] = []
    run_start = run_end = -2
    for start, end in comments:
        line = _line_of(line_starts, start)
        if not is_line_comment(source, start):
            last = _line_of(line_starts, max(start, end - 1))
            if last > line:
                ranges.append(_folding(line, last, types.FoldingRangeKind.Comment))
            continue
        if source[line_starts[line] : start].strip(" \t\f"):  # not a whole-line comment
            continue
        if line == run_end + 1:
            run_end = line
            continue
        if run_end > run_start:
            ranges.append(_folding(run_start, run_end, types.FoldingRangeKind.Comment))
        run_start = run_end = line
    if run_end > run_start:
        ranges.append(_folding(run_start, run_end, types.FoldingRangeKind.Comment))
    ranges.sort(key=lambda item: item.start_line)
    return ranges


def _folding(start_line: int, end_line: int, kind: types.FoldingRangeKind) -> types.FoldingRange:
    return types.FoldingRange(start_line=start_line, end_line=end_line, kind=kind)


# --------------------------------------------------------------------------- selection


def selection_ranges(
    analysis: DocumentAnalysis, positions: PositionMap, offsets: list[int]
) -> list[types.SelectionRange]:
    """One nested SelectionRange per offset, innermost first."""
    return [_selection_at(analysis, positions, offset) for offset in offsets]


def _selection_at(
    analysis: DocumentAnalysis, positions: PositionMap, offset: int
) -> types.SelectionRange:
    spans = _spans_at(analysis, offset)
    if not spans:
        return types.SelectionRange(range=positions.range(offset, offset))
    selection: types.SelectionRange | None = None
    for start, end in reversed(spans):
        selection = types.SelectionRange(range=positions.range(start, end), parent=selection)
    assert selection is not None
    return selection


def _spans_at(analysis: DocumentAnalysis, offset: int) -> list[tuple[int, int]]:
    """Innermost-first, deduplicated, properly nested spans containing `offset`."""
    syntax = analysis.syntax
    if syntax is None:
        return []
    spans: list[tuple[int, int]] = []
    leaf = _token_span(syntax.tokens, offset) or _comment_span(syntax.lex.comments, offset)
    if leaf is not None:
        spans.append(leaf)
    for node in reversed(_node_path(syntax.parsed.tree, offset)):
        _push_enclosing(spans, (node.start, node.end))
    if len(spans) > MAX_SELECTION_RANGE_DEPTH:
        # A long operator chain nests thousands of nodes; keep the innermost
        # levels and the outermost one so the answer stays small and finite.
        spans = spans[: MAX_SELECTION_RANGE_DEPTH - 1] + spans[-1:]
    return spans


def _push_enclosing(spans: list[tuple[int, int]], span: tuple[int, int]) -> None:
    """Append `span` if it strictly encloses the last one (or is the first)."""
    if not spans:
        spans.append(span)
        return
    last_start, last_end = spans[-1]
    if span != spans[-1] and span[0] <= last_start and last_end <= span[1]:
        spans.append(span)


def _node_path(tree: Node, offset: int) -> list[Node]:
    """Nodes containing `offset` from the root down to the innermost."""
    path = [tree]
    node = tree
    while True:
        child = _child_containing(node, offset)
        if child is None:
            return path
        path.append(child)
        node = child


def _child_containing(node: Node, offset: int) -> Node | None:
    touching: Node | None = None
    for child in node.children:
        if child.start > offset:
            break
        if offset < child.end:
            return child
        if offset == child.end and child.end > child.start:
            touching = child
    return touching


_WORDS = (Kind.IDENT, Kind.NUMBER, Kind.STRING)


def _token_span(tokens: list[Token], offset: int) -> tuple[int, int] | None:
    """The token under `offset`; a word ending at `offset` beats punctuation starting there."""
    index = bisect_right(tokens, offset, key=lambda token: token.start) - 1
    current = tokens[index] if index >= 0 else None
    if current is not None and current.kind in _WORDS and offset < current.end:
        return (current.start, current.end)
    previous = tokens[index - 1] if index >= 1 else None
    for token in (current, previous):
        if token is not None and token.kind in _WORDS and token.end == offset:
            return (token.start, token.end)
    if current is not None and current.kind not in (Kind.NEWLINE, Kind.END):
        if offset < current.end:
            return (current.start, current.end)
    return None


def _comment_span(comments: list[tuple[int, int]], offset: int) -> tuple[int, int] | None:
    index = bisect_right(comments, (offset, 1 << 62)) - 1
    if index >= 0:
        start, end = comments[index]
        if start <= offset <= end:
            return (start, end)
    return None
