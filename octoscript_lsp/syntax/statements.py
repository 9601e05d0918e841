"""The one way work is reused between versions: top-level statements.

A document is a head (the trivia and statement ends before its first
statement) and a list of top-level statements. Each `Statement` comes from
a `Build`, one lex and parse of a stretch of text, and keeps its positions
as that build counted them; where it stands in a later version is that
version's `starts` entry, so an edit moves nothing but those numbers.

Why a statement can be reused: the parser starts every top-level step in the
same state, a step reads only its own tokens and the one after it, and the
lexer is in its initial state wherever a statement's first token starts. So
a statement's tokens, tree, scope events and diagnostics depend only on its
`key`: its text (from its first token to the next statement's) and the
token after it. Every view computed from one statement alone (lexical
summaries, facts, outline, formatting, semantic-token roles, runtime-parser
checks) is asked of `Statement.view`, the one per-statement cache; values
are relative to the statement's first token.

An edit is met with one text compare (`lexer.edit_extent`): the statements
before it are kept, from the one before the edit a window of text is lexed
and parsed again until a statement starts where an old one did in the
unchanged tail (`rebuild`), and the old statements from there on are kept.
A window statement whose key an old statement had is that old statement.
Past a budget (tokens, diagnostics) the whole text is built plainly.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import Any, TypeVar

from ..limits import MAX_SYNTAX_DIAGNOSTICS, MAX_SYNTAX_NESTING, MAX_SYNTAX_TOKENS
from .diagnostics import Diagnostic
from .lexer import LexResult, edit_extent, tokenize
from .parse_result import ParseResult, shifted_event, shifted_node
from .parser import parse
from .tokens import END, Token
from .tree import Node

T = TypeVar("T")
# One entry per top-level parse step: (first token, token after it, events
# end, all_diagnostics end, children end), as `ParseResult.units` holds them.
Unit = tuple[int, int, int, int, int]
FIRST_TOKEN, AFTER_TOKEN, EVENTS_END, DIAGNOSTICS_END, CHILDREN_END = range(5)
HEAD = -1  # the step number of a head


@dataclass(slots=True, eq=False)
class Build:
    """One lex and parse of a stretch of text, positions counted from its start."""

    text: str
    lex: LexResult
    parsed: ParseResult


@dataclass(slots=True, eq=False)
class Statement:
    """One top-level step of a build (or the head before the first one)."""

    build: Build
    step: int  # its index among the build's steps, HEAD for a head
    origin: int  # its start in the build: its first token's (0 for a head)
    end: int  # where its text ends in the build (the next statement's start)
    first: int  # its tokens are build.lex.tokens[first:after]
    after: int
    key: tuple[str, str]  # its text and the token after it: all it depends on
    # Whether it starts at a line break inside a comment (after a stray `}`),
    # where lexing cannot start.
    in_comment: bool = False
    # Whether it holds a lambda or an assignment as a condition, where the
    # runtime parser's extra rules (`vm_compat`) may find something.
    runtime_suspect: bool = False
    views: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.key[0]

    @property
    def tokens(self) -> Sequence[Token]:
        """The build's tokens: scope events and nodes index into them."""
        return self.build.lex.tokens

    @property
    def events(self) -> list[tuple]:
        return self._own(self.build.parsed.events, EVENTS_END)

    @property
    def nodes(self) -> list[Node]:
        return self._own(self.build.parsed.tree.children, CHILDREN_END)

    @property
    def parse_diagnostics(self) -> list[Diagnostic]:
        return self._own(self.build.parsed.all_diagnostics, DIAGNOSTICS_END)

    def _own(self, items: Sequence, column: int) -> list:
        """Its part of one of the build's per-step lists (`column`: where
        each step's part ends in the parser's step entries)."""
        if self.step == HEAD:
            return []
        units = self.build.parsed.units
        low = units[self.step - 1][column] if self.step else 0
        return items[low : units[self.step][column]]

    @property
    def lex_diagnostics(self) -> list[Diagnostic]:
        return _between(self.build.lex.diagnostics, self.origin, self.end, _offset)

    @property
    def comments(self) -> list[tuple[int, int]]:
        return _between(self.build.lex.comments, self.origin, self.end, _first)

    @property
    def counts(self) -> tuple[int, int, int]:
        """(tokens, lexical problems, parse problems) in it."""
        return self.view(COUNTS, _counts)

    def view(self, name: str, compute: Callable[[Statement], T]) -> T:
        """The per-statement cache: `compute(self)` once, then the same value."""
        views = self.views
        if name not in views:
            views[name] = compute(self)
        return views[name]


COUNTS = "counts"


def _counts(statement: Statement) -> tuple[int, int, int]:
    return (
        statement.after - statement.first,
        len(statement.lex_diagnostics),
        len(statement.parse_diagnostics),
    )


_offset = attrgetter("offset")
_first = itemgetter(0)
_start = attrgetter("start")


def _between(items: list[T], low: int, high: int, key: Callable[[T], int]) -> list[T]:
    """The items (in order of `key`) whose `key` lies in [low, high)."""
    return items[bisect_left(items, low, key=key) : bisect_left(items, high, key=key)]


def _moved(diagnostics: list[Diagnostic], shift: int) -> list[Diagnostic]:
    return [Diagnostic(item.offset + shift, item.message, item.code) for item in diagnostics]


@dataclass(slots=True, eq=False)
class Statements:
    """One version's statements: where each starts now, and what it is."""

    source: str
    head: Statement
    statements: list[Statement]
    starts: list[int]
    budgets: Budgets
    # Built plainly past a budget: the next version builds plainly too.
    plain: bool = False
    # (tokens, lexical problems, parse problems) of the head and statements.
    totals: tuple[int, int, int] = (0, 0, 0)
    # [low, high) stretches of statements that are consecutive steps of one
    # build and moved alike: each is one piece of the whole-text views.
    runs: list[tuple[int, int]] = field(default_factory=list)

    def at(self, offset: int) -> int:
        """The position of the statement whose text holds `offset` (-1: the head)."""
        return bisect_right(self.starts, offset) - 1

    def problems(self, lexical: bool, limit: int) -> list[Diagnostic]:
        """The first `limit` lexical (or parse) problems, placed in this version."""
        which = 1 if lexical else 2
        found: list[Diagnostic] = []
        pieces = [(0, self.head)] if lexical else []
        pieces += zip(self.starts, self.statements, strict=True)
        for start, statement in pieces:
            if statement.counts[which] and len(found) < limit:
                items = statement.lex_diagnostics if lexical else statement.parse_diagnostics
                found += _moved(items, start - statement.origin)
        return found[:limit]

    def values(self, name: str, compute: Callable[[Statement], T]) -> list[tuple[int, T]]:
        """(start now, `view(name, compute)`) for every statement."""
        return [
            (start, statement.view(name, compute))
            for start, statement in zip(self.starts, self.statements, strict=True)
        ]


@dataclass(frozen=True, slots=True)
class Budgets:
    tokens: int = MAX_SYNTAX_TOKENS
    nesting: int = MAX_SYNTAX_NESTING


def build_statements(
    source: str, previous: Statements | None = None, budgets: Budgets = Budgets()
) -> Statements:
    """The statements of `source`, reusing `previous` (an earlier version's)."""
    if previous is not None and not previous.plain and previous.budgets == budgets:
        found = _rebuild(previous, source)
        if found is not None:
            return found
    return _plain(source, budgets)


def _plain(source: str, budgets: Budgets) -> Statements:
    build = _build(source, None, budgets)
    head, statements = _split(build, len(source))
    lex = build.lex
    return Statements(
        source,
        head,
        statements,
        [statement.origin for statement in statements],
        budgets,
        lex.truncated or lex.token_limit_offset is not None,
        (len(lex.tokens) - 1, len(lex.diagnostics), len(build.parsed.all_diagnostics)),
        [(0, len(statements))] if statements else [],
    )


def _build(text: str, lookahead: int | None, budgets: Budgets, text_start: bool = True) -> Build:
    """Lex `text` (the whole text or from a statement's start) and parse it;
    with `lookahead`, the parse stops after the token there (it only serves
    as the token after the last step)."""
    lex = tokenize(text, budgets.tokens)
    tokens = lex.tokens
    if lookahead is not None:
        index = bisect_left(tokens, lookahead, key=_start)
        after = tokens[index]
        tokens = tokens[: index + 1] + [Token(END, "", after.end, after.end)]
        lex = LexResult(
            tokens, lex.diagnostics, lex.truncated, lex.comments, lex.token_limit_offset
        )
    return Build(text, lex, parse(tokens, budgets.nesting, text_start))


def _split(build: Build, stop: int) -> tuple[Statement, list[Statement]]:
    """The head and the statements of `build` that start before offset `stop`."""
    text, tokens = build.text, build.lex.tokens
    units = build.parsed.units
    firsts = [tokens[unit[FIRST_TOKEN]].start for unit in units]
    count = bisect_left(firsts, stop)
    # At the end of the text, what lies there (a diagnostic at the very end) is the last one's.
    ends = firsts[1:count] + [stop + 1 if stop == len(text) else stop]
    comments = build.lex.comments
    statements = []
    for step in range(count):
        start, end = firsts[step], ends[step]
        after_token = tokens[units[step][AFTER_TOKEN]]
        # A comment that starts in its text and goes on into the next one's
        # (a step may start at a line break inside a comment) is its too.
        last = bisect_left(comments, end, key=_first) - 1
        key_end = max(end, comments[last][1]) if last >= 0 else end
        in_comment = _inside(comments, start)
        # What it depends on: its text, the token after it, and whether it
        # starts inside a comment (then its first line break is the comment's).
        after_text = text[after_token.start : after_token.end]
        key = (
            text[start:key_end],
            f"{'/* ' if in_comment else ''}{after_token.kind.name} {after_text}",
        )
        unit = units[step]
        statements.append(
            Statement(
                build,
                step,
                start,
                end,
                unit[FIRST_TOKEN],
                unit[AFTER_TOKEN],
                key,
                in_comment,
                build.parsed.unit_runtime_checks[step],
            )
        )
    head_end = firsts[0] if count else (stop + 1 if stop == len(text) else stop)
    # The head's tokens end at the first step's (the one at `stop` in a window).
    head_after = units[0][FIRST_TOKEN] if units else len(tokens) - 1
    head = Statement(build, HEAD, 0, head_end, 0, head_after, (text[:head_end], ""))
    return head, statements


def _rebuild(previous: Statements, source: str) -> Statements | None:
    """`previous` after one edit, or None where a budget needs the plain build."""
    old = previous.source
    unchanged, tail = edit_extent(old, source)
    delta = len(source) - len(old)
    old_starts = previous.starts
    count = len(old_starts)
    # The edit may change the token that ends where it starts (`/` + `/`),
    # and the lexer looks a character past a token: the statement holding
    # the two characters before the edit may change, and the one before it
    # read that statement's first token as its token after. The window
    # starts there.
    first = max(bisect_right(old_starts, max(unchanged - 2, 0)) - 2, 0)
    while first > 0 and previous.statements[first].in_comment:
        first -= 1
    from_head = first == 0
    start = 0 if from_head else old_starts[first]
    # Old statements past the edit, whose text from their start on is unchanged.
    candidate = max(bisect_left(old_starts, len(old) - tail), first + 1)
    while True:
        # One lexed from inside a comment was not lexed from the initial state.
        while candidate < count and previous.statements[candidate].in_comment:
            candidate += 1
        if candidate >= count:
            window = _window(source, start, len(source), None, previous.budgets)
            stop_old = count
        else:
            resync = old_starts[candidate] + delta
            old_end = old_starts[candidate + 1] if candidate + 1 < count else len(old)
            window = _window(source, start, old_end + delta, resync, previous.budgets)
            stop_old = candidate
        if window is None:
            return None  # a budget ran out in the window
        if window is not _OUT_OF_STEP:
            break
        candidate = 2 * candidate - first if candidate > first else candidate + 1
    head, fresh = window
    kept_before = previous.statements[: 0 if from_head else first]
    kept_after = previous.statements[stop_old:]
    by_key = {statement.key: statement for statement in previous.statements[first:stop_old]}
    fresh = [by_key.get(statement.key, statement) for statement in fresh]
    if not from_head:
        head = previous.head
    statements = kept_before + fresh + kept_after
    starts = (
        old_starts[: len(kept_before)]
        + [start + statement.origin for statement in window[1]]
        + [old + delta for old in old_starts[stop_old:]]
    )
    dropped = previous.statements[len(kept_before) : stop_old]
    if from_head:
        dropped = [previous.head, *dropped]
        fresh = [head, *fresh]
    totals = tuple(
        total - removed + added
        for total, removed, added in zip(previous.totals, _sum(dropped), _sum(fresh), strict=True)
    )
    if totals[0] > previous.budgets.tokens:
        return None
    kept = len(kept_before)
    window_runs = _runs(
        statements[kept : kept + len(window[1])], starts[kept : kept + len(window[1])]
    )
    moved = kept + len(window[1]) - stop_old
    runs = (
        [(low, min(high, kept)) for low, high in previous.runs if low < kept]
        + [(low + kept, high + kept) for low, high in window_runs]
        + [
            (max(low, stop_old) + moved, high + moved)
            for low, high in previous.runs
            if high > stop_old
        ]
    )
    return Statements(source, head, statements, starts, previous.budgets, False, totals, runs)


def _sum(statements: list[Statement]) -> tuple[int, ...]:
    counts = [statement.counts for statement in statements]
    return tuple(sum(count[which] for count in counts) for which in range(3))


_OUT_OF_STEP = object()


def _window(source: str, start: int, stop: int, resync: int | None, budgets: Budgets):
    """(head, statements) of `source[start:stop]`, each the statement there
    or an old one with the same key; `_OUT_OF_STEP` when no statement starts
    at `resync`; None past a budget."""
    text = source[start:stop]
    lookahead = None if resync is None else resync - start
    build = _build(text, lookahead, budgets, start == 0)
    lex = build.lex
    if lex.truncated or lex.token_limit_offset is not None:
        return None
    if lookahead is not None:
        tokens = lex.tokens
        units = build.parsed.units
        at = tokens[-2]  # the token after, before the END the build added
        if at.start != lookahead or _inside(lex.comments, lookahead):
            return _OUT_OF_STEP
        if not units or tokens[units[-1][FIRST_TOKEN]].start != lookahead:
            return _OUT_OF_STEP
    return _split(build, len(text) if lookahead is None else lookahead)


def _inside(comments: list[tuple[int, int]], offset: int) -> bool:
    at = bisect_right(comments, offset, key=_first) - 1
    return at >= 0 and offset < comments[at][1]


# (items, low, high, move): items[low:high] placed by move (token index
# shift, offset shift); None: as they are.
Piece = tuple[list, int, int, "tuple[int, int] | None"]


class Placed(Sequence):
    """A read-only sequence of several builds' items at this version's
    positions; a stretch's items are placed when one of them is first read."""

    __slots__ = ("_pieces", "_starts", "_length", "_made", "_place")

    def __init__(self, pieces: list[Piece], place: Callable[[list, tuple[int, int]], list]) -> None:
        self._pieces = pieces
        self._starts = list(accumulate((high - low for _, low, high, _ in pieces), initial=0))
        self._length = self._starts.pop()
        self._made: list[list | None] = [None] * len(pieces)
        self._place = place

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("index out of range")
        number = bisect_right(self._starts, index) - 1
        return self._piece(number)[index - self._starts[number]]

    def __iter__(self):
        for number in range(len(self._pieces)):
            yield from self._piece(number)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, Placed)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def _piece(self, number: int) -> list:
        made = self._made[number]
        if made is None:
            items, low, high, move = self._pieces[number]
            made = items[low:high] if move is None else self._place(items[low:high], move)
            self._made[number] = made
        return made


def _placed_tokens(tokens: list[Token], move: tuple[int, int]) -> list[Token]:
    shift = move[1]
    return [
        Token(token.kind, token.text, token.start + shift, token.end + shift) for token in tokens
    ]


def _placed_events(events: list[tuple], move: tuple[int, int]) -> list[tuple]:
    shift, delta = move
    return [shifted_event(event, shift, delta) for event in events]


def _placed_nodes(nodes: list[Node], move: tuple[int, int]) -> list[Node]:
    shift, delta = move
    return [shifted_node(node, shift, delta) for node in nodes]


def whole_text_lex(found: Statements) -> LexResult:
    """The version's tokens, comments and lexical problems as one lex of
    the whole text (for the views that read the document at once)."""
    head, statements, starts = found.head, found.statements, found.starts
    if _one_build(found):
        return head.build.lex
    token_pieces: list[Piece] = [(head.build.lex.tokens, 0, head.after, None)]
    lex_diagnostics = list(head.lex_diagnostics)
    comments = list(head.comments)
    tokens_before = head.after
    for low, high in found.runs:
        first, last = statements[low], statements[high - 1]
        shift = starts[low] - first.origin
        lex = first.build.lex
        token_shift = tokens_before - first.first
        move = None if shift == 0 and token_shift == 0 else (token_shift, shift)
        token_pieces.append((lex.tokens, first.first, last.after, move))
        lex_diagnostics += _moved(_between(lex.diagnostics, first.origin, last.end, _offset), shift)
        comments += [
            (left + shift, right + shift)
            for left, right in _between(lex.comments, first.origin, last.end, _first)
        ]
        tokens_before += last.after - first.first
    length = len(found.source)
    token_pieces.append(([Token(END, "", length, length)], 0, 1, None))
    return LexResult(
        Placed(token_pieces, _placed_tokens),
        lex_diagnostics[:MAX_SYNTAX_DIAGNOSTICS],
        len(lex_diagnostics) > MAX_SYNTAX_DIAGNOSTICS,
        comments,
    )


def whole_text_parse(found: Statements) -> ParseResult:
    """The version's tree, scope events, steps and parse problems as one
    parse of the whole text (token indices as `whole_text_lex` counts them)."""
    head, statements, starts = found.head, found.statements, found.starts
    if _one_build(found):
        return head.build.parsed
    event_pieces: list[Piece] = []
    node_pieces: list[Piece] = []
    units: list[Unit] = []
    all_diagnostics: list[Diagnostic] = []
    runtime_checks: list[bool] = []
    tokens_before, events_before, children_before = head.after, 0, 0
    for low, high in found.runs:
        first, last = statements[low], statements[high - 1]
        shift = starts[low] - first.origin
        parsed = first.build.parsed
        step_units = parsed.units
        token_shift = tokens_before - first.first
        before = step_units[first.step - 1] if first.step else (0, 0, 0, 0, 0)
        event_low, diagnostic_low, child_low = before[EVENTS_END:]
        move = None if shift == 0 and token_shift == 0 else (token_shift, shift)
        event_high = step_units[last.step][EVENTS_END]
        child_high = step_units[last.step][CHILDREN_END]
        event_pieces.append((parsed.events, event_low, event_high, move))
        node_pieces.append((parsed.tree.children, child_low, child_high, move))
        event_shift = events_before - event_low
        child_shift = children_before - child_low
        diagnostic_shift = len(all_diagnostics) - diagnostic_low
        units += [
            (
                unit[FIRST_TOKEN] + token_shift,
                unit[AFTER_TOKEN] + token_shift,
                unit[EVENTS_END] + event_shift,
                unit[DIAGNOSTICS_END] + diagnostic_shift,
                unit[CHILDREN_END] + child_shift,
            )
            for unit in step_units[first.step : last.step + 1]
        ]
        diagnostic_high = step_units[last.step][DIAGNOSTICS_END]
        all_diagnostics += _moved(parsed.all_diagnostics[diagnostic_low:diagnostic_high], shift)
        runtime_checks += parsed.unit_runtime_checks[first.step : last.step + 1]
        tokens_before += last.after - first.first
        events_before += event_high - event_low
        children_before += child_high - child_low
    return ParseResult(
        Node("program", 0, len(found.source), Placed(node_pieces, _placed_nodes)),
        all_diagnostics[:MAX_SYNTAX_DIAGNOSTICS],
        len(all_diagnostics) > MAX_SYNTAX_DIAGNOSTICS,
        min((item.offset for item in all_diagnostics), default=None),
        Placed(event_pieces, _placed_events),
        all_diagnostics,
        units,
        runtime_checks,
    )


def _one_build(found: Statements) -> bool:
    """Whether the version is one build of its whole text, as it stands."""
    build = found.head.build
    runs = found.runs
    if build.text is not found.source or len(runs) > 1:
        return False
    return not runs or (
        found.statements[0].build is build and found.starts[0] == found.statements[0].origin
    )


def _runs(statements: list[Statement], starts: list[int]) -> list[tuple[int, int]]:
    """[low, high) stretches of consecutive steps of one build, moved alike."""
    runs: list[tuple[int, int]] = []
    low = 0
    for position in range(1, len(statements) + 1):
        if position < len(statements):
            before, statement = statements[position - 1], statements[position]
            if (
                statement.build is before.build
                and statement.step == before.step + 1
                and starts[position] - statement.origin == starts[position - 1] - before.origin
            ):
                continue
        runs.append((low, position))
        low = position
    return runs[: len(runs) if statements else 0]
