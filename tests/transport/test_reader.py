"""Framing with bounds: what the reader hands the server's loop."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading

from octoscript_lsp.transport import (
    REFUSED_METHOD,
    TOO_DEEP,
    MessageReader,
    shallow_copy_text,
    summarize,
    top_level_id,
)


def frame(body: bytes, header: bytes | None = None) -> bytes:
    header = b"Content-Length: %d\r\n" % len(body) if header is None else header
    return header + b"\r\n" + body


def body(message_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": message_id, "method": "shutdown"}).encode()


def delivered(stream: bytes, max_message_bytes: int = 1024) -> list[bytes]:
    """Every body the server's loop would read from `stream`."""
    reader = MessageReader(io.BytesIO(stream), max_message_bytes).start()

    async def read_all() -> list[bytes]:
        bodies = []
        while (content := await reader.next_body()) is not None:
            bodies.append(content)
        assert await reader.next_body() is None  # the end of input stays the end
        return bodies

    return asyncio.run(read_all())


def test_well_formed_messages_pass_unchanged():
    stream = frame(body(1)) + b"Content-Type: application/vscode-jsonrpc\r\n" + frame(body(2))
    assert delivered(stream) == [body(1), body(2)]


def test_an_oversized_message_is_discarded_and_the_next_one_read(caplog):
    huge = b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"x" * 5000 + b'"}'
    with caplog.at_level(logging.WARNING):
        assert delivered(frame(huge) + frame(body(2))) == [body(2)]
    assert ["exceed the limit" in record.getMessage() for record in caplog.records] == [True]


def test_an_oversized_request_with_its_id_up_front_is_answered():
    huge = b'{"jsonrpc": "2.0", "id": 9, "method": "x", "params": "' + b"x" * 5000 + b'"}'
    refusal, after = delivered(frame(huge) + frame(body(2)))
    message = json.loads(refusal)
    assert (message["id"], message["method"]) == (9, REFUSED_METHOD)
    assert f"{len(huge)} bytes exceed the limit of 1024" in message["params"]["reason"]
    assert after == body(2)


def test_only_a_top_level_id_in_the_opening_counts():
    assert top_level_id(b'{"jsonrpc": "2.0", "id": 5, "params": "xx') == 5
    assert top_level_id(b'{"params": {"id": 3}, "id": "a\\"b"') == 'a"b'
    assert top_level_id(b'{"method": "\\"id\\": 4", "params": [1') is None
    assert top_level_id(b'{"params": {"id": 3}, "meth') is None
    assert top_level_id(b'[{"id": 1}]') is None


def test_an_unreadable_id_in_a_refused_message_does_not_stop_the_reader():
    # Each of these ids once raised in the reader thread, which then ended
    # the input: the server stopped reading every later message.
    for raw_id in (b'"\\x"', b'"a\nb"', b'"\\u12"'):
        huge = b'{"jsonrpc": "2.0", "id": ' + raw_id + b', "params": "' + b"x" * 5000 + b'"}'
        assert top_level_id(huge[:100]) is None, raw_id
        assert delivered(frame(huge) + frame(body(2))) == [body(2)], raw_id


def test_unusable_lengths_skip_to_the_next_message():
    for header in (
        b"Content-Length: -5\r\n",
        b"Content-Length: five\r\n",
        b"Content-Length: 0\r\n",
        b"Content-Length: 99999999999999999999999999\r\n",
        b"Content-Type: x\r\n",  # no length at all
    ):
        stream = frame(body(1), header) + frame(body(2))
        assert delivered(stream) == [body(2)], header


def test_a_body_without_a_line_break_does_not_hide_the_next_header():
    stream = b"Content-Length: x\r\n\r\n" + body(1) + frame(body(2)) + frame(body(3))
    assert delivered(stream) == [body(2), body(3)]


def test_an_overlong_header_line_is_skipped_without_keeping_it():
    long_header = b"X-Padding: " + b"p" * 100_000 + b"\r\n"
    stream = long_header + frame(body(1)) + frame(body(2))
    refusal, after = delivered(stream)  # the message it belonged to is refused whole
    assert json.loads(refusal)["id"] == 1
    assert "a header line is too long" in json.loads(refusal)["params"]["reason"]
    assert after == body(2)


def test_the_end_of_input_inside_a_message_ends_the_stream():
    assert delivered(frame(body(1)) + b"Content-Length: 50\r\n\r\n{") == [body(1)]
    assert delivered(b"Content-Len") == []


def test_waiting_changes_and_cancellations_are_recognised():
    change = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": "file:///a", "version": 3}, "contentChanges": []},
    }
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 7}}
    assert summarize(json.dumps(change).encode()).changed_uri == "file:///a"
    assert summarize(json.dumps(cancel).encode()).cancelled_id == 7
    request = {"jsonrpc": "2.0", "id": 1, "method": "textDocument/didChange", "params": {}}
    assert summarize(json.dumps(request).encode()).changed_uri is None
    assert summarize(b"$/cancelRequest {not json").cancelled_id is None


def test_shallow_copy_cuts_only_values_nested_too_deeply():
    cut = json.dumps(TOO_DEEP)
    assert shallow_copy_text('{"a": [[1], {"b": [2]}], "c": 3}', 2) == (
        f'{{"a": [{cut}, {cut}], "c": 3}}'
    )
    # Brackets and escaped quotes inside strings do not count.
    text = '{"s": "[[[\\"{{", "t": [["x"]]}'
    assert shallow_copy_text(text, 2) == f'{{"s": "[[[\\"{{{{", "t": [{cut}]}}'
    assert json.loads(shallow_copy_text(text, 2))["s"] == '[[["{{'
    assert shallow_copy_text(text, 3) == text


def test_a_body_read_already_comes_back_in_the_loop_without_a_thread():
    """The loop waits for the reader thread only when nothing is queued."""
    reader = MessageReader(io.BytesIO(frame(body(1)) + frame(body(2)))).start()

    async def read_two() -> tuple[list[bytes], set[int]]:
        threads = set()
        seen = []
        for _ in range(2):
            seen.append(await reader.next_body())
            threads.add(threading.get_ident())
        return seen, threads

    seen, threads = asyncio.run(read_two())
    assert seen == [body(1), body(2)]
    assert threads == {threading.get_ident()}
    assert threading.active_count() <= 2  # this one and at most the reader's


def test_the_loop_takes_a_pass_between_two_messages_already_read():
    """What a handler leaves for the loop (`call_soon`: catalog news, a
    diagnostics refresh) runs before the next message is handled, even when
    that message was framed long ago: otherwise it would wait until the
    client stops sending, and never run when `exit` comes next."""
    reader = MessageReader(io.BytesIO(frame(body(1)) + frame(body(2)) + frame(body(3)))).start()

    async def handle_all() -> list[str]:
        loop = asyncio.get_running_loop()
        events: list[str] = []
        while (content := await reader.next_body()) is not None:
            message_id = json.loads(content)["id"]
            events.append(f"handled {message_id}")
            loop.call_soon(events.append, f"left by {message_id}")
        return events

    # The three messages are framed in one pass of the reader thread.
    reader._thread.join(timeout=5)
    assert asyncio.run(handle_all()) == [
        "handled 1",
        "left by 1",
        "handled 2",
        "left by 2",
        "handled 3",
        "left by 3",
    ]
