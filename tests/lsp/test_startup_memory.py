"""What the server keeps between messages: nothing per handled notification."""

from __future__ import annotations

import json

from octoscript_lsp.server import OctoscriptServer

URI = "file:///memory.octoscript"


class _NullWriter:
    def write(self, data: bytes) -> None:
        pass


def _handle(ls: OctoscriptServer, message: dict) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message})
    ls.protocol.handle_message(json.loads(body, object_hook=ls.protocol.structure_message))


def test_handled_notifications_leave_no_pending_futures():
    ls = OctoscriptServer()
    ls.protocol.set_writer(_NullWriter())
    _handle(ls, {"id": 1, "method": "initialize", "params": {"capabilities": {}}})
    _handle(ls, {"method": "initialized", "params": {}})
    document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": "let a = 1\n"}
    _handle(ls, {"method": "textDocument/didOpen", "params": {"textDocument": document}})
    for version in range(2, 50):
        change = {"text": f"let a = {version}\n"}
        params = {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}
        _handle(ls, {"method": "textDocument/didChange", "params": params})
    _handle(ls, {"method": "textDocument/didClose", "params": {"textDocument": {"uri": URI}}})
    # pygls alone would keep one finished future per notification (51 here).
    assert ls.protocol._request_futures == {}
