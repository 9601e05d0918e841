"""Catalog advice (`analysis/advice.py`) as LSP diagnostics."""

from __future__ import annotations

from lsprotocol import types

from ..analysis.advice import Finding, findings
from ..analysis.document import DocumentAnalysis
from ..catalogs.store import CatalogStore
from .diagnostics import SOURCE, to_lsp_severity
from .positions import PositionMap


def advisory_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    return [to_diagnostic(finding, positions) for finding in findings(analysis, catalogs)]


def to_diagnostic(finding: Finding, positions: PositionMap) -> types.Diagnostic:
    return types.Diagnostic(
        range=positions.range(finding.start, finding.end),
        message=finding.message,
        severity=to_lsp_severity(finding.severity),
        source=SOURCE,
        code=finding.code,
    )
