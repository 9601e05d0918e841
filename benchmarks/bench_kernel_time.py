"""User CPU, kernel CPU and minor page faults of the real server per keystroke+request.

`lsptyping.py`'s `cpu_ms` adds user and kernel time; this splits them for
the server process (all its threads, those that ended included) and counts
the minor page faults, which do not depend on how fast the machine is at
the moment. Each kind runs as
lsptyping does it (one ranged didChange, then the request at once) on the
generated document, after three warm-up pairs, so the first answer's
one-off work is left out. `keystroke` waits for the diagnostics instead.

    python benchmarks/bench_kernel_time.py [--lines 4090] [--pairs 150]
        [--server octoscript-lsp] [--kinds documentSymbol semanticTokens hover keystroke]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import CATALOG, generate  # noqa: E402
from lspcase import Client, offset_to_position  # noqa: E402

URI = "file:///bench/kernel-time.octoscript"
TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def process_counters(pid: int) -> tuple[int, int, int]:
    """(user ticks, kernel ticks, minor faults) so far of the whole process:
    `/proc/PID/stat` keeps the counts of threads that have ended, which a
    sum over `/proc/PID/task/*` would lose (threads come and go in a run)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12]), int(fields[7])


class Typing:
    """One server session typing a digit in the middle function, as lsptyping does."""

    def __init__(self, server: str, lines: int) -> None:
        self.text = generate(lines)
        self.client = Client(server)
        capabilities = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
        self.client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": None,
                "capabilities": capabilities,
                "initializationOptions": CATALOG,
            },
        )
        self.client.notify("initialized", {})
        document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": self.text}
        self.client.notify("textDocument/didOpen", {"textDocument": document})
        self.client.wait_diagnostics(URI, 1, timeout=120)
        middle = self.text.count("\nfn step") // 2
        needle = f"    let total{middle} = math.max(left, right) + "
        self.edit_at = self.text.index(needle) + len(needle)
        self.version = 1

    def keystroke(self) -> None:
        self.version += 1
        digit = str(self.version % 10)
        change = {
            "range": {
                "start": offset_to_position(self.text, self.edit_at),
                "end": offset_to_position(self.text, self.edit_at + 1),
            },
            "text": digit,
        }
        self.client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": URI, "version": self.version}, "contentChanges": [change]},
        )
        self.text = self.text[: self.edit_at] + digit + self.text[self.edit_at + 1 :]

    def pair(self, kind: str) -> None:
        self.keystroke()
        if kind == "keystroke":
            self.client.wait_diagnostics(URI, self.version, timeout=10)
            return
        method, params = self.request(kind)
        self.client.request(method, params, timeout=10)

    def request(self, kind: str) -> tuple[str, dict]:
        document = {"uri": URI}
        if kind == "hover":
            at = self.text.rindex("value0 + value") + 1
            position = offset_to_position(self.text, at)
            return "textDocument/hover", {"textDocument": document, "position": position}
        if kind == "semanticTokens":
            return "textDocument/semanticTokens/full", {"textDocument": document}
        return "textDocument/documentSymbol", {"textDocument": document}


def measure(server: str, lines: int, kind: str, pairs: int) -> str:
    typing = Typing(server, lines)
    try:
        for _ in range(3):
            typing.pair(kind)
        time.sleep(0.4)  # let the advice pass settle
        pid = typing.client.proc.pid
        before = process_counters(pid)
        for _ in range(pairs):
            typing.pair(kind)
        after = process_counters(pid)
    finally:
        typing.client.close()
    user, kernel, faults = (now - then for now, then in zip(after, before, strict=True))
    return (
        f"{kind:16} user {user * TICK_MS / pairs:5.2f} ms   kernel {kernel * TICK_MS / pairs:5.2f}"
        f" ms   minor faults {faults / pairs:7.1f}   per keystroke+request"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=4090)
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--server", default="octoscript-lsp")
    parser.add_argument(
        "--kinds", nargs="+", default=["documentSymbol", "semanticTokens", "hover", "keystroke"]
    )
    options = parser.parse_args()
    for kind in options.kinds:
        print(measure(options.server, options.lines, kind, options.pairs), flush=True)


if __name__ == "__main__":
    main()
