"""One file's findings for `octoscript check`, built from the server's own code.

Syntax problems and catalog advice come from `analysis.problems` and
`analysis.advice` (what the editor shows as diagnostics, before it becomes
LSP types: the CLI never loads the protocol's modules) and are turned into
plain findings here, at the CLI edge: 1-based line and column counted in
code points on LF-ended lines, as every CLI report counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..analysis import advice
from ..analysis.document import DocumentAnalysis
from ..analysis.problems import (
    CODE_SOURCE_TOO_LARGE,
    CODE_TOO_MANY_DIAGNOSTICS,
    Problem,
    Severity,
)
from ..analysis.suppressions import reported
from ..catalogs.store import CatalogStore
from ..catalogs.suggest import closest_names
from ..syntax.check import SourceTooLarge, SyntaxResult
from ..syntax.diagnostics import LineIndex
from .rules import EVERY_CODE, Rules

SEVERITY_NAMES: dict[Severity, str] = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "info",
    Severity.HINT: "hint",
}


@dataclass(frozen=True)
class ReportedFinding:
    """A syntax problem or a piece of catalog advice as `check` and the MCP
    tools report it: 1-based lines and columns and the severity's name (the
    analysis layer's `advice.Finding` is the offset form)."""

    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    message: str
    code: str | None = None
    # The listed names closest to the one a catalog finding is about
    # (the first is the one its message suggests); not in the JSON report.
    did_you_mean: tuple[str, ...] = ()

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "severity": self.severity,
            "message": self.message,
        }
        if self.code is not None:
            out["code"] = self.code
        return out


@dataclass
class FileFindings:
    """One file's findings: syntax (`errors`, with the truncation note) and catalog advice."""

    path: str
    valid: bool
    truncated: bool = False
    errors: list[ReportedFinding] = field(default_factory=list)
    advice: list[ReportedFinding] = field(default_factory=list)
    advice_cut: bool = False  # the advice stopped at MAX_ADVISORY_DIAGNOSTICS

    @property
    def all(self) -> list[ReportedFinding]:
        return [*self.errors, *self.advice]

    def report_json(self, with_advice: bool) -> dict[str, Any]:
        """The `check` JSON object; `warnings` added when a catalog was given."""
        report: dict[str, Any] = {
            "path": self.path,
            "valid": self.valid,
            "diagnostics": [
                item.json() for item in self.errors if item.code != CODE_TOO_MANY_DIAGNOSTICS
            ],
            "diagnostics_truncated": self.truncated,
        }
        if with_advice or self.advice:
            report["warnings"] = [finding.json() for finding in self.advice]
        return report


def text_line(path: str, item: ReportedFinding) -> str:
    code = f" [{item.code}]" if item.code else ""
    return f"{path}:{item.line}:{item.column}: {item.severity}: {item.message}{code}\n"


def syntax_findings(result: SyntaxResult) -> list[ReportedFinding]:
    """The syntax diagnostics alone (`format`, `outline`, `tool-calls`); each marks a point."""
    out = []
    for diagnostic in result.diagnostics:
        line, column = result.line_column(diagnostic.offset)
        code = diagnostic.code.value
        out.append(ReportedFinding(line, column, line, column, "error", diagnostic.message, code))
    return out


def too_large(path: str, size: int) -> FileFindings:
    """The server's `source-too-large` diagnostic, at the start of the file."""
    message = str(SourceTooLarge(size))
    finding = ReportedFinding(1, 1, 1, 1, "error", message, CODE_SOURCE_TOO_LARGE)
    return FileFindings(path, valid=False, errors=[finding])


def to_finding(problem: Problem | advice.Finding, source: str, lines: LineIndex) -> ReportedFinding:
    """A problem or piece of advice as the CLI reports it: 1-based, code points, LF-only lines.

    Offsets are clamped into the text, as the editor's positions are.
    """
    line, column = lines.line_column(_clamp(problem.start, source))
    end_line, end_column = lines.line_column(_clamp(problem.end, source))
    severity = SEVERITY_NAMES[problem.severity]
    near: tuple[str, ...] = ()
    if isinstance(problem, advice.Finding) and problem.typed:
        near = tuple(closest_names(problem.typed, problem.candidates))
    return ReportedFinding(
        line, column, end_line, end_column, severity, problem.message, problem.code, near
    )


def _clamp(offset: int, source: str) -> int:
    return max(0, min(offset, len(source)))


def findings_of(
    path: str, analysis: DocumentAnalysis, catalogs: CatalogStore | None, rules: Rules = EVERY_CODE
) -> FileFindings:
    """Syntax diagnostics, then (with catalogs) the editor's advisory diagnostics, after
    the rules and the document's suppression comments (`analysis.suppressions`)."""
    assert analysis.syntax is not None  # read_source keeps text within the budget
    found = FileFindings(path, analysis.valid, analysis.syntax.diagnostics_truncated)
    source = analysis.source
    lines = analysis.syntax.lines
    screened = reported(analysis, catalogs, rules.enabled)
    found.advice_cut = screened.advice_cut
    found.errors = [to_finding(item, source, lines) for item in screened.syntax]
    advised: list[Problem | advice.Finding] = list(screened.advice)
    if rules.reports_unused():
        advised.extend(screened.unused)
    # Advice is kept grouped by kind; a report reads top to bottom.
    found.advice = sorted(
        (to_finding(item, source, lines) for item in advised),
        key=lambda finding: (finding.line, finding.column),
    )
    return found
