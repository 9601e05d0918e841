"""A document's syntax problems as plain data, for the editor and the CLI alike.

`features/diagnostics` turns them into LSP diagnostics (syntax problems sit
on the checker's LF-only lines there); `cli/findings` into 1-based line and
column findings. Severities carry the protocol's numbers so that conversion
is a lookup, but nothing here imports the protocol's types: the CLI checks
files without loading them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..limits import MAX_SYNTAX_DIAGNOSTICS
from .document import DocumentAnalysis

# Codes of problems about the document as a whole (docs/diagnostics.md).
CODE_SOURCE_TOO_LARGE = "source-too-large"
CODE_TOO_MANY_DIAGNOSTICS = "too-many-diagnostics"


class Severity(IntEnum):
    """How serious a problem is; the values are the protocol's DiagnosticSeverity."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem at code-point offsets [start, end]."""

    start: int
    end: int
    severity: Severity
    message: str
    code: str


def _at_origin(message: str, severity: Severity, code: str) -> Problem:
    return Problem(0, 0, severity, message, code)


def syntax_problems(analysis: DocumentAnalysis) -> list[Problem]:
    """The text's size, lexer and parser problems, and a note when they were cut off."""
    if analysis.too_large is not None:
        return [_at_origin(str(analysis.too_large), Severity.ERROR, CODE_SOURCE_TOO_LARGE)]
    syntax = analysis.syntax
    assert syntax is not None
    out = [
        Problem(item.offset, item.offset, Severity.ERROR, item.message, item.code.value)
        for item in syntax.diagnostics
    ]
    if syntax.diagnostics_truncated:
        out.append(
            _at_origin(
                f"Octoscript stopped after {MAX_SYNTAX_DIAGNOSTICS} syntax diagnostics",
                Severity.WARNING,
                CODE_TOO_MANY_DIAGNOSTICS,
            )
        )
    return out
