"""Syntax diagnostics as LSP diagnostics."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from ..analysis.document import DocumentAnalysis
from ..limits import MAX_OPEN_DOCUMENTS, MAX_SYNTAX_DIAGNOSTICS
from .positions import PositionMap

SOURCE = "octoscript"
# Codes of diagnostics about the document as a whole (docs/diagnostics.md).
CODE_SOURCE_TOO_LARGE = "source-too-large"
CODE_TOO_MANY_DIAGNOSTICS = "too-many-diagnostics"
CODE_TOO_MANY_DOCUMENTS = "too-many-documents"
_ORIGIN = types.Range(
    start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
)


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


def _at_origin(message: str, severity: types.DiagnosticSeverity, code: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=_ORIGIN, message=message, severity=severity, source=SOURCE, code=code
    )


def syntax_diagnostics(
    analysis: DocumentAnalysis, positions: PositionMap
) -> list[types.Diagnostic]:
    if analysis.too_large is not None:
        return [
            _at_origin(
                str(analysis.too_large), types.DiagnosticSeverity.Error, CODE_SOURCE_TOO_LARGE
            )
        ]
    syntax = analysis.syntax
    assert syntax is not None
    out = []
    for diagnostic in syntax.diagnostics:
        position = positions.diagnostic_position(diagnostic.offset)
        out.append(
            types.Diagnostic(
                range=types.Range(start=position, end=position),
                message=diagnostic.message,
                severity=types.DiagnosticSeverity.Error,
                source=SOURCE,
                code=diagnostic.code.value,
            )
        )
    if syntax.diagnostics_truncated:
        out.append(
            _at_origin(
                f"Octoscript stopped after {MAX_SYNTAX_DIAGNOSTICS} syntax diagnostics",
                types.DiagnosticSeverity.Warning,
                CODE_TOO_MANY_DIAGNOSTICS,
            )
        )
    return out


def too_many_documents() -> list[types.Diagnostic]:
    return [
        _at_origin(
            f"octoscript-lsp analyzes at most {MAX_OPEN_DOCUMENTS} open documents per session; "
            "close another document to analyze this one",
            types.DiagnosticSeverity.Error,
            CODE_TOO_MANY_DOCUMENTS,
        )
    ]
