"""A refused request logs one line, never a traceback (issue 15)."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import SERVER_COMMAND


def _frame(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_refused_requests_log_one_line_each():
    invalid = "file:///invalid.octoscript"
    large = "file:///large.octoscript"
    messages = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ]
    for uri, text in ((invalid, "let = 1\n"), (large, "let a = 1\n" * 40_000)):
        item = {"uri": uri, "languageId": "octoscript", "version": 1, "text": text}
        messages.append(
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}}
        )
    position = {"line": 0, "character": 0}
    requests = [
        ("textDocument/hover", "file:///not-open.octoscript"),  # not open
        ("textDocument/hover", large),  # too large
        ("textDocument/formatting", invalid),  # invalid for formatting
    ]
    for message_id, (method, uri) in enumerate(requests, 1):
        params = {"textDocument": {"uri": uri}, "position": position}
        if method == "textDocument/formatting":
            params = {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}}
        messages.append({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})
    messages += [
        # A cancellation of a request not in flight (answered, or never sent) is no news.
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 50}},
        {"jsonrpc": "2.0", "id": 99, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run(
        SERVER_COMMAND,
        input=b"".join(_frame(message) for message in messages),
        capture_output=True,
        timeout=60,
    )
    log = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in log
    refusals = [line for line in log.splitlines() if "refused" in line]
    assert len(refusals) == 3, log
    assert len(log.splitlines()) == 3, log
    codes = {}
    for text in done.stdout.split(b"Content-Length: ")[1:]:
        answer = json.loads(text.split(b"\r\n\r\n", 1)[1])
        if "error" in answer:
            codes[answer["id"]] = answer["error"]["code"]
    assert codes == {1: -32803, 2: -32803, 3: -32803}
