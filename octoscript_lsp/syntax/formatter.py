"""Canonical formatter: whitespace only, driven by the token stream.

It never rewrites a token, so literal spellings and comments survive
byte for byte; only horizontal spacing, indentation (four spaces per open
brace), line endings and trailing whitespace change. The caller must pass
tokens of source that already passed the checker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import compress
from operator import attrgetter, is_not

from ..limits import MAX_FORMATTED_SOURCE_BYTES
from .lexer import LexResult
from .statements import StatementMemo, Unit, walk_runs
from .tokens import (
    COMMA,
    END,
    IDENT,
    LBRACE,
    LBRACKET,
    LPAREN,
    NEWLINE,
    NUMBER,
    OPERATOR,
    RBRACE,
    RBRACKET,
    RPAREN,
    SEMICOLON,
    STRING,
    Kind,
    Token,
)

INDENT = "    "
_HORIZONTAL_SPACE = " \t\f"
_CONTROL_WORDS = ("if", "elif", "while")
_NO_SPACE_BEFORE = (RPAREN, RBRACKET, RBRACE, COMMA, SEMICOLON)
# What the spacing between two tokens depends on, per token (`SpaceItem`):
# its kind, but the spelling of the operators `|`, `.` and `:`, and
# `_CONTROL` for the words before which `(` takes a space (`if (`).
_CONTROL = "control word"
_SPACED_OPERATORS = ("|", ".", ":")
SpaceItem = Kind | str
# A control word is an identifier: `if [` is spaced as `x [` is.
_INDEXABLE = (IDENT, _CONTROL, NUMBER, STRING, LPAREN, LBRACKET, RPAREN, RBRACKET, RBRACE)


class FormattedSourceTooLarge(Exception):
    """The formatted text would exceed MAX_FORMATTED_SOURCE_BYTES."""


def format_tokens(source: str, tokens: list[Token], max_tokens: int) -> str:
    formatter = _Pass(source, 0)
    formatter.feed(tokens)
    # A newline is a token: under an exactly full token budget the final
    # newline is left off so the output still checks.
    return formatter.finish("", len(tokens) <= max_tokens)


class Stretch:
    """The formatted text of a stretch of source that starts and ends right
    after a line break at the top level (None where it does not end at the
    top level: it cannot be formatted on its own then).

    Every statement it covers holds it (`statements.walk_statements`). What
    it formats is the text on its first line before its first token
    (`lead`), then its statements' own text, which a statement the parser
    kept has unchanged. So it holds again where the same `count` statements,
    all kept from it, make a stretch after the same lead. A stretch of
    several statements is made when it opens and filled when it closes
    (`count` 0 until then, as for the statements after the last top-level
    line break, which make no stretch).
    """

    __slots__ = ("lead", "count", "formatted")

    def __init__(self, lead: str, count: int = 0, formatted: str | None = None) -> None:
        self.lead = lead
        self.count = count
        self.formatted = formatted


FormatMemo = StatementMemo[Stretch]
_FORMATTED = attrgetter("formatted")


def format_by_statement(
    source: str,
    lex: LexResult,
    units: list[Unit],
    offsets: list[int],
    max_tokens: int,
    previous: FormatMemo,
) -> tuple[str, FormatMemo]:
    """`format_tokens`, stretch by stretch between top-level line breaks.

    After a line break outside every brace and lambda parameter list the
    formatter is in its initial state, so the text up to the next such break
    formats the same wherever it stands; a stretch whose statements the
    parser kept (after the same lead) is not formatted again, and inside a
    run of kept statements the stretches are taken without visiting their
    statements (`_Stretches.take_run`). `units` and `offsets` are the
    parser's (`ParseResult.units`, `unit_offsets`). Falls back to one pass
    where a stretch does not end in that state.
    """
    tokens = lex.tokens
    stretches = _Stretches(source, tokens, len(units))
    memo = walk_runs(units, offsets, previous, stretches.visit, stretches.take_run)
    if stretches.broken:
        return format_tokens(source, tokens, max_tokens), memo
    # The statements after the last top-level line break before a statement.
    formatter = _Pass(source, stretches.start_offset)
    formatter.feed(tokens[stretches.start_token :])
    return formatter.finish("".join(stretches.parts), len(tokens) <= max_tokens), memo


class _Stretches:
    """One formatting's stretches. A stretch ends with a statement followed
    by a line break (the next statement starts after it), but not with the
    last statement: what follows the last top-level line break is formatted
    with the end of the text."""

    __slots__ = (
        "source",
        "tokens",
        "last",
        "parts",
        "start_token",
        "start_offset",
        "open",
        "count",
        "earlier",
        "broken",
        "moved",
    )

    def __init__(self, source: str, tokens: list[Token], count: int) -> None:
        self.source, self.tokens = source, tokens
        self.last = count - 1  # the position of the last statement
        self.parts: list[str] = []
        self.start_token = self.start_offset = 0  # where the open stretch starts
        self.open: Stretch | None = None  # a stretch of several statements, open
        self.count = 0  # its statements so far
        # What every one of them carries while they all carry the same
        # stretch (None otherwise).
        self.earlier: Stretch | None = None
        self.broken = False
        self.moved = False

    def take_run(self, low: int, high: int, values: list, step: Callable[[int], None]) -> None:
        """The steps [low, high), a run the parser kept (`StepMap`): unchanged
        text from the first one's start to the last one's end, only moved.

        Its first stretch is visited: its lead lies partly before the run,
        and it may go on from a stretch that started before it. Once a
        stretch closes inside the run, the next step starts a stretch in both
        versions (a step ends one where its last token is a line break and
        another step follows; both hold there in both versions), and every
        later stretch that closes inside the run is the carried one: its
        lead and its statements lie in the run's text. Those are taken
        whole. The run's last stretch is visited as well: it may go on past
        the run, or hold the last statement, which ends none.
        """
        position = low
        while position < high:
            step(position)
            position += 1
            if self.open is None:
                break
        # Where the run's last stretch starts: the steps carrying one
        # stretch are the consecutive statements it covers.
        end = high
        last = values[high - 1]
        while end > position and values[end - 1] is last:
            end -= 1
        if end > position:
            # One entry per stretch, in order: each stretch's last statement
            # is the one followed by another stretch's (`end` starts one).
            taken = values[position:end]
            last_ones = compress(taken, map(is_not, taken, values[position + 1 : end + 1]))
            formatted = list(map(_FORMATTED, last_ones))
            if None in formatted:
                self.broken = True
            elif not self.broken:
                self.parts += formatted
        for later in range(end, high):
            step(later)

    def visit(self, position: int, first: int, after: int, carried: Stretch | None) -> Stretch:
        tokens = self.tokens
        if self.moved:
            return self.visit_moved(position, first, after, carried)
        ends = position != self.last and tokens[after - 1].kind is NEWLINE
        if self.open is not None:
            return self.grow(after, carried, ends)
        lead_start = tokens[first - 1].end if position else 0
        return self.open_at(position, first, after, carried, ends, lead_start, tokens[first].start)

    def visit_moved(
        self, position: int, first: int, after: int, carried: Stretch | None
    ) -> Stretch:
        """`visit` over a token list moved after an edit that changed the
        length (`moved.MovedList`): tokens are read without being made, so a
        stretch taken from the memo makes none."""
        peek = self.tokens.peek  # type: ignore[attr-defined]
        token, move = peek(after - 1)
        ends = position != self.last and token.kind is NEWLINE
        if self.open is not None:
            return self.grow(after, carried, ends)
        lead_start = 0
        if position:
            token, move = peek(first - 1)
            lead_start = token.end + (move[1] if move is not None else 0)
        token, move = peek(first)
        lead_end = token.start + (move[1] if move is not None else 0)
        return self.open_at(position, first, after, carried, ends, lead_start, lead_end)

    def grow(self, after: int, carried: Stretch | None, ends: bool) -> Stretch:
        """The open stretch takes the next statement (ending before token
        `after`, the last of the stretch when it `ends`)."""
        stretch = self.open
        assert stretch is not None
        self.count += 1
        if carried is not self.earlier:
            self.earlier = None
        if ends:
            self.close(stretch, after)
        return stretch

    def open_at(
        self,
        position: int,
        first: int,
        after: int,
        carried: Stretch | None,
        ends: bool,
        lead_start: int,
        lead_end: int,
    ) -> Stretch:
        """A stretch starts at the statement at `position`, after the text
        [lead_start, lead_end) on its line."""
        lead = self.source[lead_start:lead_end]
        self.start_token, self.start_offset = (first if position else 0), lead_start
        if not ends:
            stretch = self.open = Stretch(lead)
            self.count, self.earlier = 1, carried
            return stretch
        # A stretch of one statement, the usual case.
        if carried is None or carried.count != 1 or carried.lead != lead:
            carried = Stretch(lead, 1, self.format(after))
        self.take(carried.formatted)
        return carried

    def close(self, stretch: Stretch, after: int) -> None:
        """The open stretch ends before token `after`: format it, or take its
        text when its statements all carry one stretch of as many after the
        same lead."""
        earlier = self.earlier
        count = stretch.count = self.count
        if earlier is not None and earlier.count == count and earlier.lead == stretch.lead:
            stretch.formatted = earlier.formatted
        else:
            stretch.formatted = self.format(after)
        self.take(stretch.formatted)
        self.open = None

    def format(self, after: int) -> str | None:
        return _format_stretch(self.source, self.tokens, self.start_token, after, self.start_offset)

    def take(self, formatted: str | None) -> None:
        if formatted is None:
            self.broken = True
        elif not self.broken:
            self.parts.append(formatted)


def _format_stretch(
    source: str, tokens: list[Token], first: int, after: int, offset: int
) -> str | None:
    formatter = _Pass(source, offset)
    formatter.feed(tokens[first:after])
    if not formatter.at_top_level_line_start():
        return None
    return "".join(formatter.parts)


class _Pass:
    """One left-to-right formatting pass over tokens from `cursor` on.

    `feed` is the formatter's one loop over tokens: it runs once per token
    of every stretch formatted, so its state lives in locals and the
    spacing rule (`_needs_space`) is read from a table (`_SPACES`).
    """

    __slots__ = ("source", "parts", "indentation", "at_line_start", "cursor", "previous", "bars")

    def __init__(self, source: str, cursor: int) -> None:
        self.source = source
        self.parts: list[str] = []
        self.indentation = 0
        self.at_line_start = True
        self.cursor = cursor
        # The spacing after the previous token on this line, by the next
        # token's key (`_SPACES`; None at a line start).
        self.previous: dict[str, bool] | None = None
        self.bars = False  # inside a lambda's parameter bars (`|a, b|`)

    def at_top_level_line_start(self) -> bool:
        return self.at_line_start and self.indentation == 0 and not self.bars

    def feed(self, tokens: Iterable[Token]) -> None:
        """Format `tokens` in order, up to an END token."""
        source, parts, spaces = self.source, self.parts, _SPACES
        append = parts.append
        indentation, at_line_start, cursor = self.indentation, self.at_line_start, self.cursor
        previous, bars = self.previous, self.bars
        for token in tokens:
            kind = token.kind
            if kind is END:
                break
            start = token.start
            # The gap before the token: only a comment in it is written.
            preserved_gap = False
            if start != cursor:
                gap = source[cursor:start]
                if gap.strip(_HORIZONTAL_SPACE):
                    if at_line_start:
                        if indentation:
                            append(INDENT * indentation)
                        append(gap.lstrip(_HORIZONTAL_SPACE))
                    else:
                        append(gap)
                    at_line_start = False
                    preserved_gap = True
            cursor = token.end
            if kind is NEWLINE:
                # Trailing whitespace goes: trim the parts written on this line.
                while parts:
                    trimmed = parts[-1].rstrip(_HORIZONTAL_SPACE)
                    if trimmed:
                        parts[-1] = trimmed
                        break
                    parts.pop()
                append("\n")
                at_line_start = True
                previous = None
                continue
            # The token's key (`_space_key`), read here without a call.
            if kind is OPERATOR:
                key = token.text
                if key not in _SPACED_OPERATORS:
                    key = _OPERATOR_KEY
            elif kind is IDENT:
                key = _CONTROL if token.text in _CONTROL_WORDS else _IDENT_KEY
            else:
                if kind is RBRACE and indentation > 0:
                    indentation -= 1
                key = kind._value_
            if at_line_start:
                if indentation:
                    append(INDENT * indentation)
                at_line_start = False
            elif preserved_gap or previous is None:
                pass
            elif bars and key == "|":
                pass  # `|a, b|`: no space before the closing bar
            elif previous[key]:
                append(" ")
            append(source[start:cursor])
            if key == "|":
                # After the closing bar a space, after the opening one none.
                previous = _AFTER_BAR[bars]
                bars = not bars
            else:
                previous = spaces[key]
                if kind is LBRACE:
                    indentation += 1
        self.indentation, self.at_line_start, self.cursor = indentation, at_line_start, cursor
        self.previous, self.bars = previous, bars

    def finish(self, before: str, append_final_newline: bool) -> str:
        """The whole text: `before` (formatted earlier stretches), then this pass."""
        gap = self.source[self.cursor :]
        if gap.strip(_HORIZONTAL_SPACE):
            if self.at_line_start:
                if self.indentation:
                    self.parts.append(INDENT * self.indentation)
                gap = gap.lstrip(_HORIZONTAL_SPACE)
            self.parts.append(gap)
        text = (before + "".join(self.parts)).rstrip(_HORIZONTAL_SPACE)
        if append_final_newline and text and not text.endswith("\n"):
            text += "\n"
        # An ASCII text's length is its size (`isascii` reads a flag of the string).
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FORMATTED_SOURCE_BYTES:
            raise FormattedSourceTooLarge(len(text))
        return text


def _space_key(item: SpaceItem) -> str:
    """What the spacing table is keyed by: a kind's value, or the spelling."""
    return item._value_ if isinstance(item, Kind) else item


def _needs_space(previous: SpaceItem, current: SpaceItem) -> bool:
    """Whether a space goes between two tokens on a line, the lambda bars
    aside (`_Pass.feed` decides those)."""
    # `5 .field`: an adjacent dot would read as a decimal point.
    if previous is NUMBER and current == ".":
        return True
    if previous in (LPAREN, LBRACKET, ".") or current in _NO_SPACE_BEFORE or current in (".", ":"):
        return False
    if current is LPAREN:
        return previous == _CONTROL
    if current is LBRACKET:
        return previous not in _INDEXABLE
    return previous is not LBRACE


_SPACE_ITEMS: tuple[SpaceItem, ...] = (*Kind, *_SPACED_OPERATORS, _CONTROL)
_OPERATOR_KEY, _IDENT_KEY = _space_key(OPERATOR), _space_key(IDENT)
# By the previous token's key, by the next token's: whether a space goes
# between them (string keys: a Kind hashes through Python code).
_SPACES: dict[str, dict[str, bool]] = {
    _space_key(previous): {
        _space_key(current): _needs_space(previous, current) for current in _SPACE_ITEMS
    }
    for previous in _SPACE_ITEMS
}
# After a lambda's opening bar (`|a`) and after its closing one (`|a| a`).
_AFTER_BAR = (
    dict.fromkeys(map(_space_key, _SPACE_ITEMS), False),
    dict.fromkeys(map(_space_key, _SPACE_ITEMS), True),
)
