"""The server process's own small print: exit codes and a closed stdin."""

from __future__ import annotations

import json
import shlex
import subprocess

from tests.conftest import SERVER_COMMAND

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"processId": None, "rootUri": None, "capabilities": {}},
}


def framed(*messages: dict) -> bytes:
    out = b""
    for message in messages:
        body = json.dumps(message).encode("utf-8")
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


def run(stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(SERVER_COMMAND, input=stdin, capture_output=True, timeout=60)


def test_exit_after_shutdown_returns_0() -> None:
    shutdown = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
    result = run(framed(INITIALIZE, shutdown, {"jsonrpc": "2.0", "method": "exit"}))
    assert result.returncode == 0
    assert b'"id": 2, "jsonrpc": "2.0", "result": null' in result.stdout


def test_exit_without_shutdown_returns_1() -> None:
    initialized = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
    result = run(framed(INITIALIZE, initialized, {"jsonrpc": "2.0", "method": "exit"}))
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr


def test_closed_stdin_is_a_clear_error_not_a_traceback() -> None:
    # `<&-` closes file descriptor 0 before the server starts.
    command = shlex.join(SERVER_COMMAND) + " <&-"
    result = subprocess.run(command, shell=True, capture_output=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == (
        b"octoscript-lsp: standard input or output is closed; "
        b"the server talks LSP over stdin/stdout\n"
    )
