"""Reading messages that Python's `json` cannot: nested deeper than its recursion limit.

pygls decodes each body with `json.loads`; a body nested a few hundred
levels deep raises `RecursionError`, and pygls then drops the message, so a
request inside it is never answered and a configuration change is lost.
`StdinRecorder` keeps the last body read; `shallow_copy_text` rewrites it
with every value nested deeper than `MAX_MESSAGE_NESTING` replaced by a
string, so the message can still be handled: a catalog in it is then
discarded for its wrong type, a request gets its answer.
"""

from __future__ import annotations

import json
from typing import BinaryIO

MAX_MESSAGE_NESTING = 128
TOO_DEEP = "<nested too deeply>"


class StdinRecorder:
    """The server's input stream, remembering the last message body read."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self.last_body = b""

    def readline(self, *args) -> bytes:
        return self._stream.readline(*args)

    def read(self, *args) -> bytes:
        data = self._stream.read(*args)
        self.last_body = data
        return data


def shallow_copy_text(text: str, max_depth: int = MAX_MESSAGE_NESTING) -> str:
    """`text` with each array/object opened below `max_depth` levels replaced by TOO_DEEP.

    A single pass with no recursion; strings are copied verbatim (brackets in
    them do not count). The result is valid JSON whenever `text` is.
    """
    out: list[str] = []
    depth = 0
    skip_from = -1  # depth at which the skipped value opened, -1 when copying
    in_string = False
    escaped = False
    start = 0  # first character not yet copied
    replacement = json.dumps(TOO_DEEP)
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
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
