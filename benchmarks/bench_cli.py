"""Time `octoscript check` on a directory of 1,000 generated scripts.

Run: python benchmarks/bench_cli.py
Writes benchmarks/results/cli.json. Target: the whole run (one process, from
start to exit) under 5 seconds, with and without `--settings` (catalog
advice needs the lexical index and call review of every file).
Each script is a realistic ~40-line workflow: imports, a helper function,
records, a loop, tool and module calls; every tenth has a syntax error.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILES = 1_000
RUNS = 3
TARGET_SECONDS = 5.0
RESULTS = Path(__file__).resolve().parent / "results" / "cli.json"

SETTINGS = {
    "toolCatalog": [
        {"name": "text.echo", "format": "text"},
        {"name": "math.add", "format": "json"},
    ],
    "moduleCatalog": [
        {"path": "mod.app", "description": "Application modules."},
        {
            "path": "mod.app.weather.current",
            "callMode": "deferred",
            "callShape": "single_json",
            "inputFields": [{"name": "city", "type": "string", "required": True}],
        },
    ],
}


def _script(index: int) -> str:
    broken = "let oops = 'single'\n" if index % 10 == 0 else ""
    return (
        f"// Generated workflow {index}.\n"
        "use mod.tool\n"
        "use mod.std.math\n"
        "use mod.app.weather\n"
        "\n"
        f"fn summarize_{index}(values, label) {{\n"
        "    let total = 0\n"
        "    for value in values {\n"
        "        total = total + value\n"
        "    }\n"
        "    return {label: label, total: total, count: values.len()}\n"
        "}\n"
        "\n"
        f"let numbers = [{index}, {index + 1}, {index + 2}, {index + 3}]\n"
        f'let summary = summarize_{index}(numbers, "batch {index}")\n'
        'let echoed = tool.call("text.echo", "hello")\n'
        'let sum = tool.call_json("math.add", {left: 1, right: 2})\n'
        'let mistyped = tool.call("text.ecko", "x")\n'
        f'let forecast = weather.current({{city: "City {index}"}}).await()\n'
        "let result = try {\n"
        "    math.max(summary.total, 10)\n"
        "} catch {\n"
        "    nil\n"
        "}\n"
        "if result == nil {\n"
        '    tool.call("text.echo", "no result")\n'
        "} elif result > 100 {\n"
        '    tool.call("text.echo", "large")\n'
        "} else {\n"
        '    tool.call("text.echo", "small")\n'
        "}\n"
        "let doubled = numbers.map(|n| n * 2)\n"
        f"{broken}"
    )


def _generate(directory: Path) -> None:
    for index in range(FILES):
        folder = directory / f"group_{index // 100:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"flow_{index:04d}.octoscript").write_text(_script(index), encoding="utf-8")
    (directory / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")


def _time(command: list[str], cwd: Path) -> tuple[list[float], str]:
    timings = []
    last = ""
    for _ in range(RUNS):
        started = time.perf_counter()
        completed = subprocess.run(command, capture_output=True, cwd=cwd, check=False)
        timings.append(time.perf_counter() - started)
        last = completed.stdout.decode("utf-8").splitlines()[-1]
        if completed.returncode != 1:  # the broken tenth must be reported
            sys.stderr.write(completed.stderr.decode("utf-8"))
            raise SystemExit(f"unexpected exit {completed.returncode}")
    return timings, last


def _summary(timings: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(timings), 3), "max_s": round(max(timings), 3)}


def main() -> int:
    check = [sys.executable, "-m", "octoscript_lsp.cli", "check"]
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        _generate(directory)
        plain, plain_summary = _time([*check, "."], directory)
        advised, advised_summary = _time([*check, "--settings", "settings.json", "."], directory)
    report = {
        "files": FILES,
        "target_seconds": TARGET_SECONDS,
        "cpu_count": os.cpu_count(),
        "check": {**_summary(plain), "summary": plain_summary},
        "check_with_settings": {**_summary(advised), "summary": advised_summary},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    slowest = max(report["check"]["max_s"], report["check_with_settings"]["max_s"])
    return 0 if slowest < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
