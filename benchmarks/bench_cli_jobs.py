"""Time `octoscript check` on 10,000 generated 30-line scripts, one job and all cores.

Run: python benchmarks/bench_cli_jobs.py [--files N] [--runs N]
Writes benchmarks/results/cli_jobs.json. Targets (on 2 cores):
the default (`--jobs` = every core) at most 1.6 s wall from start to exit,
and `--jobs 1` no slower than the one-process figure before `--jobs`
existed (BASELINE_ONE_JOB_SECONDS, measured with this script on this machine).
Every fiftieth script has a syntax error, so the run exits 1.

Wall time on a shared machine follows its load; each run's CPU time (user +
system of the command and its workers) and the one-minute load average when
it started are reported beside it. `--before DIR` (a directory holding the
`octoscript_lsp` before `--jobs` existed, for example
`git archive 502f5f3 octoscript_lsp | tar -x -C DIR`) times that code's one
process in the same run, and `--code LABEL=DIR` (repeatable) times an older
`octoscript_lsp` that has `--jobs` with both commands; the variants take
turns, one run of each per round.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES = 10_000
RUNS = 3
TARGET_DEFAULT_SECONDS = 1.6
# `check .` on this directory before `--jobs` existed (commit 502f5f3, one
# process): 2.64 s wall, 2.50 s user CPU, best of 3 on the shared 2-core machine.
BASELINE_ONE_JOB_SECONDS = 2.64
RESULTS = Path(__file__).resolve().parent / "results" / "cli_jobs.json"


def script(index: int) -> str:
    """A 30-line script: imports, a function, records, a loop, calls."""
    broken = "let oops = 'single'\n" if index % 50 == 0 else "let done = true\n"
    return (
        f"// Generated script {index}.\n"
        "use mod.tool\n"
        "use mod.std.math\n"
        "\n"
        f"fn total_{index}(values) {{\n"
        "    let sum = 0\n"
        "    for value in values {\n"
        "        sum = sum + value\n"
        "    }\n"
        "    return sum\n"
        "}\n"
        "\n"
        f"let numbers = [{index}, {index + 1}, {index + 2}]\n"
        f"let total = total_{index}(numbers)\n"
        'let label = "batch"\n'
        "let record = {label: label, total: total}\n"
        'let echoed = tool.call("text.echo", label)\n'
        "let larger = math.max(total, 10)\n"
        "if larger > 100 {\n"
        '    tool.call("text.echo", "large")\n'
        "} else {\n"
        '    tool.call("text.echo", "small")\n'
        "}\n"
        "let doubled = numbers.map(|n| n * 2)\n"
        "let first = doubled[0]\n"
        "let size = numbers.len()\n"
        "let flag = size > 2 && first != nil\n"
        'let text = "total " + label\n'
        "let pair = [label, total]\n"
        f"{broken}"
    )


def generate(directory: Path, files: int) -> None:
    for index in range(files):
        folder = directory / f"group_{index // 500:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"script_{index:05d}.octoscript").write_text(script(index), encoding="utf-8")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(
    command: list[str], cwd: Path, env: dict[str, str] | None
) -> tuple[float, float, float, str]:
    """(wall, cpu, load average at the start, last line) of one run."""
    load = os.getloadavg()[0]
    cpu = _children_cpu()
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, cwd=cwd, env=env, check=False)
    wall = time.perf_counter() - started
    if completed.returncode != 1:  # the broken fiftieth must be reported
        sys.stderr.write(completed.stderr.decode("utf-8"))
        raise SystemExit(f"unexpected exit {completed.returncode}")
    last = completed.stdout.decode("utf-8").splitlines()[-1]
    return wall, _children_cpu() - cpu, load, last


def _summary(runs: list[tuple[float, float, float, str]]) -> dict[str, object]:
    walls = [wall for wall, _, _, _ in runs]
    return {
        "median_s": round(statistics.median(walls), 3),
        "min_s": round(min(walls), 3),
        "max_s": round(max(walls), 3),
        "median_cpu_s": round(statistics.median(cpu for _, cpu, _, _ in runs), 3),
        "median_load": round(statistics.median(load for _, _, load, _ in runs), 2),
        "runs": [
            {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "load": round(load, 2)}
            for wall, cpu, load, _ in runs
        ],
        "summary": runs[-1][3],
    }


def _variants(args: argparse.Namespace) -> dict[str, tuple[list[str], dict[str, str] | None]]:
    check = [sys.executable, "-m", "octoscript_lsp.cli", "check"]
    ours = {
        "default_jobs": [*check, "--isolated", "."],
        "one_job": [*check, "--isolated", "--jobs", "1", "."],
    }
    variants: dict[str, tuple[list[str], dict[str, str] | None]] = {
        name: (command, None) for name, command in ours.items()
    }
    for label, directory in (item.split("=", 1) for item in args.code):
        env = {**os.environ, "PYTHONPATH": os.path.abspath(directory)}
        for name, command in ours.items():
            variants[f"{label}_{name}"] = (command, env)
    if args.before:
        before_env = {**os.environ, "PYTHONPATH": os.path.abspath(args.before)}
        variants["before"] = ([*check, "."], before_env)
    return variants


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=FILES)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--before", metavar="DIR", help="also time the octoscript_lsp in DIR")
    parser.add_argument(
        "--code",
        metavar="LABEL=DIR",
        action="append",
        default=[],
        help="also time the octoscript_lsp (with --jobs) in DIR, both commands",
    )
    args = parser.parse_args()
    variants = _variants(args)
    runs: dict[str, list[tuple[float, float, float, str]]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        generate(directory, args.files)
        for _ in range(args.runs):
            for variant, (command, env) in variants.items():
                runs[variant].append(_once(command, directory, env))
    report: dict[str, object] = {
        "files": args.files,
        "cpu_count": os.cpu_count(),
        "load_average": [round(value, 2) for value in os.getloadavg()],
        **{variant: _summary(results) for variant, results in runs.items()},
        "targets": {
            "default_jobs_s": TARGET_DEFAULT_SECONDS,
            "one_job_s": BASELINE_ONE_JOB_SECONDS,
        },
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    default = statistics.median(wall for wall, _, _, _ in runs["default_jobs"])
    return 0 if default <= TARGET_DEFAULT_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
