"""pygls glue: one short handler per LSP method, each delegating to a feature."""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import os
import sys
from collections.abc import Callable

from lsprotocol import types
from pygls.exceptions import (
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
)
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from . import __version__, launch, preferences
from .catalogs import search
from .catalogs.store import CatalogStore
from .documents import DocumentStore, OpenDocument
from .features import (
    catalog_files,
    code_actions,
    completion,
    diagnostics,
    folding,
    formatting,
    hover,
    inlay_hints,
    navigation,
    positions,
    semantic_delta,
    semantic_tokens,
    signature,
    symbols,
    tool_calls,
)
from .features.wire import WireDict, WireText
from .protocol import (
    OctoscriptProtocol,
    RequestFailed,
    converter_factory,
    document_uri,
    require_rename,
)
from .text_sync import TextChange, TextStore
from .transport import MessageReader, shallow_copy_text

# Catalog advice waits for a pause in typing; a newer version cancels it.
ADVISORY_DELAY_SECONDS = 0.3
# After an open or a settings change nobody is typing: advice waits only for
# the requests a client sends with the open (outline, colours) to go first.
SETTLED_ADVISORY_DELAY_SECONDS = 0.05


# `octoscript-lsp` started with no stdin or stdout (file descriptor closed).
EXIT_NO_STDIO = 1


class OctoscriptServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "octoscript-lsp",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=OctoscriptProtocol,
            converter_factory=converter_factory,
        )
        # Columns count in UTF-16 until `initialize` settles the encoding.
        self.texts = TextStore()
        # The client-sent text, never pygls' workspace, which would read the
        # file behind an unknown URI.
        self.documents = DocumentStore(self.texts.text)
        self.catalogs = CatalogStore(on_change=self._catalogs_changed)
        # Read once here, before any client message: `~/` in `catalogFiles`
        # is the only use, and serving never reads the environment.
        self.catalogs.paths.home = os.path.expanduser("~")
        self.announcer = catalog_files.Announcer()
        self._watched: tuple[str, ...] = ()
        self.rename_enabled = False
        self.preferences = preferences.DEFAULTS
        self.reader: MessageReader | None = None
        self.delivery = diagnostics.Delivery()
        self.shut_down = False  # a `shutdown` request came
        self.exit_code = 0  # what the process returns (`exit` sets it)
        self._soon: set[Callable[[], None]] = set()  # actions due at the loop's next pass
        # The pending advice pass of each document (at most one, see `publish`).
        self._advice_timers: dict[str, asyncio.TimerHandle] = {}

    def handle_body(self, body: bytes | bytearray) -> None:
        """One message's body, decoded and handled; one nested too deeply for
        `json.loads` is handled with its deep values cut off (`transport`)."""
        try:
            try:
                self._handle_json(body)
            except RecursionError:
                self._handle_json(shallow_copy_text(body.decode("utf-8")))
        except Exception as error:  # noqa: BLE001 - the message stays unreadable
            logging.getLogger(__name__).warning("unreadable message: %s", error)

    def _handle_json(self, text: bytes | bytearray | str) -> None:
        protocol = self.protocol
        protocol.handle_message(json.loads(text, object_hook=protocol.structure_message))

    def report_server_error(self, error: Exception, source) -> None:
        if source is JsonRpcInternalError:
            self.protocol.send_failed = True
        if source is FeatureRequestError and isinstance(error, JsonRpcException):
            return  # a refused request: pygls or the protocol logged its one line
        # pygls pops a window message per failure; a hostile client could
        # flood the user with them. The log is enough.
        logging.getLogger(__name__).warning("ignored %s: %s", source.__name__, error)

    def use_position_encoding(self, encoding: positions.PositionEncoding) -> None:
        """The negotiated encoding, for the ranges applied and the maps built."""
        self.texts.encoding = self.documents.encoding = encoding

    def apply_configuration(self, params: object) -> None:
        """Raw didChangeConfiguration params that did not fit their type."""
        self.catalogs.apply_did_change_configuration(params)
        self.settings_changed(params.get("settings") if isinstance(params, dict) else None)

    def settings_changed(self, settings: object) -> None:
        """After the catalogs took their part of new settings: the rest."""
        self.preferences = preferences.from_settings(settings, self.preferences)
        self.watch_catalog_files()
        self.republish_all()

    def reload_catalog_files(self) -> None:
        if self.catalogs.reload_files():
            self.republish_all()

    def watch_catalog_files(self) -> None:
        """Ask the client to watch the named catalog files (again when the list changes)."""
        paths = self.catalogs.watched_paths()
        if paths == self._watched or not catalog_files.can_watch(self.client_capabilities):
            return
        if self._watched:
            self.client_unregister_capability(catalog_files.watch_unregistration())
        self._watched = paths
        if paths:
            registration = catalog_files.watch_registration(paths, self.client_capabilities)
            self.client_register_capability(registration)

    def once_soon(self, action: Callable[[], None]) -> None:
        """Run `action` at the loop's next pass, once however often asked before."""
        if action not in self._soon:
            self._soon.add(action)
            asyncio.get_event_loop().call_soon(self._run_soon, action)

    def _run_soon(self, action: Callable[[], None]) -> None:
        self._soon.discard(action)
        action()

    def _catalogs_changed(self) -> None:
        """A projection or a catalog file changed: tell the user, and have the
        client ask for lenses again (their titles say the catalog status)."""
        self.once_soon(self.announce_catalogs)
        if tool_calls.refreshes_code_lenses(self.client_capabilities):
            self.once_soon(self._refresh_code_lenses)

    def _refresh_code_lenses(self) -> None:
        self.workspace_code_lens_refresh(None)

    def announce_catalogs(self) -> None:
        status = self.catalogs.status()
        shown, logged = self.announcer.news(status)
        for line in shown:
            self._tell(line, shown=True)
        for line in logged:
            self._tell(line, shown=False)
        opted_in = catalog_files.opted_in(self.client_capabilities)
        if opted_in and self.announcer.status_changed(status):
            self.protocol.notify(catalog_files.STATUS_CHANGED, status)

    def _tell(self, line: str, shown: bool) -> None:
        logging.getLogger(__name__).warning("%s", line)
        warning = types.MessageType.Warning
        if shown:
            self.window_show_message(types.ShowMessageParams(type=warning, message=line))
        self.window_log_message(types.LogMessageParams(type=warning, message=line))

    def refuse_change(self, params: object) -> None:
        """Raw didChange params that did not fit their type (a negative position, ...)."""
        uri = document_uri(params)
        if uri is not None:
            version = params["textDocument"].get("version")  # type: ignore[index]
            self.texts.refuse(uri, version, "the change does not fit its type")

    def republish_all(self) -> None:
        for uri, state in list(self.documents.open.items()):
            state.advice = None  # worked out under the catalogs before this change
            self.publish(uri, state.version, state, settled=True)

    def publish(
        self, uri: str, version: int | None, state: OpenDocument, settled: bool = False
    ) -> None:
        """Syntax diagnostics at once; catalog advice in a second pass (with the
        suppression comments that silence nothing, known only then).

        Advisory diagnostics need the lexical index and the call review,
        which cost far more than the parse; sending the syntax verdict first
        keeps the editor's error squiggles a keystroke behind at most.
        A `settled` text (opened, or republished under new settings) is not
        being typed, so its advice pass waits only a moment.
        """
        if state.refused:
            self.push_diagnostics(uri, version, diagnostics.too_many_documents())
            return
        cached = self.documents.cached(uri)
        if cached is None:
            return  # no client-sent text to analyse
        syntax_only = diagnostics.syntax_diagnostics(cached.analysis, cached.positions)
        self.push_diagnostics(uri, version, syntax_only)
        if self.delivery.pulls and not self.delivery.refreshes:
            return  # nothing could make this client pull again: its pull advises
        if (
            self.catalogs_can_advise()
            or cached.advised
            or diagnostics.needs_second_pass(cached.analysis)
        ):
            # A newer version replaces the pending pass: it would only find
            # itself overtaken, and it holds its version's whole analysis
            # alive until then (tens of MiB while someone types fast).
            pending = self._advice_timers.get(uri)
            if pending is not None:
                pending.cancel()
            delay = SETTLED_ADVISORY_DELAY_SECONDS if settled else ADVISORY_DELAY_SECONDS
            self._advice_timers[uri] = asyncio.get_event_loop().call_later(
                delay, self._publish_advice, uri, cached, syntax_only
            )

    def prefill_snippets(self) -> bool:
        """Complete catalog methods with required fields (opt-in, snippet clients)."""
        return self.preferences.prefill_required_fields and completion.client_supports_snippets(
            self.client_capabilities
        )

    def catalogs_can_advise(self) -> bool:
        if self.catalogs.unparsed:
            # The delayed advice pass parses them (loading jsonschema), not
            # the first publish: that would hold up the next message.
            return True
        return self.catalogs.tool_catalog is not None or self.catalogs.module_catalog is not None

    def _publish_advice(self, uri: str, state: OpenDocument, syntax_only: list) -> None:
        self._advice_timers.pop(uri, None)
        if self.documents.open.get(uri) is not state or state.analysis is None:
            return  # a newer version or a close overtook this one
        advice = diagnostics.advisory_diagnostics(state.analysis, state.positions, self.catalogs)
        state.advice = advice
        if advice or state.advised:
            state.advised = bool(advice)
            if self.delivery.pulls:
                # One workspace/diagnostic/refresh for all the documents advised at once.
                self.once_soon(self._refresh_diagnostics)
            else:
                self._send_diagnostics(uri, state.version, syntax_only + advice)

    def pulled_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """A `textDocument/diagnostic` report: syntax plus the advice known so far.

        For a client that can be asked to pull again, advice is worked out
        after a pause in typing (as when pushing) and announced by a refresh;
        any other client gets it computed here.
        """
        state = self.documents.open.get(uri)
        if state is not None and state.refused:
            return diagnostics.too_many_documents()
        cached = self.documents.cached(uri)
        if cached is None:
            return []
        found = diagnostics.syntax_diagnostics(cached.analysis, cached.positions)
        advice = cached.advice
        if advice is None and not self.delivery.refreshes:
            advice = diagnostics.advisory_diagnostics(
                cached.analysis, cached.positions, self.catalogs
            )
        if self.delivery.pulls:
            cached.advised = bool(advice)
        return found + (advice or [])

    def _refresh_diagnostics(self) -> None:
        self.workspace_diagnostic_refresh(None)

    def push_diagnostics(self, uri: str, version: int | None, found: list) -> None:
        # A client that pulls keeps pushed diagnostics in a second collection:
        # pushing as well would show each one twice.
        if not self.delivery.pulls:
            self._send_diagnostics(uri, version, found)

    def _send_diagnostics(self, uri: str, version: int | None, found: list) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )


server = OctoscriptServer()


# A feature's refusal, answered RequestFailed with its reason (as the reference does).
_REFUSALS = (formatting.FormattingRefused, navigation.Refused)


def _refusing(handler: Callable) -> Callable:
    @functools.wraps(handler)
    def answer(ls: OctoscriptServer, params):
        try:
            return handler(ls, params)
        except _REFUSALS as refusal:
            raise RequestFailed(str(refusal)) from refusal

    return answer


def _analyzed(ls: OctoscriptServer, uri: str) -> OpenDocument:
    """The open, analysable document, or RequestFailed (as the reference answers)."""
    state = ls.documents.cached(uri)
    if state is None:
        raise RequestFailed("the document is not open in this Octoscript session")
    if state.analysis.too_large is not None:
        raise RequestFailed(str(state.analysis.too_large))
    return state


def _at(ls: OctoscriptServer, params) -> tuple[OpenDocument, int | None]:
    """(state, offset) of a request's position; offset None when it is outside the text."""
    state = _analyzed(ls, params.text_document.uri)
    return state, state.positions.strict_offset(params.position)


def _span(state: OpenDocument, span: types.Range) -> tuple[int, int]:
    return state.positions.offset(span.start), state.positions.offset(span.end)


@server.feature(types.INITIALIZE)
def initialize(ls: OctoscriptServer, params: types.InitializeParams) -> None:
    ls.delivery = diagnostics.delivery(params.capabilities)
    ls.catalogs.paths.root = catalog_files.workspace_root(params)
    ls.catalogs.apply_initialization_options(params.initialization_options)
    ls.preferences = preferences.from_initialization_options(params.initialization_options)


@server.feature(types.INITIALIZED)
def initialized(ls: OctoscriptServer, params: types.InitializedParams) -> None:
    ls.watch_catalog_files()
    if catalog_files.opted_in(ls.client_capabilities):
        # The first status waits for a pause, as advice does: it parses the catalogs.
        asyncio.get_event_loop().call_later(ADVISORY_DELAY_SECONDS, ls.announce_catalogs)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(
    ls: OctoscriptServer, params: types.DidChangeConfigurationParams
) -> None:
    ls.catalogs.apply_settings(params.settings)
    ls.settings_changed(params.settings)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(
    ls: OctoscriptServer, params: types.DidChangeWatchedFilesParams
) -> None:
    if ls.catalogs.files_changed(catalog_files.changed_paths(params)):
        ls.republish_all()


@server.command(catalog_files.RELOAD_COMMAND)
def reload_catalogs(ls: OctoscriptServer, *arguments: object) -> dict:
    ls.reload_catalog_files()
    return ls.catalogs.status()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: OctoscriptServer, params: types.DidOpenTextDocumentParams) -> None:
    document = params.text_document
    state = ls.documents.track(document.uri, document.version)
    if state.refused:
        # Over the open-document budget: keep no copy of the text either.
        ls.texts.close(document.uri)
    else:
        ls.texts.open(document.uri, document.version, document.text)
    ls.publish(document.uri, document.version, state, settled=True)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: OctoscriptServer, params: types.DidChangeTextDocumentParams) -> None:
    document = params.text_document
    changes = [_text_change(change) for change in params.content_changes]
    if ls.texts.change(document.uri, document.version, changes):
        state = ls.documents.track(document.uri, document.version)
        ls.publish(document.uri, document.version, state)


def _text_change(change: types.TextDocumentContentChangeEvent) -> TextChange:
    if isinstance(change, types.TextDocumentContentChangePartial):
        start, end = change.range.start, change.range.end
        return TextChange(change.text, (start.line, start.character), (end.line, end.character))
    return TextChange(change.text)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: OctoscriptServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.texts.close(params.text_document.uri)
    ls.documents.close(params.text_document.uri)
    ls.push_diagnostics(params.text_document.uri, None, [])


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@_refusing
def format_document(
    ls: OctoscriptServer, params: types.DocumentFormattingParams
) -> list[types.TextEdit] | None:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        raise RequestFailed("the document is not open or was not analyzed")
    return formatting.format_document(state.analysis, state.positions)


@server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
@_refusing
def format_range(
    ls: OctoscriptServer, params: types.DocumentRangeFormattingParams
) -> list[types.TextEdit]:
    state = _analyzed(ls, params.text_document.uri)
    start, end = _span(state, params.range)
    return formatting.format_range(state.analysis, state.positions, start, end)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: OctoscriptServer, params: types.DocumentSymbolParams) -> WireText:
    state = _analyzed(ls, params.text_document.uri)
    return symbols.document_symbols_wire(state.analysis, state.positions)


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=["."], resolve_provider=False),
)
def complete(
    ls: OctoscriptServer, params: types.CompletionParams
) -> types.CompletionList | WireDict | WireText:
    state, offset = _at(ls, params)
    return completion.complete_wire(
        state.analysis, state.positions, offset, ls.catalogs, ls.prefill_snippets()
    )


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover_at(ls: OctoscriptServer, params: types.HoverParams) -> types.Hover | None:
    state, offset = _at(ls, params)
    return hover.hover(state.analysis, state.positions, offset, ls.catalogs)


@server.feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP,
    types.SignatureHelpOptions(trigger_characters=["("], retrigger_characters=[","]),
)
def signature_help(
    ls: OctoscriptServer, params: types.SignatureHelpParams
) -> types.SignatureHelp | None:
    state, offset = _at(ls, params)
    return signature.signature_help(state.analysis, offset, ls.catalogs)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: OctoscriptServer, params: types.DefinitionParams) -> types.Location | None:
    state, offset = _at(ls, params)
    uri = params.text_document.uri
    return navigation.definition(state.analysis, state.positions, uri, offset, ls.catalogs)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@_refusing
def references(ls: OctoscriptServer, params: types.ReferenceParams) -> list[types.Location]:
    state, offset = _at(ls, params)
    return navigation.references(
        state.analysis,
        state.positions,
        params.text_document.uri,
        offset,
        params.context.include_declaration,
    )


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@_refusing
def document_highlight(
    ls: OctoscriptServer, params: types.DocumentHighlightParams
) -> list[types.DocumentHighlight]:
    state, offset = _at(ls, params)
    return navigation.highlights(state.analysis, state.positions, offset)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@_refusing
def prepare_rename(
    ls: OctoscriptServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    require_rename(ls.rename_enabled, types.TEXT_DOCUMENT_PREPARE_RENAME)
    state, offset = _at(ls, params)
    return navigation.prepare_rename(state.analysis, state.positions, offset)


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
@_refusing
def rename_symbol(ls: OctoscriptServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    require_rename(ls.rename_enabled, types.TEXT_DOCUMENT_RENAME)
    state, offset = _at(ls, params)
    uri, version = params.text_document.uri, state.version
    return navigation.rename(state.analysis, state.positions, uri, version, offset, params.new_name)


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=False),
)
def pull_diagnostics(
    ls: OctoscriptServer, params: types.DocumentDiagnosticParams
) -> types.RelatedFullDocumentDiagnosticReport:
    found = ls.pulled_diagnostics(params.text_document.uri)
    return types.RelatedFullDocumentDiagnosticReport(items=found)


@server.feature("octoscript/catalogStatus")
def catalog_status(ls: OctoscriptServer, params) -> dict:
    return ls.catalogs.status()


@server.feature("octoscript/searchTools")
def search_tools(ls: OctoscriptServer, params) -> dict:
    query = _param(params, "query")
    limit = _param(params, "limit")
    try:
        return search.search_tools(ls.catalogs, query, limit)
    except search.InvalidSearchQuery as error:
        raise JsonRpcInvalidParams(str(error)) from error


@server.feature(
    types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
    types.SemanticTokensRegistrationOptions(
        legend=semantic_tokens.LEGEND, full=types.SemanticTokensFullDelta(delta=True), range=True
    ),
)
def semantic_tokens_full(
    ls: OctoscriptServer, params: types.SemanticTokensParams
) -> types.SemanticTokens | WireText:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        return types.SemanticTokens(data=[])
    items = _semantic_items(state)
    state.semantic_tokens, answer = semantic_delta.full(state.semantic_tokens, items)
    return answer


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
def semantic_tokens_delta(
    ls: OctoscriptServer, params: types.SemanticTokensDeltaParams
) -> types.SemanticTokens | WireText:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        return types.SemanticTokens(data=[])
    state.semantic_tokens, answer = semantic_delta.delta(
        state.semantic_tokens, params.previous_result_id, _semantic_items(state)
    )
    return answer


def _semantic_items(state: OpenDocument) -> str:
    """This version's encoded tokens, statement by statement."""
    return semantic_tokens.full_items(state.analysis, state.positions.encoding)


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
def semantic_tokens_range(
    ls: OctoscriptServer, params: types.SemanticTokensRangeParams
) -> types.SemanticTokens:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        return types.SemanticTokens(data=[])
    start, end = _span(state, params.range)
    encoding = state.positions.encoding
    return semantic_tokens.range_tokens(state.analysis, start, end, encoding)


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding_range(
    ls: OctoscriptServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    state = ls.documents.cached(params.text_document.uri)
    return folding.folding_ranges(state.analysis) if state else []


@server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)
def selection_range(
    ls: OctoscriptServer, params: types.SelectionRangeParams
) -> list[types.SelectionRange]:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        return []
    offsets = [state.positions.offset(position) for position in params.positions]
    return folding.selection_ranges(state.analysis, state.positions, offsets)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=code_actions.KINDS)
)
def code_action(ls: OctoscriptServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    state = ls.documents.cached(uri)
    if state is None:
        return []
    start, end = _span(state, params.range)
    return code_actions.code_actions(
        state.analysis, state.positions, uri, start, end, ls.catalogs, params.context
    )


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
def inlay_hint(ls: OctoscriptServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    state = ls.documents.cached(params.text_document.uri)
    if state is None or not inlay_hints.client_asks(ls.client_capabilities):
        return []
    start, end = _span(state, params.range)
    return inlay_hints.inlay_hints(state.analysis, state.positions, start, end, ls.catalogs)


@server.feature(types.WORKSPACE_SYMBOL)
def workspace_symbol(ls: OctoscriptServer, params: types.WorkspaceSymbolParams) -> list[dict]:
    documents = ((uri, ls.documents.outline(uri)) for uri in list(ls.documents.open))
    return symbols.workspace_symbols(documents, params.query)


def _param(params, name: str):
    """A field of a custom request's params, whatever shape pygls handed over."""
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


@server.feature("octoscript/toolCalls")
def tool_calls_request(ls: OctoscriptServer, params) -> dict:
    uri = _param(_param(params, "textDocument"), "uri")
    state = ls.documents.cached(uri) if isinstance(uri, str) else None
    if state is None:
        raise RequestFailed("the document is not open in this Octoscript session")
    return tool_calls.tool_calls_result(state.analysis, ls.catalogs, uri)


@server.command(tool_calls.SHOW_TOOL_CALL_COMMAND)
def show_tool_call(ls: OctoscriptServer, *arguments: object) -> dict:
    """A lens's call: its catalog entry, answered and shown as a message."""
    try:
        entry = tool_calls.show_tool_call(arguments, ls.catalogs)
    except tool_calls.NotALensCall as error:
        raise JsonRpcInvalidParams(str(error)) from error
    info = types.MessageType.Info
    ls.window_show_message(types.ShowMessageParams(type=info, message=entry.message))
    return entry.json()


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: OctoscriptServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    state = ls.documents.cached(params.text_document.uri)
    if state is None:
        return []
    return tool_calls.code_lenses(state.analysis, state.positions, ls.catalogs)


@server.feature(types.SHUTDOWN)
def shutdown_request(ls: OctoscriptServer, params: None) -> None:
    ls.shut_down = True


@server.feature(types.EXIT)
def exit_notification(ls: OctoscriptServer, params: None) -> None:
    # The specification: exit code 0 after a `shutdown` request, 1 without one.
    ls.exit_code = 0 if ls.shut_down else 1


def serve() -> int:
    """Speak LSP on stdin/stdout until the client ends the session; the exit code."""
    if sys.stdin is None or sys.stdout is None:
        # Started with file descriptor 0 or 1 closed: nothing to talk over.
        if sys.stderr is not None:
            sys.stderr.write(
                "octoscript-lsp: standard input or output is closed; "
                "the server talks LSP over stdin/stdout\n"
            )
        return EXIT_NO_STDIO
    server.reader = MessageReader(sys.stdin.buffer).start()
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    # The modules' objects out of the collector's passes: halves the first
    # didOpen's CPU to its diagnostics (benchmarks/bench_first_open.py).
    gc.freeze()
    logging.getLogger(__name__).info("Starting octoscript-lsp on stdin/stdout")
    try:
        asyncio.run(_handle_messages(server.reader))
    except (KeyboardInterrupt, SystemExit):  # pygls' `exit` handler raises SystemExit
        pass
    return server.exit_code


async def _handle_messages(reader: MessageReader) -> None:
    while (body := await reader.next_body()) is not None:
        server.handle_body(body)


if __name__ == "__main__":
    launch.configure(None)
    sys.exit(serve())
