"""Syntax problems and, in a second pass, catalog advice (`analysis/advice.py`)
as LSP diagnostics, less what suppression comments silence.

The comments are read by the rule `octoscript check` uses
(`analysis.suppressions`); a comment that silences nothing, syntax problem
or advice, comes along with the advice as a faded hint, where `check
--report-unused` reports a warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from ..analysis.advice import Finding
from ..analysis.document import DocumentAnalysis
from ..analysis.problems import Problem, syntax_problems
from ..analysis.suppressions import marked, reported, screen
from ..catalogs.store import CatalogStore
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


def syntax_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap
) -> list[types.Diagnostic]:
    """`problems.syntax_problems` the comments leave, on the checker's LF-only lines."""
    shown = screen(analysis, syntax_problems(analysis), ()).syntax
    return [problem_diagnostic(problem, positions) for problem in shown]


def advisory_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    """The second pass: the advice the comments leave, then the comments
    that silence nothing (hints the editor fades out)."""
    screened = reported(analysis, catalogs)
    unused = [
        _diagnostic(
            problem,
            positions.range(problem.start, problem.end),
            types.DiagnosticSeverity.Hint,
            [types.DiagnosticTag.Unnecessary],
        )
        for problem in screened.unused
    ]
    return [to_diagnostic(finding, positions) for finding in screened.advice] + unused


def problem_diagnostic(problem: Problem, positions: PositionMap) -> types.Diagnostic:
    start = positions.diagnostic_position(problem.start)
    end = start if problem.end == problem.start else positions.diagnostic_position(problem.end)
    return _diagnostic(problem, types.Range(start=start, end=end))


def to_diagnostic(finding: Finding, positions: PositionMap) -> types.Diagnostic:
    return _diagnostic(finding, positions.range(finding.start, finding.end))


def _diagnostic(
    item: Problem | Finding,
    edit_range: types.Range,
    severity: types.DiagnosticSeverity | None = None,
    tags: list[types.DiagnosticTag] | None = None,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=edit_range,
        message=item.message,
        severity=severity or types.DiagnosticSeverity(int(item.severity)),
        source=SOURCE,
        code=item.code,
        tags=tags,
    )


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
