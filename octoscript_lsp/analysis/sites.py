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
from dataclasses import dataclass

from ..limits import (
    MAX_MODULE_PATH_SEGMENTS,
    MAX_SIGNATURE_ARGUMENTS,
    MAX_SIGNATURE_DELIMITER_DEPTH,
)
from ..syntax.lexer import common_prefix, common_suffix
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
from ..syntax.tokens import Token, first_token_from
from ..syntax.trivia import (
    block_comment_end,
    line_comment_end,
    skip_string,
    skip_trivia,
    string_end,
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


@dataclass(frozen=True, slots=True)
class StringRegion:
    content_start: int
    content_end: int
    terminated: bool


def _string_read_end(region: StringRegion) -> int:
    return region.content_end + 1


def _comment_read_end(comment: tuple[int, int]) -> int:
    return comment[1] + 1


class TextRegions:
    """String contents and comments of a text, found in one left-to-right pass.

    Between regions the pass has no state, so with an earlier version of the
    text it keeps the regions read wholly before the first change, scans
    from there, and once it stands outside every region in the unchanged tail
    where the earlier pass stood outside too, takes the earlier regions from
    there on, moved by the length difference.
    """

    __slots__ = ("source", "length", "strings", "string_starts", "comments", "comment_starts")

    def __init__(self, source: str, previous: TextRegions | None = None) -> None:
        self.source = source
        self.length = len(source)
        self.strings: list[StringRegion] = []
        self.comments: list[tuple[int, int]] = []
        index = 0
        resync = None
        if previous is not None and previous.length:
            index, resync = self._start_from(source, previous)
        length = len(source)
        find = source.find
        while index < length:
            quote = find('"', index)
            slash = find("/", index)
            if quote == -1 and slash == -1:
                break
            if slash != -1 and (quote == -1 or slash < quote):
                index = self._comment(source, slash)
            else:
                index = self._string(source, quote)
            if resync is not None and index >= resync[1] and self._adopt(previous, index, resync):
                break
        self.string_starts = [region.content_start for region in self.strings]
        self.comment_starts = [start for start, _ in self.comments]

    def _start_from(self, source: str, previous: TextRegions) -> tuple[int, tuple | None]:
        """Keep the earlier regions read before the first change; where to scan on."""
        old = previous.source
        unchanged = common_prefix(source, old)
        resume = 0
        # Regions never overlap, so their ends grow with their starts: the
        # ones read wholly before the change are a leading slice.
        kept = bisect_right(previous.strings, unchanged, key=_string_read_end)
        if kept:
            self.strings = previous.strings[:kept]
            last = self.strings[-1]
            resume = last.content_end + 1 if last.terminated else last.content_end
        kept = bisect_right(previous.comments, unchanged, key=_comment_read_end)
        if kept:
            self.comments = previous.comments[:kept]
            resume = max(resume, self.comments[-1][1])
        tail = common_suffix(source, old, min(len(old), len(source)) - unchanged)
        resync = (len(source) - len(old), len(source) - tail) if tail else None
        return resume, resync

    def _adopt(self, previous: TextRegions, index: int, resync: tuple[int, int]) -> bool:
        """At `index` (outside every region, in the unchanged tail): take the rest."""
        delta = resync[0]
        old_index = index - delta
        if not previous.outside_at(old_index):
            return False
        first = bisect_left(previous.string_starts, old_index + 1)
        if delta:
            self.strings.extend(
                StringRegion(start + delta, end + delta, terminated)
                for start, end, terminated in (
                    (region.content_start, region.content_end, region.terminated)
                    for region in previous.strings[first:]
                )
            )
        else:
            self.strings.extend(previous.strings[first:])
        first = bisect_left(previous.comment_starts, old_index)
        self.comments.extend(
            (start + delta, end + delta) for start, end in previous.comments[first:]
        )
        return True

    def outside_at(self, offset: int) -> bool:
        """Whether the pass stood outside every region at `offset`."""
        position = bisect_right(self.string_starts, offset) - 1
        if position >= 0:
            region = self.strings[position]
            resume = region.content_end + 1 if region.terminated else region.content_end
            if region.content_start - 1 < offset < resume:
                return False
        position = bisect_right(self.comment_starts, offset) - 1
        return position < 0 or not (
            self.comments[position][0] < offset < self.comments[position][1]
        )

    def _comment(self, source: str, slash: int) -> int:
        following = source[slash + 1 : slash + 2]
        if following == "/":
            end = line_comment_end(source, slash)
            self.comments.append((slash, end))
            return end
        if following == "*":
            end = block_comment_end(source, slash)
            if end is None:
                end = len(source)
            self.comments.append((slash, end))
            # An unterminated block comment hides every later string.
            return end
        return slash + 1

    def _string(self, source: str, quote: int) -> int:
        found = string_end(source, quote + 1)
        if found.closed:
            self.strings.append(StringRegion(quote + 1, found.end - 1, True))
            return found.end
        end = min(found.end, len(source))
        self.strings.append(StringRegion(quote + 1, end, False))
        return end

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

    def in_comment(self, offset: int) -> bool:
        position = bisect_right(self.comment_starts, offset) - 1
        if position < 0:
            return False
        start, end = self.comments[position]
        return start <= offset <= end


# ---------------------------------------------------------------- member sites


@dataclass(frozen=True, slots=True)
class MemberSite:
    """`a.b.member|`: receivers outermost first, then the member being typed."""

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


_INTERESTING = re.compile(r'["/()\[\]{},\n]')
_CLOSERS = {")": "(", "]": "[", "}": "{"}


class _Refused(Exception):
    """The scan reached something that rules signature help out from here on."""


def _scan_delimiters(
    source: str,
    index: int,
    offset: int,
    stack: list[list],
    checkpoint=None,
) -> bool:
    """Advance the delimiter scan from `index` to `offset`, updating `stack`.

    Returns False when the cursor sits in an unterminated string (the scan
    stops there, which is fine); raises _Refused where help must not be
    offered. `checkpoint(position, stack)` is told the state after each
    newline outside strings and comments.
    """
    search = _INTERESTING.search
    while index < offset:
        found = search(source, index, offset)
        if found is None:
            return True
        index = found.start()
        char = source[index]
        if char == "\n":
            index += 1
            if checkpoint is not None:
                checkpoint(index, stack)
        elif char == '"':
            index, terminated = skip_string(source, index + 1, offset)
            if index is None:
                raise _Refused
            if not terminated:
                return False
        elif char == "/":
            following = source[index + 1 : index + 2]
            if following == "/":
                end = line_comment_end(source, index, offset)
                if end == offset:
                    raise _Refused
                index = end
            elif following == "*":
                end = block_comment_end(source, index, offset)
                if end is None:
                    raise _Refused
                index = end
            else:
                index += 1
        elif char in "([{":
            if len(stack) == MAX_SIGNATURE_DELIMITER_DEPTH:
                raise _Refused
            stack.append([char, index, 0])
            index += 1
        elif char in _CLOSERS:
            if not stack or stack.pop()[0] != _CLOSERS[char]:
                raise _Refused
            index += 1
        else:  # comma
            if not stack:
                raise _Refused
            top = stack[-1]
            if top[0] == "(":
                top[2] += 1
                if top[2] >= MAX_SIGNATURE_ARGUMENTS:
                    raise _Refused
            index += 1
    return True


def _as_delimiters(stack: list[list]) -> list[OpenDelimiter]:
    return [OpenDelimiter(kind, at, commas) for kind, at, commas in stack]


def open_delimiters_before(
    source: str, offset: int, index: DelimiterIndex | None = None
) -> list[OpenDelimiter] | None:
    """Delimiters still open at `offset`, or None where help must not be offered.

    Refuses a cursor inside a comment, mismatched or excess closers, a string
    broken by a newline, and more than the bounded depth or argument count. A
    string still open at the cursor is an argument being typed: fine. With a
    `DelimiterIndex` of the same text, the scan resumes from the last line
    start instead of the top of the document.
    """
    if offset > len(source):
        return None
    start, stack = (0, []) if index is None else index.resume_point(offset)
    try:
        _scan_delimiters(source, start, offset, stack)
    except _Refused:
        return None
    return _as_delimiters(stack)


class DelimiterIndex:
    """The delimiter scan of a text, remembered at every line start.

    The scan state after a newline outside strings and comments is the same
    for every cursor beyond it, so a query rescans only from its own line
    start. The scan runs lazily, only as far as a query needs, and starts
    from an earlier version's states: those before the first changed
    character hold as they are, and once the scan meets a line start past
    the change where no delimiter is open and none was open in the earlier
    version either, the earlier states after it hold too, shifted. Where the
    scan was refused it stopped: a later cursor rescans from the last line
    start before that point and meets the same refusal.
    """

    __slots__ = ("source", "positions", "states", "finished", "_earlier")

    def __init__(self, source: str, previous: DelimiterIndex | None = None) -> None:
        self.source = source
        self.positions: list[int] = [0]
        self.states: list[tuple] = [()]
        self.finished = False  # no line start past the last one is ever remembered
        self._earlier: _EarlierScan | None = None
        if previous is not None:
            self._start_from(previous)

    def _start_from(self, previous: DelimiterIndex) -> None:
        old = previous.source
        unchanged = common_prefix(self.source, old)
        # A line start at or before the first change saw only unchanged text.
        kept = bisect_right(previous.positions, unchanged)
        self.positions = previous.positions[:kept]
        self.states = previous.states[:kept]
        previous._earlier = None  # versions must not chain up in memory
        limit = min(len(old), len(self.source)) - unchanged
        tail = common_suffix(self.source, old, limit)
        if tail:
            delta = len(self.source) - len(old)
            self._earlier = _EarlierScan(previous, delta, len(self.source) - tail)

    def resume_point(self, offset: int) -> tuple[int, list[list]]:
        if not self.finished and self.positions[-1] < offset:
            self._extend(offset)
        position = bisect_right(self.positions, offset) - 1
        return self.positions[position], [list(item) for item in self.states[position]]

    def _extend(self, offset: int) -> None:
        """Remember the line starts up to `offset` (or to the end, where a
        shorter scan could be refused only because it was cut short)."""
        source = self.source
        line_start = source.rfind("\n", 0, offset) + 1
        for target in (line_start, len(source)):
            stack = [list(item) for item in self.states[-1]]
            start = self.positions[-1]
            if target <= start:
                return
            try:
                _scan_delimiters(source, start, target, stack, self._checkpoint)
            except _InStep:
                return
            except _Refused:
                continue
            if target == len(source):
                self.finished = True
            return
        self.finished = True  # refused on the way to the end: nothing more to remember

    def _checkpoint(self, position: int, current: list[list]) -> None:
        if position <= self.positions[-1]:
            return
        self.positions.append(position)
        self.states.append(tuple((kind, at, commas) for kind, at, commas in current))
        earlier = self._earlier
        if earlier is not None and not current and position >= earlier.from_offset:
            if earlier.adopt(self, position):
                raise _InStep


class _InStep(Exception):
    """The scan reached states an earlier version already has."""


@dataclass(slots=True)
class _EarlierScan:
    """An earlier version's scan and how its unchanged tail moved."""

    index: DelimiterIndex
    delta: int  # new offset minus old offset in the unchanged tail
    from_offset: int  # new offsets from here on are in that tail

    def adopt(self, target: DelimiterIndex, position: int) -> bool:
        """Take the earlier states after line start `position`, if they line up."""
        earlier, delta = self.index, self.delta
        old_position = position - delta
        at = bisect_right(earlier.positions, old_position) - 1
        if at < 0 or earlier.positions[at] != old_position or earlier.states[at]:
            return False
        if delta == 0:
            target.positions.extend(earlier.positions[at + 1 :])
            target.states.extend(earlier.states[at + 1 :])
        else:
            target.positions.extend([offset + delta for offset in earlier.positions[at + 1 :]])
            # Most line starts are outside every delimiter: their empty state stays.
            target.states.extend(
                [
                    state
                    and tuple((kind, opened + delta, commas) for kind, opened, commas in state)
                    for state in earlier.states[at + 1 :]
                ]
            )
        # Where the earlier scan stopped short, later queries go on scanning.
        target.finished = earlier.finished
        target._earlier = None
        return True


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
