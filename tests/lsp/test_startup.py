"""Start-up and memory: the program as installed, and nothing kept per notification."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from octoscript_lsp.server import OctoscriptServer
from tests.lsp.raw_client import RawClient

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


# In a fresh interpreter: answers `initialize` (argv[1]: the client capabilities)
# and prints what the server wrote, kept and logged.
_INITIALIZE_AND_REPORT_STATE = """
import json, logging, sys
from lsprotocol import types
from octoscript_lsp.server import server
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record)
logging.getLogger().addHandler(Keep())
logging.getLogger().setLevel(logging.INFO)
written = []
class Writer:
    def write(self, data):
        written.append(data.decode("utf-8"))
server.protocol.set_writer(Writer())
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": json.loads(sys.argv[1])}})
server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
print(json.dumps({
    "answers": [json.loads(data.partition("\\r\\n\\r\\n")[2]) for data in written],
    "futures": len(server.protocol._request_futures),
    "documents": list(server.protocol.workspace.text_documents),
    "logged": [(record.levelname, record.getMessage()) for record in records],
}))
"""


def _initialized_state(capabilities: object) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", _INITIALIZE_AND_REPORT_STATE, json.dumps(capabilities)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


ODD_CAPABILITIES = {
    "general": {"positionEncodings": ["utf-32"]},
    "textDocument": {"publishDiagnostics": {"versionSupport": "yes"}, "synchronization": None},
    "experimental": [1, 2],
}


@pytest.mark.parametrize("capabilities", [{}, ODD_CAPABILITIES])
def test_initialize_sends_its_answer_alone_and_keeps_nothing(capabilities):
    """The client gets the initialize answer alone; no document, request
    future or warning stays behind, whatever capabilities it sent."""
    state = _initialized_state(capabilities)
    (answer,) = state["answers"]
    assert answer["id"] == 1 and "capabilities" in answer["result"]
    assert state["futures"] == 0
    assert state["documents"] == []
    assert {level for level, _ in state["logged"]} <= {"INFO"}


# The installed `octoscript-lsp` program and `python -m octoscript_lsp` start
# through `launch.main` (the other tests run `python -m octoscript_lsp.server`).
PROGRAM = [sys.executable, "-m", "octoscript_lsp"]
CATALOGS = {
    "octoscript": {
        "toolCatalog": [{"name": "text.echo", "format": "text", "description": "Echo."}],
        "moduleCatalog": [{"path": "mod.app.weather.current", "callMode": "synchronous"}],
    }
}
SOURCE = 'use mod.tool\nlet total = 1\ntool.call("text.echo", "x")\ntotal\n'


def _mapped_files(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
def test_the_program_serves_with_catalogs_read_late():
    client = RawClient(PROGRAM)
    try:
        answer = client.initialize(options=CATALOGS)
        assert answer["result"]["capabilities"]["hoverProvider"] is True
        document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": SOURCE}
        client.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": document},
            }
        )
        assert client.notification("textDocument/publishDiagnostics")["params"]["diagnostics"] == []
        # The catalogs from initializationOptions, parsed on first use.
        client.send({"jsonrpc": "2.0", "id": 1, "method": "octoscript/catalogStatus", "params": {}})
        status = client.response(1)["result"]
        assert (status["toolCatalog"]["state"], status["toolCatalog"]["entries"]) == ("valid", 1)
        assert (status["moduleCatalog"]["state"], status["moduleCatalog"]["generation"]) == (
            "valid",
            1,
        )
        # A request feature answers through the installed program too.
        position = {"line": 3, "character": 2}
        params = {"textDocument": {"uri": URI}, "position": position}
        client.send(
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/definition", "params": params}
        )
        assert client.response(2)["result"]["range"]["start"] == {"line": 1, "character": 4}
        maps = _mapped_files(client.process.pid)
        assert "libpython" in maps or "python" in maps
    finally:
        client.close()
