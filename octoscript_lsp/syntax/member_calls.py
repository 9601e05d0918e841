"""The one recognizer of a member call `recv.m(` (and `recv.a.b(`), over
tokens (identifier, `.`, identifier, `(` as consecutive tokens: no line
break between them) or over text (`MemberCallText` says how strictly, for
the rules the reference reads as text). `tests/architecture/test_one_model.py`
keeps other modules from matching the shape themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import IDENT_START, identifier_end, is_canonical_identifier
from .tokens import Kind, Token
from .trivia import skip_trivia

Span = tuple[int, int]


# ---------------------------------------------------------------- tokens


def follows_dot(tokens: list[Token], index: int) -> bool:
    """The token at `index` is itself a member name (`x.<here>`)."""
    return index > 0 and tokens[index - 1].is_op(".")


def is_member_call(tokens: list[Token], index: int) -> bool:
    """`identifier . identifier (` starting at `index`."""
    return (
        index + 3 < len(tokens)
        and tokens[index].kind is Kind.IDENT
        and tokens[index + 1].is_op(".")
        and tokens[index + 2].kind is Kind.IDENT
        and tokens[index + 3].kind is Kind.LPAREN
    )


def member_call_receivers(tokens: list[Token]) -> list[int]:
    """Indices of every `receiver . method (` not itself after a dot: the
    shape of `is_member_call` and `follows_dot`, written out for a whole stream."""
    found = []
    ident, operator, paren = Kind.IDENT, Kind.OPERATOR, Kind.LPAREN
    for index in range(len(tokens) - 3):
        if tokens[index].kind is not ident:
            continue
        dot = tokens[index + 1]
        if dot.kind is not operator or dot.text != ".":
            continue
        if tokens[index + 2].kind is not ident or tokens[index + 3].kind is not paren:
            continue
        if index > 0 and tokens[index - 1].kind is operator and tokens[index - 1].text == ".":
            continue
        found.append(index)
    return found


def member_call_with_argument(tokens: list[Token], argument: int) -> int | None:
    """The receiver's index of the `recv.m(` whose first argument is the
    token at `argument` (line breaks may sit between the `(` and it), read
    forwards from the receiver (which may itself follow a dot: see
    `follows_dot`); None when there is none."""
    paren = argument - 1
    while paren >= 0 and tokens[paren].kind is Kind.NEWLINE:
        paren -= 1
    receiver = paren - 3
    return receiver if receiver >= 0 and is_member_call(tokens, receiver) else None


def is_receiver_or_callee(tokens: list[Token], index: int) -> bool:
    """The name at `index` starts a member access or a call (`x.` or `x(`)."""
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is None:
        return False
    return following.kind is Kind.LPAREN or following.is_op(".")


# ---------------------------------------------------------------- text


@dataclass(frozen=True, slots=True)
class MemberCallText:
    """How strictly a text reading takes `recv.m(`."""

    trivia: bool  # comments and white space may separate the parts
    max_members: int  # member names after the receiver, at most
    canonical: bool  # each member name is one identifier token, not reserved


@dataclass(frozen=True, slots=True)
class MemberCallTail:
    """The `.a.b(` after a receiver: its member names and the `(`."""

    members: tuple[Span, ...]
    open_paren: int


def _next(source: str, index: int, limit: int, trivia: bool) -> int | None:
    if trivia:
        return skip_trivia(source, index, limit)
    return index


def _char(source: str, index: int, limit: int) -> str:
    return source[index] if index < limit else ""


def member_call_after(
    source: str, receiver_end: int, shape: MemberCallText, limit: int | None = None
) -> MemberCallTail | None:
    """`.a(` or `.a.b(` ... right after a receiver ending at `receiver_end`."""
    limit = len(source) if limit is None else limit
    index = receiver_end
    members: list[Span] = []
    while True:
        separator = _next(source, index, limit, shape.trivia)
        if separator is None or _char(source, separator, limit) != ".":
            return None
        member = _next(source, separator + 1, limit, shape.trivia)
        if member is None or _char(source, member, limit) not in IDENT_START:
            return None
        if len(members) == shape.max_members:
            return None
        member_end = identifier_end(source, member + 1, limit)
        if shape.canonical and not is_canonical_identifier(source[member:member_end]):
            return None
        members.append((member, member_end))
        following = _next(source, member_end, limit, shape.trivia)
        if following is None:
            return None
        char = _char(source, following, limit)
        if char == "(":
            return MemberCallTail(tuple(members), following)
        if char != ".":
            return None
        index = following
