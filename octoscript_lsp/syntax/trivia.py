"""Comments, strings and escapes, by the lexer's rules: the one trivia reader.

Whatever reads raw text outside the lexer (the cursor sites' string and
comment regions, a `let` initializer's shape, a call's argument text) and the
lexer's own literal scanners ask here, so a comment or string ends exactly
where the lexer ends it (`tests/architecture/test_trivia_reader.py`;
`tests/syntax/test_trivia.py` compares these rules with the lexer).

- A line comment runs to the next LF or CR, or the end.
- A block comment closes at `*/`; a `*` not followed by `/` takes the next
  character with it, so `**/` does not close one while `***/` does (the
  inherited tokenizer's rule).
- A double-quoted string closes at `"` and is cut short by a line break; an
  escape is `\\` and one character, `\\u` and up to four hex digits, or
  `\\u{...}` (a malformed one runs to the next `}` or LF). Canonical ones:
  `\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, and a `\\u` of four digits, or one to six
  in braces, naming a Unicode scalar value.
- A single-quoted string (rejected) closes at `'`, a backslash taking the
  next character, and is cut short by a line break.

Callers decide where a comment or string starts.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from ..limits import MAX_BRACED_ESCAPE_DIGITS
from .text import TRIVIA_SPACE

_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_LINE_BREAK = re.compile(r"[\n\r]")
_STRING_STOP = re.compile(r'["\\\n\r]')
_PLAIN_DIGITS = 4


def opens_comment(source: str, index: int, limit: int | None = None) -> bool:
    """Whether a comment starts at `index` (`//` or `/*`, both before `limit`)."""
    limit = len(source) if limit is None else limit
    return index + 1 < limit and source[index] == "/" and source[index + 1] in "/*"


def is_line_comment(source: str, start: int) -> bool:
    """Whether the comment opening at `start` is a line comment (not a block one)."""
    return source.startswith("//", start)


def line_comment_end(source: str, start: int, limit: int | None = None) -> int:
    """The line break (or `limit`) ending the line comment opening at `start`;
    just after the `//` when `limit` comes before that."""
    limit = len(source) if limit is None else limit
    body = start + 2
    if body >= limit:
        return body
    found = _LINE_BREAK.search(source, body, limit)
    return limit if found is None else found.start()


def block_comment_end(source: str, start: int, limit: int | None = None) -> int | None:
    """Just after the `*/` closing the block comment opening at `start`; None
    when it does not close before `limit` (the end of the text by default)."""
    limit = len(source) if limit is None else limit
    find = source.find
    index = start + 2
    while True:
        star = find("*", index, limit)
        if star == -1 or star + 1 >= limit:
            return None
        if source[star + 1] == "/":
            return star + 2
        # A `*` that does not close takes the next character with it.
        index = star + 2


def comment_end(source: str, start: int, limit: int | None = None) -> int | None:
    """Where the comment opening at `start` ends (see `opens_comment`); None for
    a block comment still open at `limit`."""
    if source[start + 1] == "/":
        return line_comment_end(source, start, limit)
    return block_comment_end(source, start, limit)


class StringEnd(NamedTuple):
    end: int  # after the closing quote; else the line break, or where `limit` stopped the scan
    closed: bool
    at_line_break: bool  # cut short by a line break, as the lexer ends an unterminated string


def string_end(
    source: str, index: int, limit: int | None = None, escapes: list[Escape] | None = None
) -> StringEnd:
    """Read a string literal's body from `index` (just after its opening
    quote); each escape read is added to `escapes` when given."""
    limit = len(source) if limit is None else limit
    search = _STRING_STOP.search
    while index < limit:
        found = search(source, index, limit)
        if found is None:
            return StringEnd(limit, False, False)
        index = found.start()
        char = source[index]
        if char == '"':
            return StringEnd(index + 1, True, False)
        if char != "\\":
            return StringEnd(index, False, True)
        escape = read_escape(source, index + 1)
        if escapes is not None:
            escapes.append(escape)
        index = escape.end
    return StringEnd(index, False, False)


class EscapeProblem(Enum):
    CUT = "the text ends after the backslash"
    UNSUPPORTED = "not an escape of canonical Octoscript"
    MALFORMED_UNICODE = "not four hexadecimal digits, nor one to six in braces"
    NOT_SCALAR = "not a Unicode scalar value"


class Escape(NamedTuple):
    """One escape in a string: `at` is the character after the backslash."""

    at: int
    end: int
    char: str | None  # what it stands for; None when it has a problem
    problem: EscapeProblem | None


_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def read_escape(source: str, index: int) -> Escape:
    """Read the escape whose character (after the backslash) is at `index`."""
    if index >= len(source):
        return Escape(index, index, None, EscapeProblem.CUT)
    char = source[index]
    if char == "u":
        return _unicode_escape(source, index)
    if char in _SIMPLE_ESCAPES:
        return Escape(index, index + 1, _SIMPLE_ESCAPES[char], None)
    return Escape(index, index + 1, None, EscapeProblem.UNSUPPORTED)


def _unicode_escape(source: str, at: int) -> Escape:
    length = len(source)
    index = at + 1
    if source[index : index + 1] == "{":
        index += 1
        digits_start = index
        while index < length and source[index] in _HEX_DIGITS:
            index += 1
        digits = source[digits_start:index]
        closed = source[index : index + 1] == "}"
        well_formed = closed and 1 <= len(digits) <= MAX_BRACED_ESCAPE_DIGITS
        if not well_formed:
            # The lexer skips a malformed braced escape to its `}` or the line's LF.
            while index < length and source[index] not in "}\n":
                index += 1
        if source[index : index + 1] == "}":
            index += 1
    else:
        digits_start = index
        while index < length and index - digits_start < _PLAIN_DIGITS:
            if source[index] not in _HEX_DIGITS:
                break
            index += 1
        digits = source[digits_start:index]
        well_formed = len(digits) == _PLAIN_DIGITS
    if not well_formed:
        return Escape(at, index, None, EscapeProblem.MALFORMED_UNICODE)
    value = int(digits, 16)
    if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return Escape(at, index, None, EscapeProblem.NOT_SCALAR)
    return Escape(at, index, chr(value), None)


def decode_string_literal(literal: str) -> str | None:
    """The value of a whole double-quoted literal, or None if it is not a canonical one."""
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        return None
    content = literal[1:-1]
    pieces: list[str] = []
    position = 0
    while (backslash := content.find("\\", position)) != -1:
        escape = read_escape(content, backslash + 1)
        if escape.char is None:
            return None
        pieces += (content[position:backslash], escape.char)
        position = escape.end
    pieces.append(content[position:])
    return "".join(pieces)


def single_quoted_end(source: str, index: int) -> StringEnd:
    """Read a single-quoted string's body from `index` (just after its `'`)."""
    length = len(source)
    while index < length:
        char = source[index]
        if char == "\n" or char == "\r":
            return StringEnd(index, False, True)
        index += 1
        if char == "\\":
            index += 1
        elif char == "'":
            return StringEnd(index, True, False)
    return StringEnd(min(index, length), False, False)


def as_double_quoted_body(body: str) -> str:
    """A single-quoted string's body for a double-quoted string, the same
    characters: a bare `"` gains a backslash, `\\'` loses its own."""
    out: list[str] = []
    position = 0
    length = len(body)
    while position < length:
        char = body[position]
        if char == "\\" and position + 1 < length:
            following = body[position + 1]
            out.append("'" if following == "'" else char + following)
            position += 2
            continue
        out.append('\\"' if char == '"' else char)
        position += 1
    return "".join(out)


class StringRegion(NamedTuple):
    """A string literal's contents; an unterminated one's run to its line break or the end."""

    content_start: int
    content_end: int
    terminated: bool


# A closed string without escapes: most strings, read at C speed.
_PLAIN_STRING = re.compile(r'"[^"\\\n\r]*"')


def text_regions(source: str) -> tuple[list[StringRegion], list[tuple[int, int]]]:
    """The strings and comments (start, end) of a whole text, read from the
    top; a block comment left open runs to the end."""
    strings: list[StringRegion] = []
    comments: list[tuple[int, int]] = []
    find, length = source.find, len(source)
    index = 0
    quote = slash = -1  # the next `"` and `/` at or after `index` (`length`: none)
    while True:
        if quote < index:
            quote = find('"', index)
            quote = length if quote == -1 else quote
        if slash < index:
            slash = find("/", index)
            slash = length if slash == -1 else slash
        if quote < slash:
            index = _read_string(source, quote, strings)
        elif slash == length:
            return strings, comments
        elif opens_comment(source, slash):
            end = comment_end(source, slash)
            index = length if end is None else end
            comments.append((slash, index))
        else:
            index = slash + 1


def _read_string(source: str, quote: int, strings: list[StringRegion]) -> int:
    """Add the string opening at `quote`; where reading goes on."""
    plain = _PLAIN_STRING.match(source, quote)
    if plain is not None:
        end = plain.end()
        strings.append(StringRegion(quote + 1, end - 1, True))
        return end
    read = string_end(source, quote + 1)
    if read.closed:
        strings.append(StringRegion(quote + 1, read.end - 1, True))
        return read.end
    end = min(read.end, len(source))
    strings.append(StringRegion(quote + 1, end, False))
    return end


def skip_trivia(source: str, index: int, limit: int | None = None) -> int | None:
    """Skip whitespace and comments from `index`; None when a block comment
    does not close before `limit` (the end of the text by default)."""
    limit = len(source) if limit is None else limit
    while True:
        while index < limit and source[index] in TRIVIA_SPACE:
            index += 1
        if not opens_comment(source, index, limit):
            return index
        end = comment_end(source, index, limit)
        if end is None:
            return None
        index = end
