"""Start-up and memory: the program as installed, and nothing kept per notification."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from octoscript_lsp import protocol
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


# In a fresh interpreter: the handlers belong to the module's `server`.
_INITIALIZE_AND_REPORT_WARM_UP = """
import json
from octoscript_lsp.server import server
class Null:
    def write(self, data):
        pass
calls = []
prepare = type(server.protocol).prepare_document_messages
def counted(protocol):
    calls.append(1)
    prepare(protocol)
type(server.protocol).prepare_document_messages = counted
server.protocol.set_writer(Null())
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}}})
server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
print(len(calls))
"""


def test_initialize_prepares_the_document_message_hooks():
    """cattrs makes a converter hook the first time it meets a type (about
    3 ms for the first didOpen, didChange and publishDiagnostics); answering
    `initialize` makes them, so the first document's diagnostics do not wait."""
    run = subprocess.run(
        [sys.executable, "-c", _INITIALIZE_AND_REPORT_WARM_UP],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert run.stdout.strip().splitlines()[-1] == "1"


# In a fresh interpreter: answers `initialize`, then counts the converter
# hooks cattrs makes while the first document (with one syntax error) is
# opened and its diagnostics are published.
_HOOKS_MADE_BY_THE_FIRST_DID_OPEN = """
import json
import cattrs.gen
from octoscript_lsp.server import server
written = []
class Writer:
    def write(self, data):
        written.append(data)
def handle(message):
    body = json.dumps({"jsonrpc": "2.0", **message})
    server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
server.protocol.set_writer(Writer())
handle({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
handle({"method": "initialized", "params": {}})
made = []
make = cattrs.gen.make_dict_unstructure_fn_from_attrs
def counted(attributes, cls, *args, **kwargs):
    made.append(cls.__name__)
    return make(attributes, cls, *args, **kwargs)
cattrs.gen.make_dict_unstructure_fn_from_attrs = counted
document = {"uri": "file:///a.octoscript", "languageId": "octoscript", "version": 1,
            "text": "let a = (1\\n"}
handle({"method": "textDocument/didOpen", "params": {"textDocument": document}})
print(json.dumps({"made": made, "published": b"publishDiagnostics" in written[-1]}))
"""


def test_the_first_did_open_finds_the_publish_hooks_made():
    """Serializing the `initialize` answer empties cattrs' cache of hooks
    (it registers hooks for the capabilities' list types); the warm-up runs
    after that, so the first diagnostics make no hook of their own."""
    run = subprocess.run(
        [sys.executable, "-c", _HOOKS_MADE_BY_THE_FIRST_DID_OPEN],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    state = json.loads(run.stdout.strip().splitlines()[-1])
    assert state == {"made": [], "published": True}


def test_the_warm_up_samples_are_messages_of_their_kinds():
    """A sample that no longer fits its method would warm nothing."""
    ls = OctoscriptServer()
    kinds = (types.DidOpenTextDocumentNotification, types.DidChangeTextDocumentNotification)
    for sample, kind in zip(protocol._SAMPLE_DOCUMENT_MESSAGES, kinds, strict=True):
        assert type(ls.protocol.structure_message(sample)) is kind


# In a fresh interpreter: answers `initialize` (argv[2]: the client capabilities)
# after breaking a converter hook (argv[1]: none, structure or unstructure), and
# prints what the server wrote, kept and logged.
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
def fails(*args):
    raise RuntimeError("broken hook")
converter = server.protocol._converter
if sys.argv[1] == "structure":
    converter.register_structure_hook(types.DidOpenTextDocumentNotification, fails)
if sys.argv[1] == "unstructure":
    converter.register_unstructure_hook(types.PublishDiagnosticsNotification, fails)
server.protocol.set_writer(Writer())
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": json.loads(sys.argv[2])}})
server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
print(json.dumps({
    "answers": [json.loads(data.partition("\\r\\n\\r\\n")[2]) for data in written],
    "futures": len(server.protocol._request_futures),
    "documents": list(server.protocol.workspace.text_documents),
    "logged": [(record.levelname, record.getMessage()) for record in records],
}))
"""


def _initialized_state(broken_hook: str, capabilities: object) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", _INITIALIZE_AND_REPORT_STATE, broken_hook, json.dumps(capabilities)],
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
def test_preparing_the_document_messages_sends_and_keeps_nothing(capabilities):
    """The sample messages `initialize` structures are never handled: the
    client gets the initialize answer alone, and no sample document, request
    future or log line about the samples stays behind."""
    state = _initialized_state("none", capabilities)
    (answer,) = state["answers"]
    assert answer["id"] == 1 and "capabilities" in answer["result"]
    assert state["futures"] == 0
    assert state["documents"] == []
    logged = [message for _, message in state["logged"]]
    assert not [message for message in logged if "untitled:sample" in message]
    assert {level for level, _ in state["logged"]} == {"INFO"}


@pytest.mark.parametrize("broken_hook", ["structure", "unstructure"])
def test_a_failing_converter_hook_does_not_fail_initialize(broken_hook: str):
    """Preparing the hooks only saves time: a hook that raises must leave
    `initialize` answered, and quiet until a real message meets it."""
    state = _initialized_state(broken_hook, {})
    (answer,) = state["answers"]
    assert "capabilities" in answer["result"]
    assert [level for level, _ in state["logged"] if level != "INFO"] == []


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
        # A feature module loaded on first use answers like any other.
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
