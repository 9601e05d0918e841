"""pygls' JSON-RPC protocol with the fixes this server needs.

- every request gets an answer: params that do not fit the method get
  InvalidParams (pygls would drop the message), an answer that cannot be
  serialized gets InternalError;
- wire-form answers (`features.wire`) are sent as they are;
- rename is advertised only to clients that take versioned `documentChanges`;
- a null per-signature `activeParameter` is left out;
- a request that a didChange for its document or a `$/cancelRequest`
  already read (and waiting in `transport.MessageReader`) makes pointless is
  answered ContentModified or RequestCancelled without being computed; a
  superseded diagnostic pull is answered ServerCancelled with
  `retriggerRequest: true` instead, so the client pulls again and keeps the
  report it shows (vscode-languageclient turns ContentModified into an empty
  report: the Problems entries would flicker away while typing);
- a refused request (RequestFailed, InvalidParams, ...) logs one line, not
  a traceback with the request's params;
- document text is not put into pygls' workspace: the server keeps it
  (`text_sync`), so pygls' open/change/close handlers only pass the
  notification on;
- a handled notification leaves nothing behind: pygls files the future of
  a generator handler (didOpen, didChange, didClose, initialized, ...) under
  a fresh id and never takes it out, one leaked future per keystroke.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcContentModified,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcRequestCancelled,
)
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.json_rpc import ResponseErrorMessage
from pygls.protocol.language_server import lsp_method

from .features import positions
from .features.wire import WireText, is_wire
from .transport import REFUSED_METHOD

REQUEST_FAILED = types.LSPErrorCodes.RequestFailed.value
SERVER_CANCELLED = types.LSPErrorCodes.ServerCancelled.value

logger = logging.getLogger(__name__)


class RequestFailed(JsonRpcException):
    CODE = REQUEST_FAILED
    MESSAGE = "Request failed"


class ServerCancelled(JsonRpcException):
    CODE = SERVER_CANCELLED
    MESSAGE = "Server cancelled"


def require_rename(enabled: bool, method: str) -> None:
    """Rename exists only for clients that take versioned `documentChanges`."""
    if not enabled:
        raise JsonRpcMethodNotFound.of(method)


def client_supports_versioned_edits(capabilities: types.ClientCapabilities | None) -> bool:
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
    for cls in (types.SignatureInformation, types.SignatureHelp):
        _omit_null_active_parameter(converter, cls)
    return converter


def _omit_null_active_parameter(converter, cls: type) -> None:
    base = converter.get_unstructure_hook(cls)

    def unstructure(value) -> dict:
        data = base(value)
        if data.get("activeParameter", 0) is None:
            del data["activeParameter"]
        return data

    converter.register_unstructure_hook(cls, unstructure)


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """Stands in for a message whose fields do not fit its method."""

    params: object = None
    # What the server does with the raw params, if anything.
    handle: Callable[[object], None] | None = None


class OctoscriptProtocol(LanguageServerProtocol):
    """pygls' protocol with the fixes the module docstring lists."""

    # pygls raises on params that do not fit (the message is lost): answered
    # instead (tests/lsp/test_protocol.py: invalid params, unreadable initialize).
    def structure_message(self, data):
        if _initialize_without_capabilities(data):
            # Known unreadable: defaults at once, without the traceback pygls
            # logs as an ERROR for a message it cannot structure.
            return super().structure_message({**data, "params": _INITIALIZE_DEFAULTS})
        try:
            return super().structure_message(data)
        except JsonRpcException:
            # pygls would drop the message silently, leaving the client waiting
            # for an answer that never comes. A request gets InvalidParams; a
            # notification is ignored, as JSON-RPC prescribes.
            message_id = data.get("id")
            method = data.get("method")
            if method == types.WORKSPACE_DID_CHANGE_CONFIGURATION and message_id is None:
                # The reference clears every catalog.
                return _Unreadable(data.get("params"), self._server.apply_configuration)
            if method == types.TEXT_DOCUMENT_DID_CHANGE and message_id is None:
                # A negative position, ...: the change is refused whole.
                return _Unreadable(data.get("params"), self._server.refuse_change)
            if method == types.INITIALIZE and message_id is not None:
                # Like the reference: unreadable initialize params mean defaults.
                return super().structure_message({**data, "params": _INITIALIZE_DEFAULTS})
            if (
                "method" in data
                and isinstance(message_id, (int, str))
                and not isinstance(message_id, bool)
            ):
                error = JsonRpcInvalidParams(f"invalid params for {data.get('method')!r}")
                self._send_response(message_id, None, error.to_response_error())
            return _Unreadable()

    send_failed = False

    # Wire answers framed as they are, and an InternalError where pygls would
    # send nothing (test_protocol.py: json text answer, unserializable answer).
    def _send_data(self, data) -> None:
        result = getattr(data, "result", None)
        if is_wire(result) and self.writer is not None:
            text = result if type(result) is WireText else json.dumps(result)
            self._send_text_answer(data.id, text)
            return
        # pygls logs a response it cannot serialize and sends nothing, which
        # leaves the client waiting: answer the request with an error instead.
        self.send_failed = False
        super()._send_data(data)
        message_id = getattr(data, "id", None)
        if self.send_failed and message_id is not None and not hasattr(data, "method"):
            if getattr(data, "error", None) is None:
                error = JsonRpcInternalError("the answer could not be serialized")
                super()._send_data(
                    ResponseErrorMessage(id=message_id, error=error.to_response_error())
                )

    def _send_text_answer(self, message_id: int | str, result: str) -> None:
        """A response whose result is JSON text already: framed as pygls does
        (kept with `features.wire`: `benchmarks/bench_wire.py`).

        The result (a few hundred KiB for a large outline or semantic tokens)
        is copied twice, to UTF-8 and into the message, not three times."""
        prefix = f'{{"id":{json.dumps(message_id)},"jsonrpc":"2.0","result":'.encode(self.CHARSET)
        body = result.encode(self.CHARSET)
        header = (
            f"Content-Length: {len(prefix) + len(body) + 1}\r\n"
            f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        ).encode(self.CHARSET)
        self.writer.write(b"".join((header, prefix, body, b"}")))

    # A message `structure_message` made unreadable is no pygls message
    # (test_protocol.py: bad notifications, unreadable configuration).
    def handle_message(self, message) -> None:
        if isinstance(message, _Unreadable):
            if message.handle is not None:
                message.handle(message.params)
        elif hasattr(message, "jsonrpc"):
            super().handle_message(message)

    # Refused and superseded requests answered without running a handler
    # (tests/transport/test_transport_e2e.py: 300 MiB message, waiting cancellation).
    def _handle_request(self, msg_id, method_name: str, params) -> None:
        if method_name == REFUSED_METHOD:
            early: JsonRpcException | None = _refusal(params)
        else:
            early = _superseded(getattr(self._server, "reader", None), msg_id, method_name, params)
        if early is not None:
            self._send_response(msg_id, None, early.to_response_error())
            return
        self._method_name = method_name
        super()._handle_request(msg_id, method_name, params)

    _method_name = ""

    # A refusal logs one line where pygls logs a traceback with the params
    # (tests/lsp/test_quiet_logs.py).
    def _send_handler_result(self, future: Future, *, msg_id) -> None:
        error = None if future.cancelled() else future.exception()
        if isinstance(error, JsonRpcException):
            # A refusal the handler chose (not open, too large, not valid for
            # formatting, ...): one line in the log, the error to the client.
            self._request_futures.pop(msg_id, None)
            logger.warning("refused %s request %s: %s", self._method_name, msg_id, error)
            self._send_response(msg_id, error=error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    # pygls never drops a generator notification's future: one leaked per
    # keystroke (tests/lsp/test_startup.py: no pending futures).
    def _check_handler_result(self, future: Future) -> None:
        # Only the few requests in flight are in the table: the scan is short.
        finished = [key for key, pending in self._request_futures.items() if pending is future]
        for key in finished:
            del self._request_futures[key]
        super()._check_handler_result(future)

    # Handlers here are synchronous: a request not in flight was answered, not
    # worth pygls' warning (tests/lsp/test_quiet_logs.py).
    def _handle_cancel_notification(self, msg_id) -> None:
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _user_handler(self, method: str, params):
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        server = self._server
        # The one place the session's position encoding is settled: every
        # position read or written counts in it, and the answer names it
        # (pygls makes its own choice for its workspace, which holds no text here).
        encoding = positions.client_encoding(params.capabilities)
        server.use_position_encoding(encoding)
        result = yield from super().lsp_initialize(params)
        result.capabilities.position_encoding = encoding.name
        server.rename_enabled = client_supports_versioned_edits(params.capabilities)
        result.capabilities.rename_provider = (
            types.RenameOptions(prepare_provider=True) if server.rename_enabled else None
        )
        return result


# What unreadable `initialize` params stand for (as in the reference).
_INITIALIZE_DEFAULTS = {"processId": None, "capabilities": {}}


def _initialize_without_capabilities(data: object) -> bool:
    """An `initialize` request whose params are no object or carry no capabilities object."""
    if not isinstance(data, dict) or data.get("method") != types.INITIALIZE or "id" not in data:
        return False
    params = data.get("params")
    return not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict)


def _superseded(reader, msg_id, method_name: str, params) -> JsonRpcException | None:
    """The answer to a request a waiting didChange or `$/cancelRequest` makes stale."""
    if reader is None:
        return None
    if reader.cancel_waiting(msg_id):
        return JsonRpcRequestCancelled(f"request {msg_id} was cancelled")
    uri = document_uri(params)
    if uri is None or not reader.change_waiting(uri):
        return None
    if method_name == types.TEXT_DOCUMENT_DIAGNOSTIC:
        # LSP 3.17: the client keeps its last report and pulls again.
        return ServerCancelled(
            "a newer version of the document has arrived",
            data={"retriggerRequest": True},
        )
    return JsonRpcContentModified("a newer version of the document has arrived")


def _refusal(params) -> JsonRpcException:
    """The answer to a request the reader discarded unread (too large, bad framing)."""
    reason = params.get("reason") if isinstance(params, dict) else getattr(params, "reason", None)
    return JsonRpcInvalidRequest(str(reason or "message refused"))


def document_uri(params) -> str | None:
    """The `textDocument.uri` of a request's params, typed or raw."""
    document = (
        params.get("textDocument")
        if isinstance(params, dict)
        else getattr(params, "text_document", None)
    )
    uri = document.get("uri") if isinstance(document, dict) else getattr(document, "uri", None)
    return uri if isinstance(uri, str) else None
