"""Canonical formatter: whitespace only, driven by the token stream.

It never rewrites a token, so literal spellings and comments survive
byte for byte; only horizontal spacing, indentation (four spaces per open
brace), line endings and trailing whitespace change. The caller must pass
tokens of source that already passed the checker.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..limits import MAX_FORMATTED_SOURCE_BYTES
from .statements import Statement, Statements
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
    formatter.write_gap(len(source))
    # A newline is a token: under an exactly full token budget the final
    # newline is left off so the output still checks.
    return _finished("".join(formatter.parts), len(tokens) <= max_tokens)


# The per-statement view: a statement's text formatted from the formatter's
# initial state, and whether the pass is in that state again after its tokens.
FORMATTED = "formatted"


def format_statements(statements: Statements, max_tokens: int) -> str:
    """`format_tokens` of valid source, one top-level statement at a time.

    A statement that starts and ends with the pass in its initial state (at
    a line start outside every brace and lambda parameter list) formats the
    same wherever it stands, so its text is its view; one that does not end
    so is formatted plainly with the ones after it until the pass is back.
    """
    every = [statements.head, *statements.statements]
    last = len(every) - 1
    parts: list[str] = []
    starts: list[int] | None = None  # of `every`, made once a statement needs them
    position = 0
    while position <= last:
        text, ends = every[position].view(FORMATTED, _formatted)
        if ends or position == last:
            parts.append(text)
            position += 1
        else:
            starts = starts or [0, *statements.starts]
            position = _format_plainly(statements.source, every, starts, position, parts)
    # The END token counts: under an exactly full token budget the final
    # newline is left off so the output still checks.
    return _finished("".join(parts), statements.totals[0] + 1 <= max_tokens)


def _formatted(statement: Statement) -> tuple[str, bool]:
    formatter = _Pass(statement.build.text, statement.origin)
    formatter.feed(statement.tokens[statement.first : statement.after])
    ends = formatter.at_top_level_line_start()
    formatter.write_gap(statement.end)
    return "".join(formatter.parts), ends


def _format_plainly(
    source: str, every: list[Statement], starts: list[int], position: int, parts: list[str]
) -> int:
    """Format the statements from `position` on (the head first, at 0) in
    one pass over their tokens placed in `source`, until one leaves the pass
    in its initial state; the position after it."""
    formatter = _Pass(source, starts[position])
    while position < len(every):
        statement = every[position]
        shift = starts[position] - statement.origin
        formatter.feed(
            Token(token.kind, token.text, token.start + shift, token.end + shift)
            for token in statement.tokens[statement.first : statement.after]
        )
        position += 1
        if formatter.at_top_level_line_start():
            break
    formatter.write_gap(starts[position] if position < len(every) else len(source))
    parts.append("".join(formatter.parts))
    return position


class _Pass:
    """One left-to-right formatting pass over tokens from `cursor` on; `feed`
    runs once per token, so its state lives in locals and the spacing rule
    is read from a table (`_SPACES`)."""

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

    def write_gap(self, stop: int) -> None:
        """The text from the cursor to `stop` (no token in it), written as
        the gap before a token is: only a comment in it is kept."""
        gap = self.source[self.cursor : stop]
        self.cursor = stop
        if gap.strip(_HORIZONTAL_SPACE):
            if self.at_line_start:
                if self.indentation:
                    self.parts.append(INDENT * self.indentation)
                gap = gap.lstrip(_HORIZONTAL_SPACE)
                self.at_line_start = False
            self.parts.append(gap)


def _finished(text: str, append_final_newline: bool) -> str:
    """The whole formatted text, its trailing whitespace gone."""
    text = text.rstrip(_HORIZONTAL_SPACE)
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
