"""Per-request CPU after a keystroke, in process, through the real server.

Drives the server object's own message handling (the same pygls dispatch,
handlers, features and JSON writing as over stdio, minus the pipe) with the
requests `lsptyping.py` sends: one ranged didChange replacing a digit in the
middle of the generated document, then one request. Prints the CPU
milliseconds per keystroke+request of each kind; `--profile KIND` prints the
cProfile of that kind instead.

`--crlf` gives the document CRLF line ends (an editor on Windows).
`--insert` types a digit and deletes it again, keystroke by keystroke,
instead of replacing one: the keystroke that moves every later offset.

`--cold` prints, per kind, the first answer after a fresh open and one
keystroke (the views it reads built whole) beside the next one (built from
the version before). `lsptyping.py` asks each kind 40 times without a
warm-up, so its per-request figure carries a fortieth of the first answer.

    python benchmarks/profile_requests.py [--lines 2500] [--repeat 40] [--profile hover]
        [--crlf] [--insert]
    python benchmarks/profile_requests.py --cold [--lines 4090]

(`--lines 4090` is the largest generated document under the token budget.)
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lspbench import generate  # noqa: E402
from lspcase import offset_to_position  # noqa: E402
from typing_steps import (  # noqa: E402
    INITIALIZE_PARAMS,
    URI,
    edit_offset,
    insertion,
    keystroke,
    open_params,
)

from octoscript_lsp.server import server  # noqa: E402

RESULT_ID = re.compile(rb'"resultId":"([^"]*)"')


class NullWriter:
    def __init__(self) -> None:
        self.sent = 0
        self.result_id = ""  # of the last semantic-tokens answer

    def write(self, data: bytes) -> None:
        self.sent += len(data)
        found = RESULT_ID.search(data, 0, 200)
        if found is not None:
            self.result_id = found.group(1).decode()


class Session:
    def __init__(self, lines: int, line_end: str = "\n", insert: bool = False) -> None:
        self.text = generate(lines).replace("\n", line_end)
        self.edit = insertion if insert else keystroke
        self.next_id = 0
        self.writer = NullWriter()
        server.protocol.set_writer(self.writer)
        self.send("initialize", INITIALIZE_PARAMS)
        self.send("initialized", {}, notify=True)
        self.send("textDocument/didOpen", open_params(self.text), notify=True)
        self.edit_at = edit_offset(self.text)
        self.version = 1

    def send(self, method: str, params: dict, notify: bool = False) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message)
        server.protocol.handle_message(
            json.loads(body, object_hook=server.protocol.structure_message)
        )

    def reopen(self) -> None:
        """Close the document and open it afresh: no view of it is built."""
        self.send("textDocument/didClose", {"textDocument": {"uri": URI}}, notify=True)
        self.send("textDocument/didOpen", open_params(self.text), notify=True)
        self.edit_at = edit_offset(self.text)

    def keystroke(self) -> None:
        self.version += 1
        params, self.text = self.edit(self.text, self.edit_at, self.version)
        self.send("textDocument/didChange", params, notify=True)

    def at(self, needle: str, delta: int) -> dict:
        return offset_to_position(self.text, self.text.rindex(needle) + delta)


def requests(session: Session) -> dict:
    doc = {"uri": URI}

    def positioned(method: str, needle: str, delta: int, **extra) -> tuple:
        """A request at `delta` past the last `needle`, found again after each keystroke."""
        return method, lambda: {
            "textDocument": doc,
            "position": session.at(needle, delta),
            **extra,
        }

    return {
        "completion.identifier": positioned("textDocument/completion", "value0 + value", 9),
        "completion.member": positioned(
            "textDocument/completion", "result.summary.temperature", 15
        ),
        "completion.toolName": positioned("textDocument/completion", "svc.tool", 4),
        # A key position in a module call's input record (`input_records`).
        "completion.inputKey": positioned("textDocument/completion", "api.current({location", 13),
        "hover": positioned("textDocument/hover", "value0 + value", 1),
        "definition": positioned("textDocument/definition", "value0 + value", 1),
        "references": positioned(
            "textDocument/references", "let last", 5, context={"includeDeclaration": True}
        ),
        "signatureHelp": positioned("textDocument/signatureHelp", "api.current(", 12),
        "documentSymbol": ("textDocument/documentSymbol", lambda: {"textDocument": doc}),
        "formatting": (
            "textDocument/formatting",
            lambda: {"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": True}},
        ),
        "semanticTokens": ("textDocument/semanticTokens/full", lambda: {"textDocument": doc}),
        # Each delta names the last answer, as an editor offered deltas does.
        "semanticTokens.delta": (
            "textDocument/semanticTokens/full/delta",
            lambda: {"textDocument": doc, "previousResultId": session.writer.result_id},
        ),
        "keystroke": (None, None),
    }


def run_kind(session: Session, method: str | None, params, repeat: int) -> float:
    before = time.process_time()
    for _ in range(repeat):
        session.keystroke()
        if method is not None:
            session.send(method, params())
    return (time.process_time() - before) * 1000 / repeat


def first_and_next(
    session: Session, method: str | None, params, rounds: int = 3
) -> tuple[float, float]:
    """CPU ms of keystroke+request, the median over `rounds` fresh opens: the
    first after the open, then the next."""
    first, following = [], []
    for _ in range(rounds):
        session.reopen()
        first.append(run_kind(session, method, params, 1))
        following.append(run_kind(session, method, params, 1))
    return statistics.median(first), statistics.median(following)


def print_profile(run, lines: int = 45) -> None:
    """Run `run()` under cProfile and print the costliest calls by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(lines)
    print(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=2500)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--crlf", action="store_true", help="CRLF line ends")
    parser.add_argument("--cold", action="store_true", help="first answer after open, and next")
    parser.add_argument("--insert", action="store_true", help="type and delete a digit")
    args = parser.parse_args()
    session = Session(args.lines, "\r\n" if args.crlf else "\n", args.insert)
    kinds = requests(session)
    if args.cold:
        for name, (method, params) in kinds.items():
            first, following = first_and_next(session, method, params)
            print(f"{name:24} first {first:7.2f} ms   next {following:6.2f} ms")
        return 0
    for name, (method, params) in kinds.items():
        if args.profile and name != args.profile:
            continue
        run_kind(session, method, params, 3)  # warm up
        if args.profile:
            print_profile(lambda m=method, p=params: run_kind(session, m, p, args.repeat))
        else:
            print(f"{name:24} {run_kind(session, method, params, args.repeat):7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
