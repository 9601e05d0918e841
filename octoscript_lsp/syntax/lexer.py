"""Bounded lexer for canonical Octoscript.

Every scanning function takes the source and a position and returns the
position after what it consumed, reporting problems to a sink; `tokenize`
drives them: runs of common tokens come from one regular expression, the
rest (numbers, strings and escapes with a problem, block comments over
lines) from character-level scanners; where a string or escape ends is the
trivia reader's (`trivia.py`). Newlines are tokens because they end
statements. Newlines inside block comments are emitted too, exactly as the
inherited streaming tokenizer counts them, which keeps statement boundaries
and the formatter's line structure in step with the reference checker.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat, starmap

from ..limits import MAX_SYNTAX_TOKENS, TEXT_COMPARED_BLOCK_CHARS
from .codes import SyntaxCode
from .diagnostics import Diagnostic, DiagnosticSink
from .text import IDENT_START, IDENTIFIER, identifier_end
from .tokens import CANONICAL_OPERATORS, OPERATOR_CHARS, Kind, Token
from .trivia import (
    Escape,
    EscapeProblem,
    is_line_comment,
    line_comment_end,
    opens_comment,
    single_quoted_end,
    string_end,
)

_HORIZONTAL_SPACE = frozenset(" \t\f")
DIGITS = frozenset("0123456789")
_SINGLE = {
    "{": Kind.LBRACE,
    "}": Kind.RBRACE,
    "(": Kind.LPAREN,
    ")": Kind.RPAREN,
    "[": Kind.LBRACKET,
    "]": Kind.RBRACKET,
    ",": Kind.COMMA,
    ";": Kind.SEMICOLON,
}

# The common tokens, as alternatives tried in this order. Anything else (a
# bare CR, unicode or bad escapes, numbers with a problem, block comments
# over lines or with a `*` inside, characters outside the language) is left
# to the character-by-character scanners below, which also report the
# problems.
_OPERATOR_RUN = r"[!^&*+\-|?:=@><./~%]*"
_COMMON_ALTERNATIVES = (
    IDENTIFIER.pattern,  # identifier
    r"\r?\n",  # line feed or CRLF
    r"[{}()\[\],;]",  # punctuation
    rf"(?:[!^&*+\-|?:=@><.~%]|/(?![/*])){_OPERATOR_RUN}",  # operator, not a comment
    r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![.0-9A-Za-z_])",  # number, no suffix
    r'"[^"\\\n\r]*(?:\\["\\nrt][^"\\\n\r]*)*"',  # string, simple escapes only
    r"//[^\n\r]*|/\*[^*\n\r]*\*/",  # line comment, one-line block comment without `*`
)
# One common token after any horizontal space, a group per alternative.
_COMMON = re.compile(
    r"[ \t\f]*(?:" + "|".join(f"({pattern})" for pattern in _COMMON_ALTERNATIVES) + ")"
)
(
    _IDENT_GROUP,
    _NEWLINE_GROUP,
    _PUNCTUATION_GROUP,
    _OPERATOR_GROUP,
    _NUMBER_GROUP,
    _STRING_GROUP,
    _COMMENT_GROUP,
) = range(1, 8)
# Takes the tokens past the budget and keeps none of them.
_DROP = deque(maxlen=0).append


@dataclass(slots=True)
class LexResult:
    tokens: Sequence[Token]
    diagnostics: list[Diagnostic]
    truncated: bool
    # (start, end) of every comment, in source order; comments are not tokens.
    comments: list[tuple[int, int]]
    # Where the token budget ran out (the first token not kept), if it did.
    token_limit_offset: int | None = None

    @property
    def ok(self) -> bool:
        return not self.diagnostics and not self.truncated


class _TokenBuffer:
    """Collects tokens up to the token budget; reports the overflow once."""

    __slots__ = ("tokens", "max_tokens", "sink", "limit_offset", "room")

    def __init__(self, max_tokens: int, sink: DiagnosticSink) -> None:
        self.tokens: list[Token] = []
        self.max_tokens = max_tokens
        self.sink = sink
        self.limit_offset: int | None = None
        self.room = max_tokens

    def emit(self, kind: Kind, text: str, start: int, end: int) -> None:
        if len(self.tokens) >= self.room:
            if self.limit_offset is None:
                self.limit_offset = start
                self.sink.report(
                    start,
                    f"canonical Octoscript token count exceeds the maximum of {self.max_tokens}",
                    SyntaxCode.TOKEN_LIMIT,
                )
            return
        self.tokens.append(Token(kind, text, start, end))


def tokenize(source: str, max_tokens: int = MAX_SYNTAX_TOKENS) -> LexResult:
    sink = DiagnosticSink()
    out = _TokenBuffer(max_tokens, sink)
    comments: list[tuple[int, int]] = []
    _lex(source, 0, out, comments)
    length = len(source)
    # END sits outside the token budget so a full budget still terminates.
    out.tokens.append(Token(Kind.END, "", length, length))
    return LexResult(out.tokens, sink.items, sink.truncated, comments, out.limit_offset)


def edit_extent(old: str, new: str) -> tuple[int, int]:
    """(unchanged, tail): how many leading characters two versions of a text
    share, and how many trailing ones after those (the two never overlap)."""
    unchanged = common_prefix(old, new)
    return unchanged, common_suffix(old, new, min(len(old), len(new)) - unchanged)


def common_prefix(left: str, right: str) -> int:
    """Length of the longest common prefix.

    Whole blocks first, then a binary search inside the first block that
    differs: every comparison is a slice comparison, run in C, and no slice
    is longer than a block (a 264 KB text costs a few dozen of them).
    """
    limit = min(len(left), len(right))
    low = 0
    while low + TEXT_COMPARED_BLOCK_CHARS <= limit and (
        left[low : low + TEXT_COMPARED_BLOCK_CHARS] == right[low : low + TEXT_COMPARED_BLOCK_CHARS]
    ):
        low += TEXT_COMPARED_BLOCK_CHARS
    high = min(low + TEXT_COMPARED_BLOCK_CHARS, limit)  # the prefix ends in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if left[low:middle] == right[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(left: str, right: str, limit: int) -> int:
    """Length of the longest common suffix, at most `limit` (blocks, as above)."""
    if limit <= 0:
        return 0
    left_end, right_end = len(left), len(right)
    if left[left_end - limit :] == right[right_end - limit :]:
        return limit  # one edit: everything after it (one comparison, in C)
    low = 0
    while low + TEXT_COMPARED_BLOCK_CHARS <= limit and (
        left[left_end - low - TEXT_COMPARED_BLOCK_CHARS : left_end - low]
        == right[right_end - low - TEXT_COMPARED_BLOCK_CHARS : right_end - low]
    ):
        low += TEXT_COMPARED_BLOCK_CHARS
    high = min(low + TEXT_COMPARED_BLOCK_CHARS, limit)
    while low < high:
        middle = (low + high + 1) // 2
        if left[left_end - middle : left_end - low] == right[right_end - middle : right_end - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _lex(source: str, pos: int, out: _TokenBuffer, comments: list[tuple[int, int]]) -> None:
    """Lex from `pos` to the end of the text. Runs of common tokens come from
    the `_COMMON` scanner; where it does not match, `_scan_rare` takes one
    construct."""
    length = len(source)
    sink = out.sink
    tokens = out.tokens
    keep, room = tokens.append, out.room
    single = _SINGLE
    canonical = CANONICAL_OPERATORS
    token_type = Token
    ident, newline, operator_kind = Kind.IDENT, Kind.NEWLINE, Kind.OPERATOR
    number, string = Kind.NUMBER, Kind.STRING
    endless = repeat(())
    while pos < length:
        free = room - len(tokens)
        if free >= length - pos:
            # Every token takes at least one character: the budget holds to the end.
            append, budget = keep, endless
        elif free > 0:
            # At most `free` matches, so at most `free` tokens: the budget holds.
            append, budget = keep, repeat((), free)
        elif out.limit_offset is not None:
            # Over the budget and reported: later tokens are dropped, their
            # problems still count (and resync attempts now fail).
            append, budget = _DROP, endless
        else:
            # The next token is the first over the budget: `emit` reports it.
            pos = _scan_rare(source, pos, out, sink, comments)
            continue
        # starmap bounds the matches in C; a match ends with its token.
        for found in starmap(_COMMON.scanner(source, pos).match, budget):
            if found is None:
                pos = _scan_rare(source, pos, out, sink, comments)
                break
            group = found.lastindex
            start, pos = found.span(group)
            if group == _IDENT_GROUP:
                kind = ident
                text = source[start:pos]
            elif group == _PUNCTUATION_GROUP:
                text = source[start]
                kind = single[text]
            elif group == _OPERATOR_GROUP:
                text = source[start:pos]
                if text not in canonical:
                    _report_operator(text, start, sink)
                    continue
                kind = operator_kind
            elif group == _NEWLINE_GROUP:
                text = "\n" if pos - start == 1 else "\r\n"
                kind = newline
            elif group == _NUMBER_GROUP:
                kind = number
                text = ""
            elif group == _STRING_GROUP:
                kind = string
                text = ""
            else:
                comments.append((start, pos))
                continue
            append(token_type(kind, text, start, pos))


def _scan_rare(
    source: str, pos: int, out: _TokenBuffer, sink: DiagnosticSink, comments: list
) -> int:
    """One step where `_COMMON` did not match: horizontal space, then one
    construct (CR, escapes in strings, odd numbers, block comments, ...)."""
    length = len(source)
    while pos < length and source[pos] in _HORIZONTAL_SPACE:
        pos += 1
    if pos >= length:
        return pos
    char = source[pos]
    if char == "\n" or char == "\r":
        return _scan_line_break(source, pos, out, sink)
    if char in IDENT_START:
        end = identifier_end(source, pos + 1)
        out.emit(Kind.IDENT, source[pos:end], pos, end)
        return end
    if char in DIGITS:
        end = scan_number(source, pos, sink)
        out.emit(Kind.NUMBER, "", pos, end)
        return end
    if char == '"':
        end = scan_string(source, pos, sink)
        out.emit(Kind.STRING, "", pos, end)
        return end
    if char == "'":
        return skip_single_quoted_string(source, pos, sink)
    if opens_comment(source, pos):
        if is_line_comment(source, pos):
            end = line_comment_end(source, pos)
        else:
            end = _skip_block_comment(source, pos, out, sink)
        comments.append((pos, end))
        return end
    if char in _SINGLE:
        out.emit(_SINGLE[char], char, pos, pos + 1)
        return pos + 1
    if char in OPERATOR_CHARS:
        return _scan_operator(source, pos, out, sink)
    sink.report(
        pos,
        f"unsupported character {_describe(char)} in canonical Octoscript",
        SyntaxCode.INVALID_CHARACTER,
    )
    return pos + 1


def _describe(char: str) -> str:
    if char.isprintable() and not char.isspace():
        return f"`{char}`"
    return f"U+{ord(char):04X}"


def _scan_line_break(source: str, pos: int, out: _TokenBuffer, sink: DiagnosticSink) -> int:
    """LF or CRLF: a newline token (block comments emit them too); a bare CR is an error."""
    for line_break in ("\n", "\r\n"):
        if source.startswith(line_break, pos):
            out.emit(Kind.NEWLINE, line_break, pos, pos + len(line_break))
            return pos + len(line_break)
    sink.report(
        pos,
        "bare carriage returns are not supported; use LF or CRLF line endings",
        SyntaxCode.BARE_CARRIAGE_RETURN,
    )
    return pos + 1


def _skip_block_comment(source: str, start: int, out: _TokenBuffer, sink: DiagnosticSink) -> int:
    length = len(source)
    pos = start + 2
    possible_terminator = False
    while pos < length:
        char = source[pos]
        if possible_terminator:
            # After a failed `*` candidate the next character is consumed, so
            # `**/` never closes a comment (the inherited tokenizer's rule).
            possible_terminator = False
            pos += 1
            if char == "/":
                return pos
            continue
        if char == "*" and char_at(source, pos + 1) == "/":
            return pos + 2
        if char == "*":
            possible_terminator = True
            pos += 1
        elif char == "\n" or char == "\r":
            pos = _scan_line_break(source, pos, out, sink)
        else:
            pos += 1
    sink.report(start, "unterminated block comment", SyntaxCode.UNTERMINATED_COMMENT)
    return pos


def _scan_operator(source: str, start: int, out: _TokenBuffer, sink: DiagnosticSink) -> int:
    length = len(source)
    pos = start
    while pos < length and source[pos] in OPERATOR_CHARS:
        pos += 1
    operator = source[start:pos]
    if operator in CANONICAL_OPERATORS:
        out.emit(Kind.OPERATOR, operator, start, pos)
    else:
        _report_operator(operator, start, sink)
    return pos


def _report_operator(operator: str, start: int, sink: DiagnosticSink) -> None:
    sink.report(
        start,
        f"operator `{operator}` is not part of canonical Octoscript",
        SyntaxCode.UNSUPPORTED_OPERATOR,
    )


# ---------------------------------------------------------------- literals

MSG_BAD_UNICODE_ESCAPE = (
    "unicode escapes must use four hexadecimal digits or `\\u{...}` with one to six "
    "hexadecimal digits"
)
MSG_UNICODE_SCALAR = "unicode escapes must encode a valid Unicode scalar value"
MSG_UNTERMINATED_STRING = "unterminated string literal"
MSG_UNSUPPORTED_ESCAPE = "unsupported string escape in canonical Octoscript"


def _digits_end(source: str, pos: int) -> int:
    length = len(source)
    while pos < length and source[pos] in DIGITS:
        pos += 1
    return pos


def char_at(source: str, pos: int) -> str:
    return source[pos] if pos < len(source) else ""


def scan_number(source: str, pos: int, sink: DiagnosticSink) -> int:
    pos = _digits_end(source, pos)
    if char_at(source, pos) == ".":
        if char_at(source, pos + 1) in DIGITS:
            pos = _digits_end(source, pos + 1)
        else:
            sink.report(
                pos,
                "a decimal point in a number must be followed by a digit; "
                "use a space or parentheses before field access",
                SyntaxCode.INVALID_NUMBER,
            )
    if char_at(source, pos) in ("e", "E"):
        exponent = pos
        pos += 1
        if char_at(source, pos) in ("+", "-"):
            pos += 1
        if char_at(source, pos) in DIGITS:
            pos = _digits_end(source, pos)
        else:
            sink.report(exponent, "an exponent needs at least one digit", SyntaxCode.INVALID_NUMBER)
    following = char_at(source, pos)
    if following and (following == "_" or (following.isascii() and following.isalpha())):
        sink.report(
            pos,
            "numeric literal suffixes are not part of canonical Octoscript",
            SyntaxCode.INVALID_NUMBER,
        )
    return pos


def scan_string(source: str, start: int, sink: DiagnosticSink) -> int:
    escapes: list[Escape] = []
    read = string_end(source, start + 1, escapes=escapes)
    for escape in escapes:
        if escape.problem is not None:
            _report_escape(escape, start, sink)
    if not read.closed:
        sink.report(start, MSG_UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_STRING)
    return read.end


def _report_escape(escape: Escape, string_start: int, sink: DiagnosticSink) -> None:
    match escape.problem:
        case EscapeProblem.CUT:
            sink.report(string_start, MSG_UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_STRING)
        case EscapeProblem.UNSUPPORTED:
            sink.report(escape.at, MSG_UNSUPPORTED_ESCAPE, SyntaxCode.INVALID_ESCAPE)
        case EscapeProblem.MALFORMED_UNICODE:
            sink.report(string_start, MSG_BAD_UNICODE_ESCAPE, SyntaxCode.INVALID_ESCAPE)
        case EscapeProblem.NOT_SCALAR:
            sink.report(string_start, MSG_UNICODE_SCALAR, SyntaxCode.INVALID_ESCAPE)


def skip_single_quoted_string(source: str, start: int, sink: DiagnosticSink) -> int:
    sink.report(
        start,
        "only double-quoted strings are part of canonical Octoscript",
        SyntaxCode.SINGLE_QUOTED_STRING,
    )
    return single_quoted_end(source, start + 1).end
