"""Request latency of the real server on large generated documents.

Runs the shared `lspbench.py` (the same measurement the reference's figures
come from) at 400, 2,500 and 8,000 lines and writes median/p95 per request
to benchmarks/results/lsp.json, together with the server's peak RSS.

    python benchmarks/bench_lsp.py [--repeat 30] [--lines 400 2500 8000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LSPBENCH = ROOT.parent / "shared" / "conformance" / "lspbench.py"
RESULTS = ROOT / "benchmarks" / "results" / "lsp.json"
# Report peak memory: the wrapper runs the server and prints VmHWM at exit.
WRAPPER = """
import os, sys, threading, time
from octoscript_lsp import launch

def watch():
    # The client may end the server abruptly; report the peak as it grows.
    last = None
    while True:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM"):
                    peak = line.split()[1]
        if peak != last:
            with open(PEAK_FILE, "w") as out:
                out.write(peak)
            last = peak
        time.sleep(0.2)

threading.Thread(target=watch, daemon=True).start()
launch.main()
"""


def run(lines: int, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        figures = Path(folder) / "figures.json"
        wrapper = Path(folder) / "server.py"
        peak_file = Path(folder) / "peak_kb.txt"
        wrapper.write_text(f"PEAK_FILE = {str(peak_file)!r}\n" + WRAPPER)
        stderr = Path(folder) / "stderr.txt"
        command = [
            sys.executable,
            str(LSPBENCH),
            "--server",
            f"{sys.executable} {wrapper}",
            "--lines",
            str(lines),
            "--repeat",
            str(repeat),
            "--json",
            str(figures),
        ]
        with stderr.open("w") as errors:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=errors)
        result = json.loads(figures.read_text())
        if peak_file.exists():
            result["_peak_rss_mib"] = round(int(peak_file.read_text()) / 1024, 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--lines", type=int, nargs="+", default=[400, 2500, 8000])
    args = parser.parse_args(argv)
    if not LSPBENCH.exists():
        sys.stderr.write(f"lspbench.py not found at {LSPBENCH}\n")
        return 2
    report = {str(lines): run(lines, args.repeat) for lines in args.lines}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    for lines, figures in report.items():
        print(f"--- {lines} lines")
        print(f"peak RSS {figures.get('_peak_rss_mib', '?')} MiB")
        for name, row in figures.items():
            if not name.startswith("_"):
                print(f"{name:24} median {row['median_ms']:9.3f} ms   p95 {row['p95_ms']:9.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
