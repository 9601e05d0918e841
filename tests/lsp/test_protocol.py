"""Hostile JSON-RPC: every request gets an answer and the server keeps serving."""

from __future__ import annotations

import json
import subprocess
from types import SimpleNamespace

import pytest

from octoscript_lsp.features.wire import WireText
from octoscript_lsp.server import OctoscriptServer
from tests.conftest import SERVER_COMMAND
from tests.lsp.raw_client import RawClient

URI = "file:///workspace/protocol.octoscript"


@pytest.fixture(scope="module")
def raw():
    """One server for the module's hostile messages: it must keep serving after each."""
    client = RawClient()
    client.initialize()
    yield client
    client.close()


def hover(client: RawClient, message_id: int, params) -> dict:
    message = {"jsonrpc": "2.0", "id": message_id, "method": "textDocument/hover"}
    if params is not None:
        message["params"] = params
    client.send(message)
    return client.response(message_id)


def open_sane_document(client: RawClient) -> None:
    client.send(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": URI,
                    "languageId": "octoscript",
                    "version": 1,
                    "text": "let total = 1\ntotal\n",
                }
            },
        }
    )
    client.notification("textDocument/publishDiagnostics")


def test_invalid_params_get_invalid_params_error(raw: RawClient):
    assert hover(raw, 1, {"textDocument": 5})["error"]["code"] == -32602
    assert hover(raw, 2, None)["error"]["code"] == -32602


def test_unknown_method_gets_method_not_found(raw: RawClient):
    raw.send({"jsonrpc": "2.0", "id": 3, "method": "octoscript/noSuchThing", "params": {}})
    assert raw.response(3)["error"]["code"] == -32601


def test_malformed_json_is_survived(raw: RawClient):
    raw.send_bytes(b"{this is not json")
    raw.send_bytes(b"[1, 2, 3]")
    raw.send_bytes(b"\xff\xfe\x00")
    open_sane_document(raw)
    answer = hover(raw, 4, {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 2}})
    assert answer["result"]["range"]["start"] == {"line": 1, "character": 0}


def test_bad_notifications_are_ignored(raw: RawClient):
    raw.send(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": 5, "version": "x", "text": None}},
        }
    )
    raw.send({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": 7})
    open_sane_document(raw)
    answer = hover(raw, 5, {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 5}})
    assert answer["result"] is not None


def test_out_of_range_positions_answer_empty(raw: RawClient):
    open_sane_document(raw)
    far = {"textDocument": {"uri": URI}, "position": {"line": 500, "character": 900}}
    assert hover(raw, 6, far)["result"] is None
    raw.send({"jsonrpc": "2.0", "id": 7, "method": "textDocument/completion", "params": far})
    assert raw.response(7)["result"]["items"] == []


def test_requests_on_a_document_that_is_not_open_fail(raw: RawClient):
    never = {
        "textDocument": {"uri": "file:///never.octoscript"},
        "position": {"line": 0, "character": 0},
    }
    for message_id, method in enumerate(
        ["textDocument/hover", "textDocument/definition", "textDocument/completion"], start=20
    ):
        raw.send({"jsonrpc": "2.0", "id": message_id, "method": method, "params": never})
        assert raw.response(message_id)["error"]["code"] == -32803


def test_unreadable_configuration_makes_catalogs_unavailable():
    client = RawClient()
    try:
        client.initialize(
            options={
                "octoscript": {
                    "toolCatalog": [{"name": "text.echo", "format": "text", "description": "Echo."}]
                }
            }
        )
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": URI,
                        "languageId": "octoscript",
                        "version": 1,
                        "text": 'use mod.tool\nlet r = tool.call("")\n',
                    }
                },
            }
        )
        client.notification("textDocument/publishDiagnostics")
        where = {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 19}}
        client.send(
            {"jsonrpc": "2.0", "id": 1, "method": "textDocument/completion", "params": where}
        )
        assert [item["label"] for item in client.response(1)["result"]["items"]] == ["text.echo"]
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "workspace/didChangeConfiguration",
                "params": {"unexpected": True},
            }
        )
        client.send(
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": where}
        )
        answer = client.response(2)["result"]
        assert answer["items"] == [] and answer["isIncomplete"] is True
    finally:
        client.close()


def test_unreadable_initialize_params_fall_back_to_defaults():
    client = RawClient()
    try:
        client.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
        capabilities = client.response(0)["result"]["capabilities"]
        # Defaults: no versioned documentChanges, so no rename.
        assert "renameProvider" not in capabilities or capabilities["renameProvider"] is None
        assert capabilities["hoverProvider"] is True
    finally:
        client.close()


@pytest.mark.parametrize("params", [{"capabilities": None}, None, [1], {"processId": None}])
def test_initialize_without_capabilities_gets_defaults_and_logs_no_traceback(params) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
    exit_messages = [
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    framed = b"".join(
        b"Content-Length: %d\r\n\r\n" % len(text) + text
        for text in [body.encode(), *(json.dumps(item).encode() for item in exit_messages)]
    )
    finished = subprocess.run(SERVER_COMMAND, input=framed, capture_output=True, timeout=30)
    assert finished.returncode == 0
    assert b'"hoverProvider": true' in finished.stdout
    assert b"Traceback" not in finished.stderr and b"ERROR" not in finished.stderr


class _Writer:
    """Collects what the protocol writes, one bytes object per write."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))


@pytest.mark.parametrize("message_id", [0, 7, 1 << 40, "", "a-1", "é-日", 'q"\\'])
@pytest.mark.parametrize(
    "result", ['{"data":[0,1,2]}', "[]", '"héllo 日本 😀"', '{"s":"\\u00e9","t":"é"}']
)
def test_a_json_text_answer_is_framed_byte_for_byte(message_id, result):
    """One write: the header whose Content-Length counts the UTF-8 bytes of
    the body (non-ASCII results included), then the body with the id as JSON."""
    protocol = OctoscriptServer().protocol
    writer = protocol.writer = _Writer()
    protocol._send_data(SimpleNamespace(id=message_id, result=WireText(result)))
    body = f'{{"id":{json.dumps(message_id)},"jsonrpc":"2.0","result":{result}}}'.encode()
    header = (
        f"Content-Length: {len(body)}\r\n"
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
    ).encode()
    assert writer.written == [header + body]
    assert json.loads(body) == {"id": message_id, "jsonrpc": "2.0", "result": json.loads(result)}


def test_an_answer_that_cannot_be_serialized_gets_internal_error():
    """pygls logs such an answer and sends nothing; the client would wait for good."""
    server = OctoscriptServer()
    writer = _Writer()
    server.protocol.set_writer(writer)
    server.protocol._send_response(5, result={"value": object()})
    answers = [json.loads(data.partition(b"\r\n\r\n")[2]) for data in writer.written]
    assert [answer["id"] for answer in answers] == [5]
    assert answers[0]["error"]["code"] == -32603
