"""The server's input: framing with bounds, read-ahead, and deeply nested bodies.

pygls' own reader trusts `Content-Length`: it reads a whole body of any size
into memory before anything can bound it, reads header lines of any length,
and loses its place in the stream after a missing or unreadable length.
`MessageReader` does the framing itself in a thread of its own and hands the
server's loop only well-formed bodies (`next_body`):

- a message whose `Content-Length` exceeds `MAX_MESSAGE_BYTES` is discarded
  while it streams (read in small chunks and dropped, never buffered) and
  logged; when its first `ID_SCAN_BYTES` name a request id, that request is
  answered InvalidRequest; the next message is read normally;
- a header line longer than `MAX_HEADER_LINE_BYTES`, more than
  `MAX_HEADER_LINES` header lines, or a missing, negative, non-numeric or
  zero `Content-Length` refuses the message; when its length is unknown the
  reader skips to the next `Content-Length:` header;
- messages read ahead wait in a bounded queue (`MAX_QUEUED_INPUT_BYTES`);
  the protocol looks at them to answer requests for a document version that
  a waiting didChange supersedes (ContentModified) and requests a waiting
  `$/cancelRequest` names (RequestCancelled) without computing them.

A body nested a few hundred levels deep makes `json.loads` raise
`RecursionError`; `shallow_copy_text` rewrites it with every value nested
deeper than `MAX_MESSAGE_NESTING` replaced by a string, so the message can
still be handled: a catalog in it is then discarded for its wrong type, a
request gets its answer.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from .limits import (
    ID_SCAN_BYTES,
    MAX_CONTENT_LENGTH_DIGITS,
    MAX_HEADER_LINE_BYTES,
    MAX_HEADER_LINES,
    MAX_MESSAGE_BYTES,
    MAX_MESSAGE_NESTING,
    MAX_QUEUED_INPUT_BYTES,
    MAX_QUOTED_HEADER_CHARS,
    READ_CHUNK_BYTES,
)

TOO_DEEP = "<nested too deeply>"
CONTENT_LENGTH = b"content-length"
# Where to pick up again after a message whose length is unknown.
RESYNC_MARKER = b"Content-Length:"
# The method under which the reader hands pygls a refused message's request
# id (found in its first ID_SCAN_BYTES), so that request is answered.
REFUSED_METHOD = "$/octoscript/refusedMessage"

logger = logging.getLogger(__name__)


def _chunk_reader(stream: BinaryIO) -> Callable[[int], bytes]:
    """Reads of at most n bytes, returning what is available.

    A real file is read with `os.read` on its descriptor: a thread blocked
    in a buffered reader's `read` holds the reader's lock, and the
    interpreter aborts when it finds that lock taken at exit.
    """
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return getattr(stream, "read1", stream.read)
    return functools.partial(os.read, descriptor)


class _Input:
    """A byte stream with a small buffer: lines with a bound, exact reads, skips.

    `before_block` runs before every read that may wait for the client, so
    messages already framed are published before the reader sleeps.
    """

    def __init__(self, stream: BinaryIO, before_block: Callable[[], None]) -> None:
        self._read = _chunk_reader(stream)
        self._before_block = before_block
        self.buffer = bytearray()

    def _fill(self) -> bool:
        self._before_block()
        chunk = self._read(READ_CHUNK_BYTES)
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def readline(self, limit: int) -> tuple[bytes, bool]:
        """(line, complete): a line with its LF, or at most `limit` bytes of it."""
        while True:
            index = self.buffer.find(b"\n", 0, limit)
            if index >= 0:
                return self._take(index + 1), True
            if len(self.buffer) >= limit or not self._fill():
                return self._take(min(limit, len(self.buffer))), False

    def skip_line(self) -> bool:
        """Drop everything up to and including the next LF; False at the end of input."""
        if not self.skip_to(b"\n"):
            return False
        del self.buffer[:1]
        return True

    def read(self, size: int) -> bytearray | None:
        """Exactly `size` bytes, read into one buffer (no copies of a large body)."""
        data = bytearray(size)
        have = min(size, len(self.buffer))
        data[:have] = self.buffer[:have]
        del self.buffer[:have]
        view = memoryview(data)
        while have < size:
            self._before_block()
            chunk = self._read(min(size - have, READ_CHUNK_BYTES))
            if not chunk:
                return None
            view[have : have + len(chunk)] = chunk
            have += len(chunk)
        return data

    def discard(self, size: int) -> bool:
        """Drop `size` bytes as they arrive, holding at most one chunk."""
        while size > 0:
            if not self.buffer and not self._fill():
                return False
            taken = min(size, len(self.buffer))
            del self.buffer[:taken]
            size -= taken
        return True

    def skip_to(self, marker: bytes) -> bool:
        """Drop bytes up to the next `marker`; False at the end of input."""
        while True:
            index = self.buffer.find(marker)
            if index >= 0:
                del self.buffer[:index]
                return True
            del self.buffer[: max(0, len(self.buffer) - len(marker) + 1)]
            if not self._fill():
                return False

    def _take(self, size: int) -> bytes:
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data


@dataclass(frozen=True, slots=True)
class _Header:
    length: int | None
    problem: str | None  # why the message is refused, if it is


@dataclass(frozen=True, slots=True)
class Waiting:
    """A message read ahead: its body and what the protocol may ask about it."""

    body: bytes | bytearray
    changed_uri: str | None = None  # a didChange for this document
    cancelled_id: int | str | None = None  # a $/cancelRequest for this request


_ID_MEMBER = re.compile(r'"id"\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")')


def _outside_strings(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of every character of JSON text outside its strings.

    A string's opening quote is reported (so a caller can look at the string
    that starts there); its contents and closing quote are not, so brackets
    inside strings never count. An unterminated string runs to the end.
    """
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        in_string = char == '"'
        yield index, char


def top_level_id(head: bytes) -> int | str | None:
    """The request id in the opening bytes of a JSON object, if it is there.

    Only a member of the outermost object counts; a string that merely
    contains `"id":` or an `id` key of a nested object does not. An id that
    is not valid JSON (a bad escape, a raw control character) counts as none:
    this runs in the reader thread, which must survive whatever it reads.
    """
    text = head.decode("utf-8", "replace")
    depth = 0
    for index, char in _outside_strings(text):
        if char == '"':
            if depth == 1 and (match := _ID_MEMBER.match(text, index)):
                try:
                    return json.loads(match.group(1))
                except ValueError:
                    return None
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return None


def summarize(body: bytes | bytearray) -> Waiting:
    """The facts about a body that make waiting requests stale."""
    if b"textDocument/didChange" not in body and b"$/cancelRequest" not in body:
        return Waiting(body)
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return Waiting(body)
    if not isinstance(message, dict) or "id" in message:
        return Waiting(body)
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    if message.get("method") == "textDocument/didChange":
        document = params.get("textDocument")
        uri = document.get("uri") if isinstance(document, dict) else None
        return Waiting(body, changed_uri=uri if isinstance(uri, str) else None)
    if message.get("method") == "$/cancelRequest":
        request_id = params.get("id")
        if isinstance(request_id, (int, str)) and not isinstance(request_id, bool):
            return Waiting(body, cancelled_id=request_id)
    return Waiting(body)


class MessageReader:
    """The server's stdin, framed and bounded by a reader thread (see the module doc)."""

    def __init__(self, stream: BinaryIO, max_message_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self.max_message_bytes = max_message_bytes
        self.refused = 0
        self._input = _Input(stream, self._publish)
        self._batch: list[Waiting] = []
        self._queue: deque[Waiting | None] = deque()
        self._queued_bytes = 0
        self._idle = False  # the loop waits for a message and none is queued
        self._wake: asyncio.Future | None = None  # what the loop waits on, when it does
        self._condition = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="octoscript-input", daemon=True)

    def start(self) -> MessageReader:
        self._thread.start()
        return self

    # ------------------------------------------------------------ the loop's side

    async def next_body(self) -> bytes | bytearray | None:
        """The next message's body, None at the end of input.

        No thread hands it over: the reader thread wakes the loop when it
        queues a message the loop waits for (a read through a worker thread
        per message, as pygls does, costs ~0.2 ms more CPU each,
        `benchmarks/bench_reader.py`). The loop takes one pass before the
        body comes back, so what a handler left for it (`call_soon`:
        catalog news, a diagnostics refresh) runs before the next message
        is handled, even when that message was read long ago.
        """
        while True:
            with self._condition:
                if self._queue:
                    waiting = self._queue[0]
                    if waiting is not None:  # the end of input stays the end
                        self._queue.popleft()
                        self._queued_bytes -= len(waiting.body)
                    self._idle = False
                    self._condition.notify_all()
                    break
                self._idle = True
                self._condition.notify_all()
                wake = self._wake = asyncio.get_running_loop().create_future()
            await wake
        await asyncio.sleep(0)
        return None if waiting is None else waiting.body

    # ------------------------------------------------------------ the protocol's side

    def change_waiting(self, uri: str) -> bool:
        """Whether a didChange for `uri` has been read but not handled yet."""
        with self._condition:
            return any(item is not None and item.changed_uri == uri for item in self._queue)

    def cancel_waiting(self, request_id: object) -> bool:
        """Whether a $/cancelRequest for `request_id` has been read but not handled yet."""
        with self._condition:
            return any(item is not None and item.cancelled_id == request_id for item in self._queue)

    # ------------------------------------------------------------ the reader thread

    def _run(self) -> None:
        try:
            while self._next_message():
                pass
        finally:
            self._batch.append(None)
            self._publish()

    def _publish(self) -> None:
        if not self._batch:
            return
        size = sum(len(item.body) for item in self._batch if item is not None)
        with self._condition:
            while self._queue and self._queued_bytes + size > MAX_QUEUED_INPUT_BYTES:
                self._condition.wait()
            self._queue.extend(self._batch)
            self._queued_bytes += size
            self._condition.notify_all()
            wake, self._wake = self._wake, None
        self._batch = []
        if wake is not None:
            try:
                wake.get_loop().call_soon_threadsafe(_wake_up, wake)
            except RuntimeError:  # the loop has ended
                pass

    def _next_message(self) -> bool:
        """Read one message (queue it or refuse it); False at the end of input."""
        header = self._read_header()
        if header is None:
            return False
        length, problem = header.length, header.problem
        if problem is None and length is not None and length > self.max_message_bytes:
            problem = f"{length} bytes exceed the limit of {self.max_message_bytes}"
        if problem is not None:
            self.refused += 1
            logger.warning("refused a message: %s", problem)
            if length is None:
                return self._input.skip_to(RESYNC_MARKER)
            return self._refuse_body(length, problem)
        assert length is not None
        if length > MAX_QUEUED_INPUT_BYTES:
            self._wait_until_idle()  # hold at most one large body at a time
        body = self._input.read(length)
        if body is None:
            return False
        self._batch.append(summarize(body))
        return True

    def _refuse_body(self, length: int, problem: str) -> bool:
        """Discard a body; when its opening names a request id, that request
        is answered (through `REFUSED_METHOD`) instead of left waiting."""
        head = self._input.read(min(length, ID_SCAN_BYTES))
        if head is None or not self._input.discard(length - len(head)):
            return False
        request_id = top_level_id(bytes(head))
        if request_id is not None:
            refusal = {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": REFUSED_METHOD,
                "params": {"reason": f"message refused: {problem}"},
            }
            self._batch.append(Waiting(json.dumps(refusal).encode()))
        return True

    def _wait_until_idle(self) -> None:
        """Publish what is framed, then wait until the loop has handled all of it."""
        self._publish()
        with self._condition:
            while self._queue or not self._idle:
                self._condition.wait()

    def _read_header(self) -> _Header | None:
        """The next header block, or None at the end of input."""
        length: int | None = None
        problem: str | None = None
        lines = 0
        while True:
            line, complete = self._input.readline(MAX_HEADER_LINE_BYTES)
            if not line:
                return None
            if not complete:
                problem = problem or "a header line is too long"
                if not self._input.skip_line():
                    return None
                continue
            if not line.strip():
                if lines == 0 and problem is None:
                    continue  # blank lines between messages
                if length is None or length == 0:
                    return _Header(None, problem or "no usable Content-Length")
                return _Header(length, problem)
            lines += 1
            if lines > MAX_HEADER_LINES:
                problem = problem or "too many header lines"
                continue
            name, _, value = line.partition(b":")
            if name.strip().lower() == CONTENT_LENGTH:
                value = value.strip()
                if length is None and value.isdigit() and len(value) <= MAX_CONTENT_LENGTH_DIGITS:
                    length = int(value)
                else:
                    length = None
                    shown = value[:MAX_QUOTED_HEADER_CHARS]
                    problem = problem or f"unusable Content-Length {shown!r}"


def _wake_up(wake: asyncio.Future) -> None:
    if not wake.done():
        wake.set_result(None)


def shallow_copy_text(text: str, max_depth: int = MAX_MESSAGE_NESTING) -> str:
    """`text` with each array/object opened below `max_depth` levels replaced by TOO_DEEP.

    A single pass with no recursion; strings are copied verbatim (brackets in
    them do not count). The result is valid JSON whenever `text` is.
    """
    out: list[str] = []
    depth = 0
    skip_from = -1  # depth at which the skipped value opened, -1 when copying
    start = 0  # first character not yet copied
    replacement = json.dumps(TOO_DEEP)
    for index, char in _outside_strings(text):
        if char in "[{":
            depth += 1
            if skip_from < 0 and depth > max_depth:
                out.append(text[start:index])
                out.append(replacement)
                skip_from = depth
        elif char in "]}":
            if skip_from == depth:
                skip_from = -1
                start = index + 1
            depth -= 1
    if skip_from < 0:
        out.append(text[start:])
    return "".join(out)
