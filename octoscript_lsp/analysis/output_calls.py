"""Call-result bindings: `let r = recv.method(x)`, maybe followed by `.await()`.

Recognized from the source text after the binding (the reference reads the
initializer as text, not tokens): exactly one non-empty argument, then only
trivia up to a statement boundary. Output-field completion starts here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import MAX_OUTPUT_CALL_DEPTH, MAX_OUTPUT_INITIALIZER_CHARS
from ..syntax.member_calls import MemberCallText, member_call_after
from ..syntax.text import (
    IDENT_START,
    TRIVIA_SPACE,
    identifier_end,
    is_canonical_identifier,
)
from ..syntax.tokens import CLOSING_CHAR
from ..syntax.tree import SymbolKind
from ..syntax.trivia import (
    block_comment_end,
    comment_end,
    is_line_comment,
    line_comment_end,
    opens_comment,
    skip_trivia,
    string_end,
)
from .lexical import Symbol

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class OutputCall:
    """`recv.method(x)` as a whole `let` initializer, maybe followed by `.await()`."""

    receiver: Span
    member: Span
    awaited: bool


def output_call_binding(source: str, symbol: Symbol, prefix_end: int) -> OutputCall | None:
    """Recognize `let r = recv.method(x)` / `... .await()` from the source text."""
    if symbol.kind is not SymbolKind.LET or symbol.end > prefix_end or prefix_end > len(source):
        return None
    limit = min(symbol.end + MAX_OUTPUT_INITIALIZER_CHARS, prefix_end)
    assignment = skip_trivia(source, symbol.end, limit)
    if assignment is None or source[assignment : assignment + 1] != "=":
        return None
    if assignment + 1 < limit and source[assignment + 1] == "=":
        return None
    start = skip_trivia(source, assignment + 1, limit)
    if start is None:
        return None
    found = _direct_call_at(source, start, min(start + MAX_OUTPUT_INITIALIZER_CHARS, prefix_end))
    if found is None:
        return None
    receiver, member, call_end = found
    awaited = source.startswith(".await()", call_end) and call_end + 8 <= limit
    end = call_end + 8 if awaited else call_end
    if not _statement_boundary(source, end, limit):
        return None
    return OutputCall(receiver, member, awaited)


#: `recv.method(` written without trivia, canonical names, one member.
_INITIALIZER_CALL = MemberCallText(trivia=False, max_members=1, canonical=True)


def _direct_call_at(source: str, start: int, limit: int) -> tuple[Span, Span, int] | None:
    if start >= limit or source[start] not in IDENT_START:
        return None
    receiver_end = identifier_end(source, start + 1, limit)
    if not is_canonical_identifier(source[start:receiver_end]):
        return None
    tail = member_call_after(source, receiver_end, _INITIALIZER_CALL, limit)
    if tail is None:
        return None
    call_end = _single_argument_call_end(source, tail.open_paren, limit)
    if call_end is None:
        return None
    return (start, receiver_end), tail.members[0], call_end


_CLOSERS = frozenset(CLOSING_CHAR.values())


def _single_argument_call_end(source: str, opening: int, limit: int) -> int | None:
    """End of `( x )` with exactly one non-empty argument, else None."""
    stack = [")"]
    started = False
    index = opening + 1
    while index < limit:
        char = source[index]
        if char == '"':
            started = True
            found = string_end(source, index + 1, limit)
            if not found.closed:
                return None
            index = found.end
            continue
        if opens_comment(source, index, limit):
            index = comment_end(source, index, limit)
            if index is None:
                return None
            continue
        if char in CLOSING_CHAR:
            if len(stack) == MAX_OUTPUT_CALL_DEPTH:
                return None
            started = True
            stack.append(CLOSING_CHAR[char])
        elif char in _CLOSERS:
            if stack.pop() != char:
                return None
            if not stack:
                return index + 1 if started else None
        elif char in ",;" and len(stack) == 1:
            return None
        elif char not in TRIVIA_SPACE:
            started = True
        index += 1
    return None


def _statement_boundary(source: str, index: int, limit: int) -> bool:
    """Only trivia, then a newline, `;` or `}` (or the end of the prefix)."""
    if index > limit:
        return False
    while index < limit:
        char = source[index]
        if char in ";}\n":
            return True
        if char == "\r":
            return index + 1 < limit and source[index + 1] == "\n"
        if char in TRIVIA_SPACE:
            index += 1
        elif opens_comment(source, index, limit) and is_line_comment(source, index):
            index = line_comment_end(source, index, limit)
        elif opens_comment(source, index, limit):
            end = block_comment_end(source, index, limit)
            if any(mark in source[index : limit if end is None else end] for mark in "\n\r"):
                return True
            if end is None:
                return False
            index = end
        else:
            return False
    return True
