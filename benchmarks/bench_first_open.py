"""A fresh server's first didOpen, in process: CPU and wall to the diagnostics.

Each run starts a new interpreter that imports the server, freezes the
collector's view of the modules (as `serve` does), answers `initialize`
through the server's own message handling, then hands it the didOpen of the
generated document and times it up to the write of the diagnostics (the
metric of `lsptyping.py`'s didOpen -> diagnostics, minus the pipe). The
collector's pass over the parse's objects runs after that write and is not
counted. Prints the median, minimum and maximum over --runs interpreters.

    python benchmarks/bench_first_open.py [--runs 10] [--lines 4090]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import CATALOG, generate  # noqa: E402

URI = "file:///bench/first-open.octoscript"


def first_open(lines: int) -> tuple[float, float]:
    """(CPU ms, wall ms) from the didOpen message to the diagnostics' write."""
    from octoscript_lsp.server import server

    written: list[tuple[float, float]] = []

    class Writer:
        def write(self, data: bytes) -> None:
            if not written and b"publishDiagnostics" in data:
                written.append((time.process_time(), time.perf_counter()))

    def handle(message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message})
        server.protocol.handle_message(
            json.loads(body, object_hook=server.protocol.structure_message)
        )

    server.protocol.set_writer(Writer())
    gc.freeze()
    handle(
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": None,
                "capabilities": {"textDocument": {"publishDiagnostics": {}}},
                "initializationOptions": CATALOG,
            },
        }
    )
    handle({"method": "initialized", "params": {}})
    document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": generate(lines)}
    message = {"method": "textDocument/didOpen", "params": {"textDocument": document}}
    cpu, wall = time.process_time(), time.perf_counter()
    handle(message)
    cpu_written, wall_written = written[0]
    return (cpu_written - cpu) * 1000, (wall_written - wall) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--lines", type=int, default=4090)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.once:
        print(*(f"{value:.2f}" for value in first_open(options.lines)))
        return
    cpu, wall = [], []
    for _ in range(options.runs):
        answer = subprocess.run(
            [
                sys.executable,
                __file__,
                "--once",
                "--lines",
                str(options.lines),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        cpu.append(float(answer[0]))
        wall.append(float(answer[1]))
    for name, values in (("cpu_ms", cpu), ("wall_ms", wall)):
        print(
            f"first didOpen -> diagnostics {name:8} median {statistics.median(values):6.1f}"
            f"   min {min(values):6.1f}   max {max(values):6.1f}"
        )


if __name__ == "__main__":
    main()
