"""The lexer's character-level literal scanners, for what its regular
expressions do not match: numbers, strings and single-quoted strings. Each
reports problems to a sink and returns the position after what it consumed;
where a string or escape ends is the trivia reader's (`trivia.py`).
"""

from __future__ import annotations

from .codes import SyntaxCode
from .diagnostics import DiagnosticSink
from .trivia import Escape, EscapeProblem, single_quoted_end, string_end

DIGITS = frozenset("0123456789")

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
