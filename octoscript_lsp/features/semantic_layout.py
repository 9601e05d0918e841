"""The last semantic-tokens answer laid out per top-level statement.

An answer's numbers are pieces in source order: per statement its first
token's two deltas and its rendered fragment, with the comments outside
statements between them (a *segment* per statement, then one for the
comments after the last). A statement's numbers depend on its text, the
top-level bindings its free references read, and, for the first two,
where the item before it lies. So after an edit only the statements whose
text changed need classifying again, and only their segments plus the one
after (whose first deltas may move) need encoding: the rest of the answer is
the last answer's text, spliced. `Layout` keeps what that takes: the text
answered, the answer, and per statement its offsets, shape, classification
and where its segment lies in the answer.

`semantic_tokens` decides when a splice is exact (the statements around
the edit read the same bindings, the occurrence budget ends in the same
place); this module finds the edited window and does the splicing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis.lexical import LexicalIndex
from ..analysis.statement_index import StatementIndex
from ..limits import MAX_SEMANTIC_SPLICED_STATEMENTS
from ..syntax.check import SyntaxResult
from ..syntax.lexer import common_prefix, common_suffix, starts_in_initial_state
from ..syntax.statements import AFTER_TOKEN, FIRST_TOKEN
from ..syntax.trivia import touches_trivia_marks
from .positions import PositionEncoding
from .semantic_encoding import Encoder, Fragment, Item
from .wire import integer_items

# (offset of its first token, where the next statement starts, its shape
# (with `comment_count` and `exports`), its classification (with `items`,
# flat: `semantic_encoding.Flat`) or None).
Place = tuple[int, int, Any, Any]


def in_order(
    comments: list[tuple[int, int]],
    placed: Sequence[Place],
    first: int = 0,
    position: int = 0,
    tail: bool = True,
) -> Iterator[tuple[int, int, Any, int]]:
    """The statements and the comments outside them, in source order, with
    the segment each belongs to: (base, next statement's start, rendered,
    segment) or (comment start, end, None, segment). `placed` starts at
    statement `first`, `position` is the first comment not yet yielded,
    `tail`: also the comments after the last statement."""
    count = len(comments)
    for segment, (base, end, shape, rendered) in enumerate(placed, first):
        while position < count and comments[position][0] < base:
            yield (*comments[position], None, segment)
            position += 1
        position += shape.comment_count
        if rendered is not None:
            yield base, end, rendered, segment
        # A block comment running past the statement (into the next one's
        # first token, a line break inside it) follows all its items.
        while position < count and comments[position][0] < end:
            yield (*comments[position], None, segment)
            position += 1
    if tail:
        segment = first + len(placed)
        for start, end in comments[position:]:
            yield start, end, None, segment


@dataclass(slots=True)
class Encoded:
    """Segments encoded: their pieces, and per segment where it starts in
    the joined pieces and the last item it encoded (-1: none)."""

    parts: list[str]
    segments: list[int]
    last_starts: list[int]
    last_ends: list[int]


def _comment_across(comments: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether a comment of the new text reaches into the edited span (or touches it)."""
    at = bisect_left(comments, start, key=lambda span: span[1])
    return at < len(comments) and comments[at][0] <= end


def encode_segments(
    source: str,
    comments: list[tuple[int, int]],
    placed: Sequence[Place],
    first: int,
    position: int,
    encoder: Encoder,
    tail: bool,
    fragment_of: Callable[[int, Any], Fragment],
    comment_items: Callable[[str, list[tuple[int, int]]], list[Item]],
) -> Encoded:
    """Encode the segments of `placed` (statements from `first`; with `tail`
    the comments after the last too), continuing `encoder`."""
    found = Encoded([], [], [], [])
    parts, segments = found.parts, found.segments
    last_starts, last_ends = found.last_starts, found.last_ends
    length = 0
    current = first - 1
    for start, end, rendered, segment in in_order(comments, placed, first, position, tail):
        while current < segment:
            segments.append(length)
            last_starts.append(-1)
            last_ends.append(-1)
            current += 1
        if rendered is None:
            for piece in comment_items(source, [(start, end)]):
                text = "," + integer_items(encoder.item(*piece))
                parts.append(text)
                length += len(text)
                last_starts[-1], last_ends[-1] = piece[0], piece[1]
        else:
            fragment = fragment_of(start, rendered)
            delta_line, delta_column = encoder.statement(start, fragment)
            deltas = f",{delta_line},{delta_column}"
            parts.append(deltas)
            parts.append(fragment.head)
            length += len(deltas) + len(fragment.head)
            items = rendered.items  # flat: the last item's start and end are 4th and 3rd last
            last_starts[-1], last_ends[-1] = start + items[-4], start + items[-3]
    while current < first + len(placed) - (0 if tail else 1):
        segments.append(length)
        last_starts.append(-1)
        last_ends.append(-1)
        current += 1
    return found


@dataclass(slots=True)
class Layout:
    """The last full answer's numbers and where each statement's lie."""

    source: str  # the text it answered
    text: str  # its numbers, every piece led by a comma
    bases: list[int]  # per statement: its first token's offset
    ends: list[int]  # where the next statement starts
    read_ends: list[int]  # end of the token after it (its parse read that far)
    initial: list[bool]  # whether its first token was scanned from the lexer's initial state
    shapes: list
    rendered: list  # its classification in that answer, or None
    segments: list[int]  # per statement, then the trailing comments: where it starts in `text`
    last_starts: list[int]  # per segment: its last item (-1: none)
    last_ends: list[int]
    cut: int  # where the classification's occurrence budget ended
    index_cut: tuple | None  # a truncated index's (cut statement, its summary)
    encoding: PositionEncoding  # what its columns count
    # Statement positions binding each name at top level, made when first needed.
    exporters: dict[str, list[int]] | None = None

    def window(
        self, source: str, count: int, comments: Sequence[tuple[int, int]] = ()
    ) -> tuple[int, int, int] | None:
        """The statements an edit from this layout's text to `source` may
        have touched, as (first, after, length delta): the statements before
        `first` lie wholly before the first changed character, those from
        `after` on wholly inside the unchanged tail (the caller checks that
        they start where and as they did). None when the statement count changed."""
        if count != len(self.bases):
            return None
        old = self.source
        prefix = common_prefix(old, source)
        tail = common_suffix(old, source, min(len(old), len(source)) - prefix)
        # A statement whose text ends right where the edit starts may be
        # extended by it (text typed after an unclosed `{` at the very end
        # belongs to it): only those that end before the edit are left alone.
        if (
            touches_trivia_marks(old, prefix, len(old) - tail)
            or touches_trivia_marks(source, prefix, len(source) - tail)
            or _comment_across(comments, prefix, len(source) - tail)
        ):
            return None  # a comment or string may now start or end elsewhere
        first = bisect_left(self.read_ends, prefix)
        after = max(first, bisect_left(self.bases, len(old) - tail, lo=first))
        return first, after, len(source) - len(old)

    def resumed_encoder(self, source: str, first: int) -> Encoder:
        """An encoder placed after the last item before statement `first`'s segment."""
        last_starts = self.last_starts
        for segment in range(first - 1, -1, -1):
            if last_starts[segment] >= 0:
                return Encoder.after_item(
                    source, last_starts[segment], self.last_ends[segment], self.encoding
                )
        return Encoder(source, encoding=self.encoding)

    def binding_before(self, position: int, name: str) -> object | None:
        """The last top-level binding of `name` made by a statement before `position`."""
        if self.exporters is None:
            exporters: dict[str, list[int]] = {}
            for number, shape in enumerate(self.shapes):
                for exported, _ in shape.exports:
                    places = exporters.setdefault(exported, [])
                    if not places or places[-1] != number:
                        places.append(number)
            self.exporters = exporters
        places = self.exporters.get(name)
        if not places:
            return None
        at = bisect_left(places, position) - 1
        if at < 0:
            return None
        found = None
        for exported, binding in self.shapes[places[at]].exports:
            if exported == name:
                found = binding
        return found

    def spliced(
        self,
        source: str,
        window: tuple[int, int, int],
        delta: int,
        placed: Sequence[Place],
        reads: list[tuple[bool, int]],
        encoded: Encoded,
        cut: int,
        index_cut: tuple | None,
    ) -> Layout:
        """The layout of the answer made by re-encoding segments `first`
        through `last` (`encoded`; statements [first, after) classified
        again as `placed`, whether each starts in the lexer's initial state
        and where its parse read to in `reads`) and keeping the rest."""
        first, after, last = window
        stop = last + 1
        segments = self.segments
        middle = "".join(encoded.parts)
        text = "".join((self.text[: segments[first]], middle, self.text[segments[stop] :]))
        shift = len(middle) - (segments[stop] - segments[first])
        start = segments[first]
        return Layout(
            source,
            text,
            _replaced(self.bases, first, after, [place[0] for place in placed], delta),
            _replaced(self.ends, first, after, [place[1] for place in placed], delta),
            _replaced(self.read_ends, first, after, [read_end for _, read_end in reads], delta),
            _replaced(self.initial, first, after, [initial for initial, _ in reads]),
            _replaced(self.shapes, first, after, [place[2] for place in placed], fresh=True),
            _replaced(self.rendered, first, after, [place[3] for place in placed], fresh=True),
            _replaced(
                segments, first, stop, [offset + start for offset in encoded.segments], shift
            ),
            _replaced(self.last_starts, first, stop, encoded.last_starts, delta, True),
            _replaced(self.last_ends, first, stop, encoded.last_ends, delta, True),
            cut,
            index_cut,
            self.encoding,
            self.exporters,  # positions and names are unchanged (the caller checked)
        )


def _replaced(
    items: list,
    first: int,
    after: int,
    middle: list,
    delta: int = 0,
    absent: bool = False,
    fresh: bool = False,
) -> list:
    """items[:first] + middle + items[after:], the last offsets moved by
    `delta` (`absent`: -1, none, stays). Most edits move nothing: one copy of
    the list with the middle replaced in place then costs least, and none
    when the middle's numbers are the same too (a layout never changes its
    lists, so two may share one). `fresh`: the middle's objects are new
    ones, to be kept whatever they equal."""
    if delta == 0:
        if not fresh and items[first:after] == middle:
            return items
        out = items.copy()
        out[first:after] = middle
        return out
    moved = items[after:]
    if absent and -1 in moved:
        moved = [offset + delta if offset >= 0 else -1 for offset in moved]
    else:
        moved = list(map(delta.__add__, moved))
    return items[:first] + middle + moved


def splice(
    layout: Layout,
    syntax: SyntaxResult,
    source: str,
    index: LexicalIndex | StatementIndex,
    classify_one: Callable[..., tuple[Any, Any] | None],
    fragment_of: Callable[[int, Any], Fragment],
    comment_items: Callable[[str, list[tuple[int, int]]], list[Item]],
) -> Layout | None:
    """`layout`'s answer with the statements an edit touched classified again
    (`classify_one(position, base, end, cut, bindings, imports)`: their
    shape and classification, None when the statements after them could read
    other bindings) and encoded again, with the segment after them.

    Exact when the statement count is unchanged, the statements after the
    edit start where they did (moved) and from the lexer's initial state in
    both texts, each edited statement still closes its scopes (or is the
    last), and an occurrence budget that ran out ends in the same statement
    at the same place, or inside the edit in both versions. None otherwise.
    """
    lex, tokens, units = syntax.lex, syntax.tokens, syntax.parsed.units
    count = len(units)
    window = layout.window(source, count, lex.comments)
    if window is None:
        return None
    first, after, delta = window
    if after - first > MAX_SEMANTIC_SPLICED_STATEMENTS:
        return None
    if after < count and (
        tokens[units[after][FIRST_TOKEN]].start != layout.bases[after] + delta
        or not starts_in_initial_state(lex, units[after][FIRST_TOKEN])
        or not layout.initial[after]
    ):
        return None
    index_cut = index_cut_of(index)
    if (index.truncated and index_cut is None) or (index_cut is None) != (layout.index_cut is None):
        return None
    cut = index.last_occurrence() if index.truncated else len(source)
    last_token = len(tokens) - 1
    top, imports = BindingsBefore(layout, first), ImportsBefore(layout, first)
    window_placed: list[Place] = []
    reads: list[tuple[bool, int]] = []
    for position in range(first, after):
        first_token, after_token = units[position][FIRST_TOKEN], units[position][AFTER_TOKEN]
        base = tokens[first_token].start
        end = tokens[min(after_token, last_token)].start
        found = classify_one(position, base, end, cut, top, imports)
        if found is None or not (found[0].balanced or position == count - 1):
            return None
        window_placed.append((base, end, *found))
        reads.append(
            (starts_in_initial_state(lex, first_token), tokens[min(after_token, last_token)].end)
        )
        for name, binding in found[0].exports:
            top.found[name] = binding
    if index_cut is not None and not same_cut(layout, first, after, delta, cut, index_cut):
        return None
    # The first later segment with items: its first deltas may move (the
    # segments between encode nothing).
    stop = after
    while stop < count and layout.last_starts[stop] < 0:
        stop += 1
    reused = [
        (layout.bases[k] + delta, layout.ends[k] + delta, layout.shapes[k], layout.rendered[k])
        for k in range(after, min(stop + 1, count))
    ]
    comments = lex.comments
    position = bisect_left(comments, layout.ends[first - 1], key=_span_start) if first else 0
    encoded = encode_segments(
        source,
        comments,
        window_placed + reused,
        first,
        position,
        layout.resumed_encoder(source, first),
        stop == count,
        fragment_of,
        comment_items,
    )
    return layout.spliced(
        source, (first, after, stop), delta, window_placed, reads, encoded, cut, index_cut
    )


def _span_start(span: tuple[int, int]) -> int:
    return span[0]


def same_cut(layout: Layout, first: int, after: int, delta: int, cut: int, index_cut) -> bool:
    """Whether the statements outside the edit keep their classification past
    a spent occurrence budget: the statement holding the last kept occurrence
    lies inside the edit in both versions, or is the same one outside it with
    the occurrence at the same place and the index cut in the same statement,
    recording the same."""
    bases = layout.bases
    old = bisect_right(bases, layout.cut) - 1
    if cut < 0 or layout.cut < 0:
        return cut == layout.cut
    window_start = bases[first] if first < len(bases) else len(layout.source)
    window_end = bases[after] if after < len(bases) else len(layout.source) + 1
    if first <= old < after:
        return window_start <= cut < window_end + delta
    if old < first:
        same_place = cut == layout.cut
    else:
        same_place = cut == layout.cut + delta
    return same_place and index_cut == layout.index_cut


def index_cut_of(index: LexicalIndex | StatementIndex) -> tuple | None:
    """A truncated per-statement index's cut statement and what it records there."""
    if isinstance(index, StatementIndex) and index.cut is not None:
        return index.cut, index.pieces[index.cut][1]
    return None


def recorded_whole_before(index: LexicalIndex | StatementIndex) -> int:
    """Where the statement a truncated statement index cut starts (-1: none):
    the statements before it are recorded whole, from the same summaries
    the parser's definitions come from."""
    if isinstance(index, StatementIndex) and index.cut is not None:
        return index.pieces[index.cut][0]
    return -1


class BindingsBefore:
    """The last top-level binding of each name before an edited statement:
    those the edited statements made (`found`), else the layout's."""

    __slots__ = ("layout", "position", "found")

    def __init__(self, layout: Layout, position: int) -> None:
        self.layout, self.position = layout, position
        self.found: dict[str, object] = {}

    def get(self, name: str) -> object | None:
        if name in self.found:
            return self.found[name]
        return self.layout.binding_before(self.position, name)


class ImportsBefore:
    """`use` paths by binding offset: the edited statements' (`found`), else
    those of the statements before them."""

    __slots__ = ("layout", "position", "found")

    def __init__(self, layout: Layout, position: int) -> None:
        self.layout, self.position = layout, position
        self.found: dict[int, tuple[str, ...]] = {}

    def get(self, offset: int) -> tuple[str, ...] | None:
        if offset in self.found:
            return self.found[offset]
        layout = self.layout
        statement = bisect_right(layout.bases, offset, 0, self.position) - 1
        if statement < 0:
            return None
        base = layout.bases[statement]
        for binding, path in layout.shapes[statement].imports:
            if binding + base == offset:
                return path
        return None
