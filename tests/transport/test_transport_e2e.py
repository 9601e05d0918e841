"""The real server: oversized and malformed framing, bursts and cancellations (issue 15)."""

from __future__ import annotations

import json

from octoscript_lsp.limits import MAX_MESSAGE_BYTES
from tests.lsp.raw_client import RawClient
from tests.robustness.session import peak_rss_kib

URI = "file:///workspace/burst.octoscript"
CHUNK = b"x" * (1024 * 1024)
HUGE_MIB = 300
PEAK_RSS_KIB = 100 * 1024


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _request(message_id: int, method: str, params: dict) -> bytes:
    return _message({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})


def _notification(method: str, params: dict) -> bytes:
    return _message({"jsonrpc": "2.0", "method": method, "params": params})


def _write(client: RawClient, data: bytes) -> None:
    assert client.process.stdin is not None
    client.process.stdin.write(data)
    client.process.stdin.flush()


def _open(client: RawClient, text: str) -> None:
    item = {"uri": URI, "languageId": "octoscript", "version": 1, "text": text}
    _write(client, _notification("textDocument/didOpen", {"textDocument": item}))


def _symbols(client: RawClient, message_id: int) -> list[str]:
    _write(
        client, _request(message_id, "textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    )
    return [symbol["name"] for symbol in client.response(message_id, timeout=30)["result"]]


def test_a_300_mib_message_is_discarded_while_it_streams():
    assert HUGE_MIB * 1024 * 1024 > MAX_MESSAGE_BYTES
    client = RawClient()
    try:
        client.initialize()
        _open(client, "let a = 1\n")
        opening = b'{"jsonrpc": "2.0", "id": 5, "params": "'
        header = b"Content-Length: %d\r\n\r\n" % (len(opening) + HUGE_MIB * len(CHUNK))
        _write(client, header + opening)
        for _ in range(HUGE_MIB):
            _write(client, CHUNK)  # the last bytes close nothing: never parsed
        refused = client.response(5, timeout=30)  # answered, though never read
        assert refused["error"]["code"] == -32600
        assert "exceed the limit" in refused["error"]["message"]
        assert _symbols(client, 6) == ["a"]
        assert peak_rss_kib(client.process.pid) <= PEAK_RSS_KIB
    finally:
        client.close()


def test_a_300_mib_header_line_is_skipped_while_it_streams():
    client = RawClient()
    try:
        client.initialize()
        _open(client, "let b = 1\n")
        _write(client, b"X-Padding: ")
        for _ in range(HUGE_MIB):
            _write(client, CHUNK)
        _write(client, b"\r\nContent-Length: 2\r\n\r\n{}")  # refused with its header
        assert _symbols(client, 6) == ["b"]
        assert peak_rss_kib(client.process.pid) <= PEAK_RSS_KIB
    finally:
        client.close()


def test_missing_negative_and_non_numeric_lengths_are_survived():
    client = RawClient()
    try:
        client.initialize()
        _open(client, "let c = 1\n")
        hover = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}).encode()
        for header in (b"", b"Content-Length: -4\r\n", b"Content-Length: many\r\n"):
            _write(client, header + b"Content-Type: x\r\n\r\n" + hover)
        assert _symbols(client, 7) == ["c"]
    finally:
        client.close()


def test_a_burst_of_changes_and_completions_is_answered_in_full():
    client = RawClient()
    try:
        client.initialize()
        _open(client, "")
        burst = []
        for index in range(50):
            line = f"let v{index} = {index}\n"
            change = {
                "range": {
                    "start": {"line": index, "character": 0},
                    "end": {"line": index, "character": 0},
                },
                "text": line + "v",
            }
            if index:  # replace the `v` typed last time
                change["range"]["start"]["line"] = index
                change["range"]["end"] = {"line": index, "character": 1}
            document = {"uri": URI, "version": index + 2}
            burst.append(
                _notification(
                    "textDocument/didChange", {"textDocument": document, "contentChanges": [change]}
                )
            )
            position = {"line": index + 1, "character": 1}
            burst.append(
                _request(
                    100 + index,
                    "textDocument/completion",
                    {"textDocument": {"uri": URI}, "position": position},
                )
            )
        _write(client, b"".join(burst))
        answers = {index: client.response(100 + index, timeout=30) for index in range(50)}
        for answer in answers.values():
            assert "result" in answer or answer["error"]["code"] == -32801
        last = answers[49]["result"]
        labels = {item["label"] for item in last["items"]}
        assert {f"v{index}" for index in range(50)} <= labels
    finally:
        client.close()


def test_a_waiting_cancellation_answers_request_cancelled():
    client = RawClient()
    try:
        client.initialize()
        _open(client, "let d = 1\n")
        params = {"textDocument": {"uri": URI}}
        _write(
            client,
            _request(40, "textDocument/documentSymbol", params)
            + _request(41, "textDocument/documentSymbol", params)
            + _notification("$/cancelRequest", {"id": 41}),
        )
        assert [s["name"] for s in client.response(40)["result"]] == ["d"]
        assert client.response(41)["error"]["code"] == -32800
        assert _symbols(client, 42) == ["d"]  # and the server goes on
    finally:
        client.close()


def test_catalog_news_left_for_the_loop_is_sent_before_a_waiting_exit():
    """The news of a discarded catalog is sent from a `call_soon` callback;
    with the shutdown and exit that follow already read, the loop still
    takes its pass before handling them."""
    client = RawClient()
    try:
        client.initialize()
        bad_catalog = {"octoscript": {"moduleCatalog": [{"path": "app.weather"}]}}
        _write(
            client,
            _notification("workspace/didChangeConfiguration", {"settings": bad_catalog})
            + _request(1, "shutdown", {})
            + _notification("exit", {}),
        )
        sent = [client.messages.get(timeout=30)]
        while sent[-1].get("id") != 1:  # up to the shutdown's answer
            sent.append(client.messages.get(timeout=30))
        assert client.process.wait(timeout=30) == 0
        shown = [message for message in sent if message.get("method") == "window/showMessage"]
        assert len(shown) == 1
        assert "moduleCatalog from settings discarded" in shown[0]["params"]["message"]
    finally:
        client.close()
