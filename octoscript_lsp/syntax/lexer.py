"""Bounded lexer for canonical Octoscript.

Every scanning function takes the source and a position and returns the
position after what it consumed, reporting problems to a sink; `tokenize`
drives them. Newlines are tokens because they end statements. Newlines inside
block comments are emitted too, exactly as the inherited streaming tokenizer
counts them, which keeps statement boundaries and the formatter's line
structure in step with the reference checker.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat, starmap

from ..limits import MAX_SYNTAX_TOKENS, TEXT_COMPARED_BLOCK_CHARS
from .codes import SyntaxCode
from .diagnostics import Diagnostic, DiagnosticSink
from .literals import (
    DIGITS,
    char_at,
    scan_number,
    scan_string,
    skip_line_comment,
    skip_single_quoted_string,
)
from .moved import MovedList, Piece, assemble, moved_pieces, pieces_of
from .text import IDENT_START, IDENTIFIER, identifier_end
from .tokens import (
    CANONICAL_OPERATORS,
    OPERATOR_CHARS,
    Kind,
    Token,
    first_token_from,
    moved_tokens,
    token_end,
    token_start,
)

_HORIZONTAL_SPACE = frozenset(" \t\f")
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
    # A plain list, or after a length-changing edit a MovedList whose
    # unchanged tail is the previous version's tokens, moved on demand.
    tokens: list[Token] | MovedList[Token]
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
    """Collects tokens up to the token budget; reports the overflow once.

    `tokens` holds the freshly scanned ones; the reused ones before them
    (`head`, counted against the budget) and the adopted ones after them
    (`tail`) are pieces of older lists.
    """

    __slots__ = ("tokens", "max_tokens", "sink", "limit_offset", "room", "tail")

    def __init__(self, max_tokens: int, sink: DiagnosticSink, head: list[Piece]) -> None:
        self.tokens: list[Token] = []
        self.max_tokens = max_tokens
        self.sink = sink
        self.limit_offset: int | None = None
        self.room = max_tokens - sum(high - low for _, low, high, _ in head)
        self.tail: list[Piece] = []

    def count(self) -> int:
        return self.max_tokens - self.room + len(self.tokens)

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
    return _tokenize_from(source, max_tokens, 0, DiagnosticSink(), [], [])


def retokenize(
    source: str,
    previous_source: str,
    previous: LexResult,
    max_tokens: int = MAX_SYNTAX_TOKENS,
    extent: tuple[int, int] | None = None,
) -> tuple[LexResult, int]:
    """Lex `source` reusing `previous` up to the last newline before the first change.

    Returns the result and how many leading tokens are shared with `previous`
    (the same tokens). The lexer restarts at the start of a newline token
    outside any comment (its state there is always the initial one, and every
    token and diagnostic before it depends only on unchanged text), or at the
    start of the text when the change is on the first line; either way it
    stops once it is back in step with the old tokens after the change.
    `extent` is `edit_extent(previous_source, source)` when the caller has it.
    """
    if previous.truncated or len(previous.tokens) > max_tokens + 1:
        return tokenize(source, max_tokens), 0
    unchanged, tail = extent if extent is not None else edit_extent(previous_source, source)
    restart, shared = _restart_point(previous, unchanged)
    limit = previous.token_limit_offset
    carried_limit = limit if limit is not None and limit < restart else None
    sink = DiagnosticSink()
    for diagnostic in previous.diagnostics:
        if diagnostic.offset < restart:
            sink.report(diagnostic.offset, diagnostic.message, diagnostic.code)
    comments = previous.comments[: bisect_left(previous.comments, (restart, -1))]
    resync = _Resync.after_change(source, previous_source, previous, restart, unchanged, tail)
    head = pieces_of(previous.tokens, 0, shared)
    result = _tokenize_from(
        source, max_tokens, restart, sink, head, comments, carried_limit, resync
    )
    return result, shared


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


def _restart_point(previous: LexResult, unchanged: int) -> tuple[int, int]:
    """(offset, token index) of the last reusable newline token before offset
    `unchanged`, or (0, 0): the start of the text, where the lexer is in its
    initial state too."""
    tokens = previous.tokens
    comments = previous.comments
    index = _last_token_ending_by(tokens, unchanged)
    while index >= 0:
        token = tokens[index]
        if token.kind is Kind.NEWLINE and not inside_comment(comments, token.start):
            return token.start, index
        index -= 1
    return 0, 0


def _last_token_ending_by(tokens: Sequence[Token], offset: int) -> int:
    low, high = 0, len(tokens) - 1  # the END token never qualifies
    while low < high:
        middle = (low + high) // 2
        if token_end(tokens, middle) <= offset:
            low = middle + 1
        else:
            high = middle
    return low - 1


def inside_comment(comments: list[tuple[int, int]], offset: int) -> bool:
    """Whether `offset` lies in one of the (sorted, disjoint) comment spans."""
    index = bisect_right(comments, offset, key=lambda span: span[0]) - 1
    return index >= 0 and offset < comments[index][1]


def starts_in_initial_state(lex: LexResult, index: int) -> bool:
    """Whether token `index` was scanned from the lexer's initial state.

    Every token is, except a newline inside a block comment. From such a
    token on, the tokens depend only on the text from its start: two texts
    sharing that tail lex it to the same tokens (offsets shifted).
    """
    token = lex.tokens[index]
    return token.kind is not Kind.NEWLINE or not inside_comment(lex.comments, token.start)


class _Resync:
    """Where re-lexing may stop: the old token stream past the edit, shifted.

    At a line break (LF or CRLF) the lexer meets outside any comment or
    string its state is the initial one. Once such a line break lies in the
    unchanged tail of the text and the old stream had a newline token at the
    same place (outside a comment), every later old token, comment and
    diagnostic is exactly what lexing on would produce, moved by the length
    difference of the edit.
    """

    __slots__ = ("previous", "delta", "from_offset")

    def __init__(self, previous: LexResult, delta: int, from_offset: int) -> None:
        self.previous = previous
        self.delta = delta  # new offset minus old offset in the unchanged tail
        self.from_offset = from_offset  # new offsets from here on are in that tail

    @classmethod
    def after_change(
        cls,
        source: str,
        previous_source: str,
        previous: LexResult,
        restart: int,
        unchanged: int,
        tail: int,
    ) -> _Resync | None:
        """`tail` is the texts' common suffix after their `unchanged` prefix;
        the lexer may be back in step anywhere after `restart`."""
        if previous.token_limit_offset is not None:
            return None
        new_end, old_end = len(source), len(previous_source)
        if tail == min(new_end, old_end) - unchanged and unchanged > restart:
            # The suffix ran into the prefix's end: it may go on, up to `restart`
            # (the slices end where the suffix starts: at most that stretch).
            new_stop, old_stop = new_end - tail, old_end - tail
            more = min(unchanged - restart, new_stop, old_stop)
            tail += common_suffix(
                source[new_stop - more : new_stop],
                previous_source[old_stop - more : old_stop],
                more,
            )
        if tail == 0:
            return None
        return cls(previous, new_end - old_end, new_end - tail)

    def adopt(self, pos: int, out: _TokenBuffer, sink: DiagnosticSink, comments: list) -> bool:
        """Append the old stream from the line break at new offset `pos`, if it is in step."""
        previous, delta = self.previous, self.delta
        old_tokens = previous.tokens
        old_pos = pos - delta
        index = first_token_from(old_tokens, old_pos)
        if index >= len(old_tokens) or token_start(old_tokens, index) != old_pos:
            return False
        if old_tokens[index].kind is not Kind.NEWLINE:
            return False
        if inside_comment(previous.comments, old_pos):
            return False
        if out.count() + len(old_tokens) - index > out.max_tokens + 1:
            return False  # the budget would run out in the tail: lex it instead
        # Only references to the old tokens: they are moved when read.
        out.tail = moved_pieces(pieces_of(old_tokens, index, len(old_tokens) - 1), 0, delta)
        first_comment = bisect_left(previous.comments, (old_pos, -1))
        comments.extend(
            (start + delta, end + delta) for start, end in previous.comments[first_comment:]
        )
        for diagnostic in previous.diagnostics:
            if diagnostic.offset >= old_pos:
                sink.report(diagnostic.offset + delta, diagnostic.message, diagnostic.code)
        return True


def _tokenize_from(
    source: str,
    max_tokens: int,
    pos: int,
    sink: DiagnosticSink,
    head: list[Piece],
    comments: list[tuple[int, int]],
    limit_offset: int | None = None,
    resync: _Resync | None = None,
) -> LexResult:
    out = _TokenBuffer(max_tokens, sink, head)
    out.limit_offset = limit_offset
    length = len(source)
    # Line feeds from here on are checked for being back in step with the old stream.
    resync_at = resync.from_offset if resync is not None else length + 1
    _lex(source, pos, out, comments, resync_at, resync)
    # END sits outside the token budget so a full budget still terminates.
    out.tokens.append(Token(Kind.END, "", length, length))
    tokens: list[Token] | MovedList[Token] = out.tokens
    if head or out.tail:
        last = len(out.tokens) - 1
        fresh: list[Piece] = [(out.tokens, 0, last, None)]
        tokens = assemble(
            head + fresh + out.tail + [(out.tokens, last, last + 1, None)], moved_tokens
        )
    return LexResult(tokens, sink.items, sink.truncated, comments, out.limit_offset)


def _lex(
    source: str,
    pos: int,
    out: _TokenBuffer,
    comments: list[tuple[int, int]],
    resync_at: int,
    resync: _Resync | None,
) -> None:
    """Lex from `pos` to the end of the text, or until the old stream's tail
    is adopted. Runs of common tokens come from the `_COMMON` scanner; where
    it does not match, `_scan_rare` takes one construct."""
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
                # A line break, LF or CRLF, starts in the lexer's initial state:
                # in the unchanged tail the old stream from here on is adoptable.
                if start >= resync_at and resync.adopt(start, out, sink, comments):
                    return
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
    if char == "/" and pos + 1 < length and source[pos + 1] == "/":
        end = skip_line_comment(source, pos)
        comments.append((pos, end))
        return end
    if char == "/" and pos + 1 < length and source[pos + 1] == "*":
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
    if source[pos] == "\n":
        out.emit(Kind.NEWLINE, "\n", pos, pos + 1)
        return pos + 1
    return _scan_carriage_return(source, pos, out, sink)


def _scan_carriage_return(source: str, pos: int, out: _TokenBuffer, sink: DiagnosticSink) -> int:
    if pos + 1 < len(source) and source[pos + 1] == "\n":
        out.emit(Kind.NEWLINE, "\r\n", pos, pos + 2)
        return pos + 2
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
