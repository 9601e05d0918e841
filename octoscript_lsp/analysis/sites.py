"""Cursor-site recognizers over source text.

Editor requests arrive at positions inside half-typed code, so these look at
the text around the cursor rather than the parse tree, the way the reference
server does: a member site `recv.mem|`, a `use mod.a.|` path segment, the
string argument of `tool.call("|")`, and the call whose argument list holds
the cursor. Strings and comments come from one cached scan (`TextRegions`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from ..limits import (
    MAX_MODULE_PATH_SEGMENTS,
    MAX_SIGNATURE_ARGUMENTS,
    MAX_SIGNATURE_DELIMITER_DEPTH,
)
from ..syntax.member_calls import member_call_with_argument
from ..syntax.text import (
    ASCII_SPACE,
    IDENT_CONTINUE,
    IDENT_START,
    identifier_end,
    identifier_start_before,
    is_canonical_identifier,
    skip_space_backward,
)
from ..syntax.tokens import CLOSING_CHAR, Token, first_token_from
from ..syntax.trivia import (
    StringRegion,
    block_comment_end,
    is_line_comment,
    line_comment_end,
    skip_trivia,
    text_regions,
)
from .surfaces import tool_method

_ESCAPING_CLOSERS = frozenset("[(,)]}")


def is_assignment_at(source: str, index: int) -> bool:
    """`=` (not `==`) or a compound assignment `+=`, `-=`, `*=`, `/=`, `%=`."""
    char = source[index : index + 1]
    following = source[index + 1 : index + 2]
    if char == "=":
        return following != "="
    return char in ("+", "-", "*", "/", "%") and following == "="


def may_mutate(source: str, reference_end: int) -> bool:
    """Whether the text after a reference may write, call, index or let it escape.

    Member reads `.a.b` are followed through; what comes after them decides.
    """
    index = skip_trivia(source, reference_end)
    while index is not None:
        if is_assignment_at(source, index):
            return True
        char = source[index : index + 1]
        if char != ".":
            return char in _ESCAPING_CLOSERS
        index = skip_trivia(source, index + 1)
        if index is None or source[index : index + 1] not in IDENT_START:
            return True
        index = skip_trivia(source, identifier_end(source, index + 1))
    return True


# ---------------------------------------------------------------- strings and comments


class TextRegions:
    """String contents and comments of a text, found in one left-to-right pass."""

    __slots__ = ("source", "length", "strings", "string_starts", "comments", "comment_starts")

    def __init__(self, source: str) -> None:
        self.source = source
        self.length = len(source)
        self.strings, self.comments = text_regions(source)
        self.string_starts = [region.content_start for region in self.strings]
        self.comment_starts = [start for start, _ in self.comments]

    def string_at(self, offset: int) -> StringRegion | None:
        """The string whose contents hold the cursor (an open string runs to EOF)."""
        position = bisect_right(self.string_starts, offset) - 1
        if position < 0:
            return None
        region = self.strings[position]
        if region.terminated:
            inside = offset <= region.content_end
        else:
            inside = offset < region.content_end or region.content_end == self.length
        return region if inside else None

    def comment_before(self, offset: int) -> tuple[int, int] | None:
        """The last comment starting at or before `offset`."""
        position = bisect_right(self.comment_starts, offset) - 1
        return None if position < 0 else self.comments[position]

    def in_comment(self, offset: int) -> bool:
        found = self.comment_before(offset)
        return found is not None and offset <= found[1]


# ---------------------------------------------------------------- member sites


@dataclass(frozen=True, slots=True)
class MemberSite:
    """`a.b.member|`: receivers outermost first (each a canonical identifier,
    which readers of their names rely on), then the member being typed."""

    receivers: tuple[tuple[int, int], ...]
    member_start: int
    member_end: int

    @property
    def receiver(self) -> tuple[int, int]:
        return self.receivers[0]

    @property
    def is_direct(self) -> bool:
        return len(self.receivers) == 1


def member_site(source: str, regions: TextRegions, offset: int) -> MemberSite | None:
    if offset > len(source) or regions.string_at(offset) or regions.in_comment(offset):
        return None
    member_start = identifier_start_before(source, offset)
    member_end = identifier_end(source, offset)
    if member_start == 0 or source[member_start - 1] != ".":
        return None
    if member_start < member_end and source[member_start] not in IDENT_START:
        return None
    receivers: list[tuple[int, int]] = []
    receiver_end = member_start - 1
    while True:
        if len(receivers) == MAX_MODULE_PATH_SEGMENTS:
            return None
        receiver_start = identifier_start_before(source, receiver_end)
        if not is_canonical_identifier(source[receiver_start:receiver_end]):
            return None
        receivers.append((receiver_start, receiver_end))
        if receiver_start == 0 or source[receiver_start - 1] != ".":
            break
        receiver_end = receiver_start - 1
    receivers.reverse()
    return MemberSite(tuple(receivers), member_start, member_end)


# ---------------------------------------------------------------- `use mod.` paths


@dataclass(frozen=True, slots=True)
class ImportPathSite:
    prefix: tuple[str, ...]  # always starts with "mod"
    segment_start: int
    segment_end: int


def import_path_site(source: str, regions: TextRegions, offset: int) -> ImportPathSite | None:
    if offset > len(source) or regions.string_at(offset) or regions.in_comment(offset):
        return None
    segment_start = identifier_start_before(source, offset)
    segment_end = identifier_end(source, offset)
    if segment_start < segment_end and source[segment_start] not in IDENT_START:
        return None
    before = skip_space_backward(source, segment_start)
    reversed_prefix: list[str] = []
    while True:
        if before == 0 or source[before - 1] != ".":
            return None
        before_dot = skip_space_backward(source, before - 1)
        previous_start = identifier_start_before(source, before_dot)
        previous = source[previous_start:before_dot]
        if not is_canonical_identifier(previous):
            return None
        reversed_prefix.append(previous)
        before = skip_space_backward(source, previous_start)
        if previous == "mod":
            module_start = previous_start
            break
    use_end = before
    use_start = identifier_start_before(source, use_end)
    if (
        source[use_start:use_end] != "use"
        or module_start <= use_end
        or not _is_statement_start(source, use_start)
    ):
        return None
    return ImportPathSite(tuple(reversed(reversed_prefix)), segment_start, segment_end)


def _is_statement_start(source: str, position: int) -> bool:
    while position > 0 and source[position - 1] in ASCII_SPACE:
        position -= 1
        if source[position] in "\n\r":
            return True
    return position == 0 or source[position - 1] in ";{"


# ---------------------------------------------------------------- tool-name literals


@dataclass(frozen=True, slots=True)
class ToolLiteralSite:
    method: str
    receiver: tuple[int, int]
    content_start: int
    content_end: int


def tool_literal_site(
    source: str, regions: TextRegions, tokens: list[Token], offset: int
) -> ToolLiteralSite | None:
    """The string the cursor is in, when it is the first argument of a
    `recv.m(` call of a tool method (`member_calls`, over `tokens`).

    Strictly: nothing between the receiver, the `.` and the method name,
    only white space around the `(` (line breaks too), and the receiver one
    whole identifier, not reserved, not written right after a `.`."""
    region = regions.string_at(offset)
    if region is None:
        return None
    string = first_token_from(tokens, region.content_start - 1)
    if string == len(tokens) or tokens[string].start != region.content_start - 1:
        return None
    receiver = member_call_with_argument(tokens, string)
    if receiver is None:
        return None
    name, dot, method, paren = tokens[receiver : receiver + 4]
    if (
        dot.start != name.end
        or method.start != dot.end
        or not _white_space(source, method.end, paren.start)
        or not _white_space(source, paren.end, tokens[string].start)
        or _continues_a_name(source, name.start)
        or tool_method(method.text) is None
        or not is_canonical_identifier(name.text)
    ):
        return None
    return ToolLiteralSite(
        method.text, (name.start, name.end), region.content_start, region.content_end
    )


def _white_space(source: str, start: int, end: int) -> bool:
    return all(char in ASCII_SPACE for char in source[start:end])


def _continues_a_name(source: str, start: int) -> bool:
    """Right after a `.` or identifier characters (`a.tool`, `1tool`: the
    lexer splits a number from a name): not a receiver of its own."""
    return start > 0 and (source[start - 1] == "." or source[start - 1] in IDENT_CONTINUE)


# ---------------------------------------------------------------- call context


@dataclass(frozen=True, slots=True)
class OpenDelimiter:
    kind: str  # "(", "[" or "{"
    offset: int
    commas: int


_DELIMITER = re.compile(r"[()\[\]{},]")


def open_delimiters_before(
    source: str, offset: int, index: DelimiterIndex | None = None
) -> list[OpenDelimiter] | None:
    """Delimiters still open at `offset`, or None where help must not be offered.

    Refuses a cursor inside a comment, mismatched or excess closers, a string
    broken by a newline, and more than the bounded depth or argument count. A
    string still open at the cursor is an argument being typed: fine. A
    `DelimiterIndex` of the same text lends its string and comment regions.
    """
    if offset > len(source):
        return None
    stack = (DelimiterIndex(source) if index is None else index).open_before(offset)
    return None if stack is None else [OpenDelimiter(*item) for item in stack]


class DelimiterIndex:
    """The delimiter scan of one text: from the top to the cursor, reading
    the brackets and commas between the strings and comments of its
    `TextRegions`."""

    __slots__ = ("source", "regions", "resume")

    def __init__(
        self,
        source: str,
        regions: TextRegions | None = None,
        resume: Callable[[int], int] | None = None,
    ) -> None:
        self.source = source
        self.regions = TextRegions(source) if regions is None else regions
        # Where the scan for an offset may start: a place before it where the
        # scan from the top has nothing open and has refused nothing.
        self.resume = resume

    def open_before(self, offset: int) -> list[list] | None:
        """[kind, offset, commas] of each delimiter open at `offset`, outermost
        first; None where help must not be offered."""
        start = self.resume(offset) if self.resume is not None else 0
        code = self._code_before(offset, start)
        if code is None:
            return None
        stack: list[list] = []
        find = code.find
        at = 0
        for char in _DELIMITER.findall(code):
            if char in CLOSING_CHAR:
                if len(stack) == MAX_SIGNATURE_DELIMITER_DEPTH:
                    return None
                # The delimiters come in order: this is the first such opener left.
                at = find(char, at)
                stack.append([char, at + start, 0])
                at += 1
            elif char != ",":
                if not stack or CLOSING_CHAR[stack.pop()[0]] != char:
                    return None
            elif not stack:
                return None
            else:
                top = stack[-1]
                if top[0] == "(":
                    top[2] += 1
                    if top[2] >= MAX_SIGNATURE_ARGUMENTS:
                        return None
        return stack

    def _code_before(self, offset: int, start: int) -> str | None:
        """The text the scan reads from `start` to `offset`, its strings and
        comments blanked out (offsets kept, counted from `start`), up to a
        string or a `//` the cursor is in; None for a cursor in a comment or
        past a broken string."""
        source, regions = self.source, self.regions
        strings, comments = regions.strings, regions.comments
        pieces: list[str] = []
        index = start
        next_string = bisect_left(regions.string_starts, start)
        next_comment = bisect_left(regions.comment_starts, start)
        while True:
            string_start = (
                strings[next_string].content_start - 1 if next_string < len(strings) else offset
            )
            comment_start = comments[next_comment][0] if next_comment < len(comments) else offset
            start = min(string_start, comment_start, offset)
            pieces.append(source[index:start])
            if start == offset:
                break
            if start == string_start:
                region = strings[next_string]
                next_string += 1
                if region.content_end >= offset:
                    break  # the cursor is in it: an argument being typed
                if not region.terminated:
                    return None  # broken by a line break
                index = region.content_end + 1
            else:
                next_comment += 1
                if is_line_comment(source, start):
                    index = line_comment_end(source, start, offset)
                    if index == offset:
                        return None  # the cursor is in it
                else:
                    index = block_comment_end(source, start, offset)
                    if index is None:
                        return None  # the cursor is in it
                if index >= offset:
                    break  # closed at the cursor, or a `//` split by it
            pieces.append(" " * (index - start))
        return "".join(pieces)


def settles(text: str) -> bool:
    """Whether the delimiter scan, read over `text` alone, ends where it
    started: no string or comment running to its end, nothing open, nothing
    refused. Then a scan from the top is in that state after `text` too."""
    regions = TextRegions(text)
    if any(not region.terminated for region in regions.strings):
        return False
    if regions.comments and regions.comments[-1][1] >= len(text):
        return False
    return DelimiterIndex(text, regions).open_before(len(text)) == []


@dataclass(frozen=True, slots=True)
class CallContext:
    open_paren: int
    callee_end: int
    active_argument: int


def call_context(
    source: str, offset: int, index: DelimiterIndex | None = None
) -> CallContext | None:
    delimiters = open_delimiters_before(source, offset, index)
    if not delimiters:
        return None
    for delimiter in reversed(delimiters):
        if delimiter.kind == "(":
            callee_end = skip_space_backward(source, delimiter.offset)
            return CallContext(delimiter.offset, callee_end, delimiter.commas)
    return None


def direct_callee(source: str, context: CallContext) -> tuple[int, int] | None:
    """`name(` not preceded by a dot: the span of `name`."""
    start = identifier_start_before(source, context.callee_end)
    if start == context.callee_end:
        return None
    before = skip_space_backward(source, start)
    if before > 0 and source[before - 1] == ".":
        return None
    if not is_canonical_identifier(source[start : context.callee_end]):
        return None
    return (start, context.callee_end)
