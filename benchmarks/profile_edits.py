"""Keystroke -> syntax diagnostics CPU for edits that change the text's length.

Drives the real server's message handling (as `profile_requests.py` does)
with ranged didChanges that alternately insert one character and delete it
again (typing, then backspace) at several places of the generated benchmark
document: the first line, just after the first `fn step0`, the middle, and
near the end. A one-digit replacement in the middle is measured too, for
comparison, and a didOpen of the whole document under a new URI (a full lex
and parse; closed again after). Prints the CPU milliseconds per didChange or
didOpen (each parses its version and publishes its syntax diagnostics);
`--profile NAME` prints the cProfile of the kinds whose name contains NAME.
`--requests PLACE` times each request kind of `profile_requests.py` after an
insert/delete keystroke at PLACE instead (its unchanged tail moved by one).

    python benchmarks/profile_edits.py [--lines 2500] [--repeat 40] [--profile first-line]
    python benchmarks/profile_edits.py --requests first-line
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable

# profile_requests puts ../shared/conformance (lspbench, lspcase) on the path.
from profile_requests import URI, Session, offset_to_position, print_profile, requests

# Character typed and deleted again at each place.
TYPED = "q"


def places(text: str) -> dict[str, int]:
    """Offset of each measured edit place in the generated document."""
    middle = text.count("\nfn step") // 2
    needle = f"    let total{middle} = math.max(left, right) + "
    return {
        "first-line": 10,
        "after-step0": text.index("fn step0") + len("fn step0"),
        "middle": text.index(needle) + len(needle),
        "end": len(text) - 20,
    }


def change(session: Session, start: int, end: int, new_text: str) -> None:
    """One ranged didChange replacing text[start:end] by `new_text`."""
    session.version += 1
    text = session.text
    edit = {
        "range": {
            "start": offset_to_position(text, start),
            "end": offset_to_position(text, end),
        },
        "text": new_text,
    }
    params = {"textDocument": {"uri": URI, "version": session.version}, "contentChanges": [edit]}
    session.send("textDocument/didChange", params, notify=True)
    session.text = text[:start] + new_text + text[end:]


def typing_at(session: Session, offset: int) -> Callable[[int], None]:
    """Keystroke `n`: even ones insert TYPED at `offset`, odd ones delete it."""

    def keystroke(n: int) -> None:
        if n % 2 == 0:
            change(session, offset, offset, TYPED)
        else:
            change(session, offset, offset + 1, "")

    return keystroke


def replacing_at(session: Session, offset: int) -> Callable[[int], None]:
    """Keystroke `n`: replace the digit at `offset` (the text keeps its length)."""

    def keystroke(n: int) -> None:
        change(session, offset, offset + 1, str(n % 10))

    return keystroke


def opening(session: Session) -> Callable[[int], None]:
    """Keystroke `n`: open the current text as a second document, then close it.

    Always the same URI: its pending advice pass is replaced each time
    rather than piling up (this loop never runs the event loop that would
    let it expire), which would hold every analysis alive for the collector.
    """

    def keystroke(n: int) -> None:
        uri = f"{URI}.opened"
        document = {"uri": uri, "languageId": "octoscript", "version": 1, "text": session.text}
        session.send("textDocument/didOpen", {"textDocument": document}, notify=True)
        session.send("textDocument/didClose", {"textDocument": {"uri": uri}}, notify=True)

    return keystroke


def with_request(
    session: Session, keystroke: Callable[[int], None], method: str | None, params
) -> Callable[[int], None]:
    """Keystroke `n`, then one request of `method` (None: the keystroke alone)."""

    def both(n: int) -> None:
        keystroke(n)
        if method is not None:
            session.send(method, params())

    return both


def cpu_ms(keystroke: Callable[[int], None], repeat: int) -> float:
    before = time.process_time()
    for n in range(repeat):
        keystroke(n)
    return (time.process_time() - before) * 1000 / repeat


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=2500)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--profile", default=None, help="a place name, or 'replace'")
    parser.add_argument("--requests", default=None, help="a place name (see `places`)")
    args = parser.parse_args()
    repeat = args.repeat + args.repeat % 2  # end on the original text
    session = Session(args.lines)
    gc.freeze()  # as the server's `main` does once started
    where = places(session.text)
    if args.requests:
        typing = typing_at(session, where[args.requests])
        kinds = {
            name: with_request(session, typing, method, params)
            for name, (method, params) in requests(session).items()
        }
    else:
        kinds = {f"insert/delete {name}": typing_at(session, at) for name, at in where.items()}
        kinds["replace middle"] = replacing_at(session, where["middle"])
        kinds["didOpen (full parse)"] = opening(session)
    for name, keystroke in kinds.items():
        if args.profile and args.profile not in name:
            continue
        cpu_ms(keystroke, 4)  # warm up
        if args.profile:
            print_profile(lambda keystroke=keystroke: cpu_ms(keystroke, repeat), 35)
        else:
            print(f"{name:28} {cpu_ms(keystroke, repeat):7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
