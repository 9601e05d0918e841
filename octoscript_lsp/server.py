"""pygls glue: one short handler per LSP method, each delegating to a feature."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from . import __version__
from .analysis.document import DocumentAnalysis
from .features import diagnostics, formatting, symbols
from .features.positions import PositionMap
from .limits import MAX_OPEN_DOCUMENTS

REQUEST_FAILED = -32803


class RequestFailed(JsonRpcException):
    CODE = REQUEST_FAILED
    MESSAGE = "Request failed"


@dataclass(slots=True)
class OpenDocument:
    """The cached analysis of the latest version of one open document."""

    version: int | None
    analysis: DocumentAnalysis | None = None
    positions: PositionMap | None = None
    refused: bool = False  # over the open-document budget: no analysis at all


class OctoscriptServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "octoscript-lsp", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full
        )
        self.open_documents: dict[str, OpenDocument] = {}

    # The text lives in pygls' workspace (it applies the edits); we keep one
    # analysis per document version and build it on first use.
    def document_text(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    def track(self, uri: str, version: int | None) -> OpenDocument:
        known = uri in self.open_documents
        if not known and len(self.open_documents) >= MAX_OPEN_DOCUMENTS:
            state = OpenDocument(version, refused=True)
        else:
            state = OpenDocument(version)
            self.open_documents[uri] = state
        return state

    def cached(self, uri: str) -> OpenDocument | None:
        state = self.open_documents.get(uri)
        if state is None or state.refused:
            return None
        if state.analysis is None:
            source = self.document_text(uri)
            state.analysis = DocumentAnalysis(source, state.version)
            state.positions = PositionMap(source)
        return state

    def publish(self, uri: str, version: int | None, state: OpenDocument) -> None:
        if state.refused:
            found = diagnostics.too_many_documents()
        else:
            cached = self.cached(uri)
            assert cached is not None and cached.analysis and cached.positions
            found = diagnostics.syntax_diagnostics(cached.analysis, cached.positions)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )


server = OctoscriptServer()


def _document(ls: OctoscriptServer, uri: str) -> OpenDocument | None:
    return ls.cached(uri)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: OctoscriptServer, params: types.DidOpenTextDocumentParams) -> None:
    document = params.text_document
    ls.publish(document.uri, document.version, ls.track(document.uri, document.version))


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: OctoscriptServer, params: types.DidChangeTextDocumentParams) -> None:
    document = params.text_document
    ls.publish(document.uri, document.version, ls.track(document.uri, document.version))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: OctoscriptServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.open_documents.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
def format_document(
    ls: OctoscriptServer, params: types.DocumentFormattingParams
) -> list[types.TextEdit] | None:
    state = _document(ls, params.text_document.uri)
    if state is None:
        raise RequestFailed("the document is not open or was not analyzed")
    try:
        return formatting.format_document(state.analysis, state.positions)
    except formatting.FormattingRefused as refusal:
        raise RequestFailed(str(refusal)) from refusal


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(
    ls: OctoscriptServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    state = _document(ls, params.text_document.uri)
    if state is None:
        return []
    return symbols.document_symbols(state.analysis, state.positions)


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    server.start_io()


if __name__ == "__main__":
    main()
