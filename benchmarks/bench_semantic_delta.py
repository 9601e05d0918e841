"""Semantic tokens after a keystroke, full and delta, through the real server.

`lsptyping.py` asks `semanticTokens/full` only; an editor that is offered
`full/delta` (VS Code) asks for deltas. This starts the server over stdio
as `lsptyping.py` does (same generated document, same keystroke: one digit
replaced in the middle), and for each kind sends one keystroke and one
request, `--repeat` times: `full` (a full answer every time) and `delta`
(each naming the last answer's resultId, as an editor does). Prints the
server's CPU per keystroke+request (from /proc, as `lsptyping.py` counts it),
median and p95 wall time, and the answer's size; writes
benchmarks/results/semantic_delta.json.

    python benchmarks/bench_semantic_delta.py [--lines 2500 4090] [--repeat 40]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT.parent / "shared" / "conformance"
RESULTS = ROOT / "benchmarks" / "results" / "semantic_delta.json"
sys.path.insert(0, str(CONFORMANCE))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lspbench import generate  # noqa: E402
from lspcase import Client  # noqa: E402
from typing_steps import INITIALIZE_PARAMS, URI, edit_offset, keystroke, open_params  # noqa: E402


def cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


class Typing:
    """One server with the generated document open, typing one digit at a time."""

    def __init__(self, server: str, lines: int) -> None:
        self.text = generate(lines)
        self.client = Client(server)
        self.client.request("initialize", INITIALIZE_PARAMS)
        self.client.notify("initialized", {})
        self.client.notify("textDocument/didOpen", open_params(self.text))
        self.client.wait_diagnostics(URI, 1, timeout=120)
        self.edit_at = edit_offset(self.text)
        self.version = 1

    def keystroke(self) -> None:
        self.version += 1
        params, self.text = keystroke(self.text, self.edit_at, self.version)
        self.client.notify("textDocument/didChange", params)

    def measure(self, kind: str, repeat: int) -> dict:
        document = {"uri": URI}
        answer = self.client.request("textDocument/semanticTokens/full", {"textDocument": document})
        result_id = answer["resultId"]
        time.sleep(0.4)  # let debounced work (catalog advice) settle
        walls: list[float] = []
        sizes: list[int] = []
        before = cpu_ms(self.client.proc.pid)
        for _ in range(repeat):
            started = time.perf_counter()
            self.keystroke()
            if kind == "full":
                answer = self.client.request(
                    "textDocument/semanticTokens/full", {"textDocument": document}
                )
            else:
                answer = self.client.request(
                    "textDocument/semanticTokens/full/delta",
                    {"textDocument": document, "previousResultId": result_id},
                )
                if "edits" not in answer:
                    raise SystemExit(f"a full answer to a delta request: {sorted(answer)}")
            walls.append((time.perf_counter() - started) * 1000)
            sizes.append(len(json.dumps(answer)))
            result_id = answer["resultId"]
        cpu = (cpu_ms(self.client.proc.pid) - before) / repeat
        ordered = sorted(walls)
        return {
            "cpu_ms": round(cpu, 2),
            "median_ms": round(statistics.median(walls), 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 2),
            "answer_bytes": round(statistics.median(sizes)),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, nargs="*", default=[2500, 4090])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--server", default="octoscript-lsp")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    report: dict = {}
    for lines in args.lines:
        typing = Typing(args.server, lines)
        try:
            report[str(lines)] = {
                kind: typing.measure(kind, args.repeat) for kind in ("full", "delta")
            }
        finally:
            typing.client.close()
        for kind, row in report[str(lines)].items():
            print(f"{lines:5} lines  semanticTokens {kind:5}  {row}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
