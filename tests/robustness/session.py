"""A hostile-client session over stdio, built on the raw JSON-RPC client.

Shared by the robustness tests and `benchmarks/hostile_client.py`: it keeps
every notification per URI, answers server-to-client requests, times each
request and classifies answers (a result, an expected error, or a failure).
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Sequence

from tests.conftest import SERVER_COMMAND
from tests.lsp.raw_client import RawClient

INTERNAL_ERROR = -32603
CAPABILITIES = {
    "workspace": {"workspaceEdit": {"documentChanges": True}},
    "textDocument": {
        "hover": {"contentFormat": ["plaintext"]},
        "rename": {"prepareSupport": True},
        "publishDiagnostics": {"versionSupport": True},
    },
}

SANE_URI = "file:///workspace/sane.octoscript"
SANE_TEXT = "let total = 1\nfn twice(value) {\n    value * 2\n}\ntwice(total)\n"
# `total` in `twice(total)` on line 4: its definition is line 0, columns 4-9.
SANE_USE = {"line": 4, "character": 7}
SANE_DEFINITION = {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 9}}
SANE_USE_RANGE = {"start": {"line": 4, "character": 6}, "end": {"line": 4, "character": 11}}


class Unanswered(AssertionError):
    """A request got no response within its timeout."""


class Session(RawClient):
    """RawClient with a configurable command and a notification log."""

    def __init__(self, command: Sequence[str] = SERVER_COMMAND) -> None:
        # Same wiring as RawClient.__init__, with the command as a parameter
        # (the strace test wraps the server).
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1
        self.responses: dict[object, dict] = {}
        self.diagnostics: dict[str, list[dict]] = {}

    # -- plumbing -----------------------------------------------------------
    def _dispatch(self, message: dict) -> None:
        method = message.get("method")
        if method is None:
            self.responses[message.get("id")] = message
        elif "id" in message:
            # A server-to-client request: answer it so the server is not left waiting.
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif method == "textDocument/publishDiagnostics":
            params = message.get("params") or {}
            self.diagnostics[params.get("uri")] = params.get("diagnostics")

    def pump(self, timeout: float) -> bool:
        """Handle one incoming message; False when none came within `timeout`."""
        try:
            message = self.messages.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return False
        self._dispatch(message)
        return True

    def alive(self) -> bool:
        return self.process.poll() is None

    def notify(self, method: str, params: object) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def start(self, method: str, params: object = None) -> int:
        message_id = self.next_id
        self.next_id += 1
        message: dict = {"jsonrpc": "2.0", "id": message_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return message_id

    def wait(self, message_id: int, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        while message_id not in self.responses:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.pump(remaining):
                if message_id in self.responses:
                    break
                raise Unanswered(f"request {message_id} unanswered after {timeout} s")
        return self.responses.pop(message_id)

    def request(self, method: str, params: object = None, timeout: float = 10.0) -> dict:
        return self.wait(self.start(method, params), timeout)

    def timed(self, method: str, params: object = None, timeout: float = 10.0):
        """(response, seconds) for one request."""
        began = time.monotonic()
        answer = self.request(method, params, timeout)
        return answer, time.monotonic() - began

    def drain(self) -> None:
        while self.pump(0):
            pass

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until every message sent so far has been handled (a round trip)."""
        self.request("octoscript/catalogStatus", {}, timeout)

    # -- documents ------------------------------------------------------------
    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "octoscript",
                    "version": version,
                    "text": text,
                }
            },
        )

    def open_raw(self, uri: str, escaped_text: str, version: int = 1) -> None:
        """didOpen whose text is spliced in as raw JSON string content (e.g. `\\ud800`)."""
        head = json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "octoscript",
                        "version": version,
                        "text": "@TEXT@",
                    }
                },
            }
        )
        body = head.replace('"@TEXT@"', '"' + escaped_text + '"')
        self.send_bytes(body.encode("ascii"))

    def change(self, uri: str, version: int, changes: list[dict]) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    # -- checks -------------------------------------------------------------
    def sane_answers_ok(self, uri: str = SANE_URI) -> list[str]:
        """Open the sane document (again) and return what it got wrong."""
        self.open(uri, SANE_TEXT, version=1)
        problems: list[str] = []
        where = {"textDocument": {"uri": uri}, "position": SANE_USE}
        definition = self.request("textDocument/definition", where).get("result")
        if definition != {"uri": uri, "range": SANE_DEFINITION}:
            problems.append(f"definition: {definition!r}")
        hover = self.request("textDocument/hover", where).get("result")
        if not hover or hover.get("range") != SANE_USE_RANGE or "total" not in json.dumps(hover):
            problems.append(f"hover: {hover!r}")
        report = self.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        if report.get("result", {}).get("items") != []:
            problems.append(f"diagnostics: {report!r}")
        self.close_document(uri)
        return problems


def request_kinds(uri: str, position: dict) -> list[tuple[str, dict]]:
    """One request of every kind the server serves, at `position` where it takes one."""
    document = {"uri": uri}
    at = {"textDocument": document, "position": position}
    span = {"start": position, "end": position}
    return [
        ("textDocument/hover", at),
        ("textDocument/completion", at),
        ("textDocument/signatureHelp", at),
        ("textDocument/definition", at),
        ("textDocument/references", {**at, "context": {"includeDeclaration": True}}),
        ("textDocument/documentHighlight", at),
        ("textDocument/prepareRename", at),
        ("textDocument/rename", {**at, "newName": "renamed_value"}),
        ("textDocument/documentSymbol", {"textDocument": document}),
        (
            "textDocument/formatting",
            {"textDocument": document, "options": {"tabSize": 4, "insertSpaces": True}},
        ),
        ("textDocument/semanticTokens/full", {"textDocument": document}),
        ("textDocument/semanticTokens/range", {"textDocument": document, "range": span}),
        ("textDocument/foldingRange", {"textDocument": document}),
        ("textDocument/selectionRange", {"textDocument": document, "positions": [position]}),
        (
            "textDocument/codeAction",
            {"textDocument": document, "range": span, "context": {"diagnostics": []}},
        ),
        ("textDocument/codeLens", {"textDocument": document}),
        ("textDocument/diagnostic", {"textDocument": document}),
        ("workspace/symbol", {"query": "a"}),
        ("octoscript/toolCalls", {"textDocument": document}),
        ("octoscript/catalogStatus", {}),
        ("octoscript/searchTools", {"query": "weather"}),
    ]


def is_failure(answer: dict) -> bool:
    """An internal error means a handler raised: the request was not served."""
    error = answer.get("error")
    return error is not None and error.get("code") == INTERNAL_ERROR


def peak_rss_kib(pid: int) -> int:
    """VmHWM of a live process, in KiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise LookupError("VmHWM missing")
