"""The typing benchmarks' shared steps: the session they open and the keystroke they type.

`profile_requests.py` (in process) and `bench_semantic_delta.py` (over
stdio) type what `lsptyping.py` types: the generated document opened with
the shared catalog, then one digit replaced in the middle of it per
keystroke. `insertion` is the other kind of keystroke, the one typing
mostly is: a digit typed there, then deleted again, so every later offset
moves.
"""

from __future__ import annotations

import sys
from pathlib import Path

CONFORMANCE = Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"
sys.path.insert(0, str(CONFORMANCE))

from lspbench import CATALOG  # noqa: E402
from lspcase import offset_to_position  # noqa: E402

URI = "file:///bench/typing.octoscript"

INITIALIZE_PARAMS = {
    "processId": None,
    "rootUri": None,
    "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
    "initializationOptions": CATALOG,
}


def open_params(text: str) -> dict:
    """`textDocument/didOpen` of `text` as version 1."""
    return {"textDocument": {"uri": URI, "languageId": "octoscript", "version": 1, "text": text}}


def edit_offset(text: str) -> int:
    """Where the keystrokes go: a digit in the middle step of the generated document."""
    middle = text.count("\nfn step") // 2
    needle = f"    let total{middle} = math.max(left, right) + "
    return text.index(needle) + len(needle)


def keystroke(text: str, at: int, version: int) -> tuple[dict, str]:
    """The didChange params replacing the character at `at` by a digit, and the new text."""
    digit = str(version % 10)
    start = offset_to_position(text, at)
    end = offset_to_position(text, at + 1)
    change = {"range": {"start": start, "end": end}, "text": digit}
    params = {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}
    return params, text[:at] + digit + text[at + 1 :]


def insertion(text: str, at: int, version: int) -> tuple[dict, str]:
    """The didChange params typing a digit at `at` (even versions: a session
    opens at version 1, so its first keystroke types) or deleting the one
    typed there (odd versions), and the new text."""
    start = offset_to_position(text, at)
    if version % 2 == 0:
        digit = str(version % 10)
        change = {"range": {"start": start, "end": start}, "text": digit}
        changed = text[:at] + digit + text[at:]
    else:
        end = offset_to_position(text, at + 1)
        change = {"range": {"start": start, "end": end}, "text": ""}
        changed = text[:at] + text[at + 1 :]
    params = {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}
    return params, changed
