"""pygls glue: one short handler per LSP method, each delegating to a feature."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcMethodNotFound
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.language_server import lsp_method

from . import __version__
from .analysis.document import DocumentAnalysis
from .catalogs.store import CatalogStore
from .features import (
    completion,
    diagnostics,
    formatting,
    hover,
    navigation,
    rename,
    signature,
    symbols,
)
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


def _client_supports_versioned_edits(capabilities: types.ClientCapabilities | None) -> bool:
    workspace = capabilities.workspace if capabilities else None
    edit = workspace.workspace_edit if workspace else None
    return bool(edit and edit.document_changes)


def converter_factory():
    """pygls' converter, minus a null per-signature `activeParameter`.

    lsprotocol models it as nullable and would send `null`, which some
    clients read as "no active parameter" instead of deferring to the
    top-level value.
    """
    converter = default_converter()
    base = converter.get_unstructure_hook(types.SignatureInformation)

    def signature_information(value: types.SignatureInformation) -> dict:
        data = base(value)
        if data.get("activeParameter", 0) is None:
            del data["activeParameter"]
        return data

    converter.register_unstructure_hook(types.SignatureInformation, signature_information)
    return converter


class OctoscriptProtocol(LanguageServerProtocol):
    """Adjusts the advertised capabilities to what this client can take."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        server = self._server
        server.rename_enabled = _client_supports_versioned_edits(params.capabilities)
        if not server.rename_enabled:
            result.capabilities.rename_provider = None
        return result


class OctoscriptServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "octoscript-lsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            protocol_cls=OctoscriptProtocol,
            converter_factory=converter_factory,
        )
        self.open_documents: dict[str, OpenDocument] = {}
        self.catalogs = CatalogStore()
        self.rename_enabled = False

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


def _at(ls: OctoscriptServer, uri: str, position: types.Position):
    """(state, offset) for a request position; offset None when it is outside the text."""
    state = ls.cached(uri)
    if state is None:
        return None, None
    return state, state.positions.strict_offset(position)


@server.feature(types.INITIALIZE)
def initialize(ls: OctoscriptServer, params: types.InitializeParams) -> None:
    ls.catalogs.apply_initialization_options(params.initialization_options)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(
    ls: OctoscriptServer, params: types.DidChangeConfigurationParams
) -> None:
    ls.catalogs.apply_settings(params.settings)


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


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=["."], resolve_provider=False),
)
def complete(ls: OctoscriptServer, params: types.CompletionParams) -> types.CompletionList:
    state, offset = _at(ls, params.text_document.uri, params.position)
    if state is None:
        return types.CompletionList(is_incomplete=False, items=[])
    return completion.complete(state.analysis, state.positions, offset, ls.catalogs)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover_at(ls: OctoscriptServer, params: types.HoverParams) -> types.Hover | None:
    state, offset = _at(ls, params.text_document.uri, params.position)
    if state is None:
        return None
    return hover.hover(state.analysis, state.positions, offset, ls.catalogs)


@server.feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP,
    types.SignatureHelpOptions(trigger_characters=["("], retrigger_characters=[","]),
)
def signature_help(
    ls: OctoscriptServer, params: types.SignatureHelpParams
) -> types.SignatureHelp | None:
    state, offset = _at(ls, params.text_document.uri, params.position)
    if state is None:
        return None
    return signature.signature_help(state.analysis, offset, ls.catalogs)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: OctoscriptServer, params: types.DefinitionParams) -> types.Location | None:
    uri = params.text_document.uri
    state, offset = _at(ls, uri, params.position)
    if state is None:
        return None
    return navigation.definition(state.analysis, state.positions, uri, offset, ls.catalogs)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: OctoscriptServer, params: types.ReferenceParams) -> list[types.Location]:
    uri = params.text_document.uri
    state, offset = _at(ls, uri, params.position)
    if state is None:
        return []
    try:
        return navigation.references(
            state.analysis, state.positions, uri, offset, params.context.include_declaration
        )
    except navigation.IndexTruncated as refusal:
        raise RequestFailed(str(refusal)) from refusal


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def document_highlight(
    ls: OctoscriptServer, params: types.DocumentHighlightParams
) -> list[types.DocumentHighlight]:
    state, offset = _at(ls, params.text_document.uri, params.position)
    if state is None:
        return []
    try:
        return navigation.highlights(state.analysis, state.positions, offset)
    except navigation.IndexTruncated as refusal:
        raise RequestFailed(str(refusal)) from refusal


def _require_rename(ls: OctoscriptServer, method: str) -> None:
    if not ls.rename_enabled:
        raise JsonRpcMethodNotFound.of(method)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(
    ls: OctoscriptServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    _require_rename(ls, types.TEXT_DOCUMENT_PREPARE_RENAME)
    state, offset = _at(ls, params.text_document.uri, params.position)
    if state is None:
        return None
    try:
        return rename.prepare_rename(state.analysis, state.positions, offset)
    except rename.RenameRefused as refusal:
        raise RequestFailed(str(refusal)) from refusal


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
def rename_symbol(ls: OctoscriptServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    _require_rename(ls, types.TEXT_DOCUMENT_RENAME)
    uri = params.text_document.uri
    state, offset = _at(ls, uri, params.position)
    if state is None:
        return None
    try:
        return rename.rename(
            state.analysis, state.positions, uri, state.version, offset, params.new_name
        )
    except rename.RenameRefused as refusal:
        raise RequestFailed(str(refusal)) from refusal


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    server.start_io()


if __name__ == "__main__":
    main()
