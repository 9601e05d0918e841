"""Start-up of the real server over stdio: initialize, first didOpen, memory.

Starts `octoscript-lsp` (or --server CMD) N times and, as `lsptyping.py`
does, sends `initialize` (with the benchmark catalogs as initialization
options) and opens the generated document. Per run it records:

- `initialize`: wall ms from starting the process to the answer, and the
  server's CPU ms by then (user+system, from /proc);
- `didOpen`: wall ms from didOpen to the first publishDiagnostics, and the
  server's CPU ms for it;
- peak RSS (VmHWM) right after initialize, after the first diagnostics and
  after the delayed catalog-advice pass (0.5 s later).

Prints medians (and minimum and maximum) and writes them to
benchmarks/results/startup.json with --write.

An installed package has its bytecode compiled by pip. An editable checkout
run with PYTHONDONTWRITEBYTECODE=1 (as on the shared machine) has none, and
compiles every module of the server from source at each start (~100 ms
more); --compile byte-compiles the package first, as pip does.

    python benchmarks/bench_startup.py [--runs 10] [--lines 2500] [--server CMD]
                                       [--compile] [--write]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT.parent / "shared" / "conformance"
RESULTS = ROOT / "benchmarks" / "results" / "startup.json"
sys.path.insert(0, str(CONFORMANCE))

from lspbench import CATALOG, generate  # noqa: E402
from lspcase import Client  # noqa: E402

URI = "file:///bench/startup.octoscript"
# The catalog-advice pass runs 0.3 s after the last change; wait past it.
ADVICE_SETTLE_SECONDS = 0.5
CAPABILITIES = {
    "workspace": {"workspaceEdit": {"documentChanges": True}},
    "textDocument": {"publishDiagnostics": {"versionSupport": True}},
}


def proc_status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return -1


def proc_cpu_ms(pid: int) -> float:
    """User+system CPU of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def one_run(server: str, text: str) -> dict:
    started = time.perf_counter()
    client = Client(server)
    pid = client.proc.pid
    try:
        params = {
            "processId": None,
            "rootUri": None,
            "capabilities": CAPABILITIES,
            "initializationOptions": CATALOG,
        }
        client.request("initialize", params)
        initialize_ms = (time.perf_counter() - started) * 1000
        initialize_cpu = proc_cpu_ms(pid)
        initialize_peak = proc_status_kib(pid, "VmHWM")
        client.notify("initialized", {})
        opened = time.perf_counter()
        document = {"uri": URI, "languageId": "octoscript", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": document})
        client.wait_diagnostics(URI, 1, timeout=60)
        did_open_ms = (time.perf_counter() - opened) * 1000
        did_open_cpu = proc_cpu_ms(pid) - initialize_cpu
        open_peak = proc_status_kib(pid, "VmHWM")
        time.sleep(ADVICE_SETTLE_SECONDS)
        advice_peak = proc_status_kib(pid, "VmHWM")
    finally:
        client.close()
    return {
        "initialize_wall_ms": initialize_ms,
        "initialize_cpu_ms": initialize_cpu,
        "did_open_wall_ms": did_open_ms,
        "did_open_cpu_ms": did_open_cpu,
        "peak_rss_after_initialize_mib": initialize_peak / 1024,
        "peak_rss_after_did_open_mib": open_peak / 1024,
        "peak_rss_after_advice_mib": advice_peak / 1024,
    }


def summarize(runs: list[dict]) -> dict:
    summary = {}
    for key in runs[0]:
        values = [run[key] for run in runs]
        summary[key] = {
            "median": round(statistics.median(values), 1),
            "min": round(min(values), 1),
            "max": round(max(values), 1),
        }
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server", default="octoscript-lsp")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--lines", type=int, default=2500)
    parser.add_argument("--compile", action="store_true", help="byte-compile the package first")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args(argv)
    if args.compile:
        compileall.compile_dir(ROOT / "octoscript_lsp", quiet=1)
    text = generate(args.lines)
    runs = [one_run(args.server, text) for _ in range(args.runs)]
    summary = summarize(runs)
    for key, row in summary.items():
        print(
            f"{key:32} median {row['median']:7.1f}   min {row['min']:7.1f}   max {row['max']:7.1f}"
        )
    if args.write:
        report = {
            "server": args.server,
            "lines": args.lines,
            "runs": args.runs,
            "bytecode_compiled": args.compile,
            **summary,
        }
        RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
