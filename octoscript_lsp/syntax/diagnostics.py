"""Bounded syntax diagnostics and offset -> line/column mapping."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, count
from operator import add

from ..limits import MAX_SYNTAX_DIAGNOSTICS
from .codes import SyntaxCode


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A syntax problem at a code-point offset (zero-width, like the reference)."""

    offset: int
    message: str
    code: SyntaxCode


@dataclass(slots=True)
class DiagnosticSink:
    """Keeps at most MAX_SYNTAX_DIAGNOSTICS and remembers that more were dropped."""

    items: list[Diagnostic] = field(default_factory=list)
    truncated: bool = False
    first_offset: int | None = None

    def report(self, offset: int, message: str, code: SyntaxCode) -> None:
        if self.first_offset is None or offset < self.first_offset:
            self.first_offset = offset
        if len(self.items) < MAX_SYNTAX_DIAGNOSTICS:
            self.items.append(Diagnostic(offset, message, code))
        else:
            self.truncated = True


def line_starts(source: str) -> list[int]:
    """Offsets where lines start; only LF ends a line."""
    # Line i (from 0) starts after the lengths of the lines before it and
    # their i line feeds: summed in C (`accumulate`, `count`), about half the
    # time of a `find` loop (~0.55 -> ~0.3 ms at 4,090 lines, in every
    # first didOpen).
    lines = source.split("\n")
    lines.pop()  # the text after the last LF starts no line
    return list(map(add, accumulate(map(len, lines), initial=0), count()))


class LineIndex:
    """Maps code-point offsets to 1-based line and column as the checker counts them.

    Only LF starts a line: a bare CR is an error, and the column of a CRLF's CR
    is its own.
    """

    __slots__ = ("source", "line_starts")

    def __init__(self, source: str, starts: list[int] | None = None) -> None:
        self.source = source
        self.line_starts = line_starts(source) if starts is None else starts

    def line_column(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def line_start(self, line_zero_based: int) -> int:
        return self.line_starts[line_zero_based]
