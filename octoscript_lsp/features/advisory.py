"""Catalog advice (`analysis/advice.py`) as LSP diagnostics: the second pass.

What suppression comments silence is left out, by the rule `octoscript
check` uses (`analysis.suppressions`), and the comments that silence
nothing, syntax problem or advice, come along as faded hints.
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis.advice import Finding
from ..analysis.document import DocumentAnalysis
from ..analysis.suppressions import reported
from ..catalogs.store import CatalogStore
from .diagnostics import SOURCE, to_lsp_severity, unused_diagnostics
from .positions import PositionMap


def advisory_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap, catalogs: CatalogStore
) -> list[types.Diagnostic]:
    screened = reported(analysis, catalogs)
    advice = [to_diagnostic(finding, positions) for finding in screened.advice]
    return advice + unused_diagnostics(screened.unused, positions)


def to_diagnostic(finding: Finding, positions: PositionMap) -> types.Diagnostic:
    return types.Diagnostic(
        range=positions.range(finding.start, finding.end),
        message=finding.message,
        severity=to_lsp_severity(finding.severity),
        source=SOURCE,
        code=finding.code,
    )
