"""Character-level scanners for literals and line comments, as the lexer
runs them where its regular expressions do not match: numbers, strings and
their escapes, single-quoted strings (rejected), line comments.

Each takes the source and a position, reports problems to a sink and
returns the position after what it consumed.
"""

from __future__ import annotations

from .codes import SyntaxCode
from .diagnostics import DiagnosticSink

DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

MSG_BAD_UNICODE_ESCAPE = (
    "unicode escapes must use four hexadecimal digits or `\\u{...}` with one to six "
    "hexadecimal digits"
)
MSG_UNICODE_SCALAR = "unicode escapes must encode a valid Unicode scalar value"
MSG_UNTERMINATED_STRING = "unterminated string literal"


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
    length = len(source)
    pos = start + 1
    while pos < length:
        char = source[pos]
        if char == '"':
            return pos + 1
        if char == "\\":
            pos = _scan_escape(source, pos + 1, start, sink)
        elif char == "\n" or char == "\r":
            sink.report(start, MSG_UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_STRING)
            return pos
        else:
            pos += 1
    sink.report(start, MSG_UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_STRING)
    return pos


def _scan_escape(source: str, pos: int, string_start: int, sink: DiagnosticSink) -> int:
    if pos >= len(source):
        sink.report(string_start, MSG_UNTERMINATED_STRING, SyntaxCode.UNTERMINATED_STRING)
        return pos
    escape = source[pos]
    if escape in ('"', "\\", "n", "r", "t"):
        return pos + 1
    if escape == "u":
        return _scan_unicode_escape(source, pos + 1, string_start, sink)
    sink.report(pos, "unsupported string escape in canonical Octoscript", SyntaxCode.INVALID_ESCAPE)
    return pos + 1


def _is_scalar_value(value: int) -> bool:
    return value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF


def _scan_unicode_escape(source: str, pos: int, string_start: int, sink: DiagnosticSink) -> int:
    length = len(source)
    if char_at(source, pos) == "{":
        pos += 1
        digits_start = pos
        while pos < length and source[pos] in _HEX_DIGITS:
            pos += 1
        digits = pos - digits_start
        if not 1 <= digits <= 6 or char_at(source, pos) != "}":
            sink.report(string_start, MSG_BAD_UNICODE_ESCAPE, SyntaxCode.INVALID_ESCAPE)
            while pos < length and source[pos] not in ("}", "\n"):
                pos += 1
        elif not _is_scalar_value(int(source[digits_start:pos], 16)):
            sink.report(string_start, MSG_UNICODE_SCALAR, SyntaxCode.INVALID_ESCAPE)
        if char_at(source, pos) == "}":
            pos += 1
        return pos
    digits_start = pos
    while pos < length and pos - digits_start < 4 and source[pos] in _HEX_DIGITS:
        pos += 1
    if pos - digits_start != 4:
        sink.report(string_start, MSG_BAD_UNICODE_ESCAPE, SyntaxCode.INVALID_ESCAPE)
    elif not _is_scalar_value(int(source[digits_start:pos], 16)):
        sink.report(string_start, MSG_UNICODE_SCALAR, SyntaxCode.INVALID_ESCAPE)
    return pos


def skip_single_quoted_string(source: str, start: int, sink: DiagnosticSink) -> int:
    sink.report(
        start,
        "only double-quoted strings are part of canonical Octoscript",
        SyntaxCode.SINGLE_QUOTED_STRING,
    )
    length = len(source)
    pos = start + 1
    while pos < length:
        char = source[pos]
        if char == "\n" or char == "\r":
            return pos
        pos += 1
        if char == "\\":
            pos += 1
        elif char == "'":
            return pos
    return min(pos, length)


def skip_line_comment(source: str, pos: int) -> int:
    length = len(source)
    pos += 2
    while pos < length and source[pos] != "\n" and source[pos] != "\r":
        pos += 1
    return pos
