"""Syntax diagnostics as LSP diagnostics, less what suppression comments silence.

The comments are read by the rule `octoscript check` uses
(`analysis.suppressions`); a comment that silences nothing is shown as a
faded hint (`unused_diagnostics`), where `check --report-unused` reports a
warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..analysis.problems import Problem, Severity, syntax_problems
from ..analysis.suppressions import marked, screen
from ..limits import MAX_OPEN_DOCUMENTS
from .positions import PositionMap

SOURCE = "octoscript"
# The session's limit (the document-wide codes of the text itself are in
# analysis/problems.py).
CODE_TOO_MANY_DOCUMENTS = "too-many-documents"


@dataclass(frozen=True, slots=True)
class Delivery:
    """How one client takes diagnostics.

    A client that pulls (`textDocument/diagnostic`) keeps pulled reports apart
    from pushed ones, so sending both would show every diagnostic twice: a
    pulling client gets only pulled reports, and `refreshes` says whether it
    can be asked to pull again when the results change without an edit.
    """

    pulls: bool = False
    refreshes: bool = False


def delivery(capabilities: types.ClientCapabilities | None) -> Delivery:
    text_document = capabilities.text_document if capabilities else None
    if text_document is None or text_document.diagnostic is None:
        return Delivery()
    workspace = capabilities.workspace if capabilities else None
    refresh = workspace.diagnostics if workspace else None
    return Delivery(pulls=True, refreshes=bool(refresh and refresh.refresh_support))


def to_lsp_severity(severity: Severity) -> types.DiagnosticSeverity:
    return types.DiagnosticSeverity(int(severity))


def syntax_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap
) -> list[types.Diagnostic]:
    """`problems.syntax_problems` the comments leave, on the checker's LF-only lines."""
    shown = screen(analysis, syntax_problems(analysis), ()).syntax
    return [problem_diagnostic(problem, positions) for problem in shown]


def problem_diagnostic(problem: Problem, positions: PositionMap) -> types.Diagnostic:
    start = positions.diagnostic_position(problem.start)
    end = start if problem.end == problem.start else positions.diagnostic_position(problem.end)
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=problem.message,
        severity=to_lsp_severity(problem.severity),
        source=SOURCE,
        code=problem.code,
    )


def unused_diagnostics(unused: list[Problem], positions: PositionMap) -> list[types.Diagnostic]:
    """Suppression comments that silence nothing: hints the editor fades out."""
    return [
        types.Diagnostic(
            range=positions.range(problem.start, problem.end),
            message=problem.message,
            severity=types.DiagnosticSeverity.Hint,
            source=SOURCE,
            code=problem.code,
            tags=[types.DiagnosticTag.Unnecessary],
        )
        for problem in unused
    ]


def needs_second_pass(analysis: DocumentAnalysis) -> bool:
    """Whether the text may hold suppression comments, whose use only the
    second pass (with the catalog advice) can tell."""
    return marked(analysis)


def too_many_documents() -> list[types.Diagnostic]:
    origin = types.Position(line=0, character=0)
    return [
        types.Diagnostic(
            range=types.Range(start=origin, end=origin),
            message=f"octoscript-lsp analyzes at most {MAX_OPEN_DOCUMENTS} open documents per "
            "session; close another document to analyze this one",
            severity=types.DiagnosticSeverity.Error,
            source=SOURCE,
            code=CODE_TOO_MANY_DOCUMENTS,
        )
    ]
