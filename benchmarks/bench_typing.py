"""Latency after a keystroke: every request follows a one-character edit.

Runs the shared `lsptyping.py` (one ranged didChange before every request,
server CPU per keystroke+request read from /proc) at 400 and 2,500 lines and
at the largest generated document that is still valid (under the token and
byte budgets), for this server and, with --reference, for the reference
server too, one run after the other. Writes benchmarks/results/typing.json.

    python benchmarks/bench_typing.py [--repeat 40] [--reference PATH]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT.parent / "shared" / "conformance"
LSPTYPING = CONFORMANCE / "lsptyping.py"
RESULTS = ROOT / "benchmarks" / "results" / "typing.json"
sys.path.insert(0, str(CONFORMANCE))

from lspbench import generate  # noqa: E402

from octoscript_lsp.syntax.check import SourceTooLarge, analyze_syntax  # noqa: E402


def is_valid(lines: int) -> bool:
    try:
        return analyze_syntax(generate(lines)).valid
    except SourceTooLarge:
        return False


def largest_valid_lines(low: int = 2500, high: int = 40_000) -> int:
    """The most lines a generated document can have and still check."""
    while low < high:
        middle = (low + high + 1) // 2
        if is_valid(middle):
            low = middle
        else:
            high = middle - 1
    return low


def run(server: str, settings_key: str, lines: int, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        figures = Path(folder) / "figures.json"
        command = [
            sys.executable,
            str(LSPTYPING),
            "--server",
            server,
            "--settings-key",
            settings_key,
            "--lines",
            str(lines),
            "--repeat",
            str(repeat),
            "--json",
            str(figures),
        ]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return json.loads(figures.read_text())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--lines", type=int, nargs="*", help="sizes (default: 400 2500 largest)")
    parser.add_argument("--server", default="octoscript-lsp")
    parser.add_argument("--reference", help="also measure this reference server command")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if not LSPTYPING.exists():
        sys.stderr.write(f"lsptyping.py not found at {LSPTYPING}\n")
        return 2
    sizes = args.lines or [400, 2500, largest_valid_lines()]
    report: dict = {}
    for lines in sizes:
        entry = {"ours": run(args.server, "octoscript", lines, args.repeat)}
        if args.reference:
            entry["reference"] = run(args.reference, "splash", lines, args.repeat)
        report[str(lines)] = entry
        print(f"--- {lines} lines")
        for name, row in entry["ours"].items():
            if name.startswith("_"):
                continue
            reference = entry.get("reference", {}).get(name, {})
            print(
                f"{name:24} cpu {row['cpu_ms']!s:>7} ms  wall {row['median_ms']:8.2f} ms"
                f"  | reference cpu {reference.get('cpu_ms')!s:>7} ms"
            )
        print(f"peak RSS {entry['ours']['_document']['peak_rss_mib']} MiB")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
