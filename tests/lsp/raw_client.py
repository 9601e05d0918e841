"""A minimal stdio JSON-RPC client that can also send malformed bytes."""

from __future__ import annotations

import json
import queue
import subprocess
import threading

from tests.conftest import SERVER_COMMAND


def read_message(stream) -> dict | None:
    """The next framed JSON-RPC message on `stream`, None at its end."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return None
            if not line.strip():
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        if length is not None:
            return json.loads(stream.read(length))


class RawClient:
    def __init__(self, command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or SERVER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while (message := read_message(stream)) is not None:
            self.messages.put(message)

    def send_bytes(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_bytes(json.dumps(message).encode("utf-8"))

    def response(self, message_id: int, timeout: float = 10.0) -> dict:
        while True:
            message = self.messages.get(timeout=timeout)
            if message.get("id") == message_id and "method" not in message:
                return message

    def notification(self, method: str, timeout: float = 10.0) -> dict:
        while True:
            message = self.messages.get(timeout=timeout)
            if message.get("method") == method:
                return message

    def initialize(self, capabilities: dict | None = None, options=None) -> dict:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {"capabilities": capabilities or {}, "initializationOptions": options},
            }
        )
        answer = self.response(0)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        return answer

    def close(self) -> None:
        try:
            self.send({"jsonrpc": "2.0", "id": 999999, "method": "shutdown"})
            self.send({"jsonrpc": "2.0", "method": "exit"})
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()
