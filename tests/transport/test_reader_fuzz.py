"""Random byte streams through the framing reader: it ends, and keeps good frames."""

from __future__ import annotations

import json
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from octoscript_lsp.transport import REFUSED_METHOD, shallow_copy_text, summarize, top_level_id
from tests.transport.test_reader import delivered

LIMIT = 256
HEADER_NAMES = [b"Content-Length", b"content-length", b"CONTENT-LENGTH", b" Content-Length "]
EXTRA_HEADERS = [b"", b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n", b"X: y\r\n"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@st.composite
def frames(draw) -> tuple[bytes, bytes]:
    """(framed bytes, body) of one well-formed message, any header spelling."""
    message = {"jsonrpc": "2.0", "id": draw(st.integers(0, 99)), "method": "m"}
    message["params"] = draw(JSON_VALUES)
    body = json.dumps(message).encode()
    name = draw(st.sampled_from(HEADER_NAMES))
    extra = draw(st.sampled_from(EXTRA_HEADERS))
    header = extra + name + b": %d\r\n" % len(body)
    if draw(st.booleans()):
        header = header + extra
    return header + b"\r\n" + body, body


def _within(seconds: float, stream: bytes) -> list[bytes]:
    result: list = []
    worker = threading.Thread(target=lambda: result.append(delivered(stream, LIMIT)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the reader did not reach the end of input"
    return result[0]


@settings(max_examples=150, deadline=None)
@given(st.lists(frames(), max_size=6))
def test_well_formed_frames_arrive_or_are_refused_in_order(items):
    stream = b"".join(framed for framed, _ in items)
    expected = []
    for _, body in items:
        if len(body) <= LIMIT:
            expected.append(body)
        else:
            expected.append(("refused", json.loads(body)["id"]))
    got = [
        ("refused", json.loads(body)["id"])
        if json.loads(body).get("method") == REFUSED_METHOD
        else body
        for body in _within(10, stream)
    ]
    assert got == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=40) | frames().map(lambda item: item[0]), max_size=8))
def test_garbage_between_frames_never_hangs_or_raises(pieces):
    for body in _within(10, b"".join(pieces)):
        summarize(body)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_opening_scans_never_raise(head):
    top_level_id(head)
    summarize(head)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_shallow_copy_of_a_shallow_message_is_the_same_value(value):
    text = json.dumps(value)
    assert json.loads(shallow_copy_text(text)) == value
