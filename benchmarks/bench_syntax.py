"""Time `octoscript check` and in-process analysis on a 250 KiB valid file.

Run: python benchmarks/bench_syntax.py
Writes benchmarks/results/syntax.json. Target: each median under one second.
The generated file stays inside both budgets (256 KiB, 32,768 tokens), so
long names, strings and comments carry much of its size.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from octoscript_lsp.limits import MAX_SOURCE_BYTES, MAX_SYNTAX_TOKENS
from octoscript_lsp.syntax.check import analyze_syntax, format_source

TARGET_BYTES = 250 * 1024
RUNS = 5
RESULTS = Path(__file__).resolve().parent / "results" / "syntax.json"


def _chunk(index: int) -> str:
    name = f"workflow_step_number_{index:05d}"
    return (
        f"// Step {index}: fetch, reshape and validate one record of the batch.\n"
        f"fn {name}(input_record, options_record) {{\n"
        f"    let request_payload = {{\n"
        f"        identifier: input_record.identifier,\n"
        f'        description: "step {index} payload with a reasonably long literal"\n'
        f"    }}\n"
        f'    let response_value = try tool.call_json("catalog.lookup", request_payload)'
        f" catch nil\n"
        f"    if response_value == nil {{\n"
        f"        return options_record.fallback_value\n"
        f"    }}\n"
        f"    /* keep the original ordering for the downstream consumers */\n"
        f"    return response_value.parse_json().normalized_result\n"
        f"}}\n"
        f"\n"
    )


def generate(target_bytes: int = TARGET_BYTES) -> str:
    header = "use mod.tool\nuse mod.std.assert\n\n"
    parts = [header]
    size = len(header)
    index = 0
    while True:
        chunk = _chunk(index)
        if size + len(chunk) > target_bytes:
            break
        parts.append(chunk)
        size += len(chunk)
        index += 1
    filler = target_bytes - size
    if filler > 3:
        parts.append("//" + "-" * (filler - 3) + "\n")
    return "".join(parts)


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    position = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[position]


def _summary(samples: list[float]) -> dict:
    return {
        "runs": len(samples),
        "median_seconds": round(statistics.median(samples), 4),
        "p95_seconds": round(_percentile(samples, 0.95), 4),
        "min_seconds": round(min(samples), 4),
        "max_seconds": round(max(samples), 4),
    }


def main() -> int:
    source = generate()
    size = len(source.encode("utf-8"))
    result = analyze_syntax(source)
    tokens = len(result.tokens) - 1
    if not result.valid or size > MAX_SOURCE_BYTES or tokens > MAX_SYNTAX_TOKENS:
        print("generated source is not a valid in-budget program", file=sys.stderr)
        return 1

    in_process = []
    for _ in range(RUNS):
        started = time.perf_counter()
        analyze_syntax(source)
        in_process.append(time.perf_counter() - started)

    formatting = []
    for _ in range(RUNS):
        started = time.perf_counter()
        format_source(source)
        formatting.append(time.perf_counter() - started)

    cli = []
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.octoscript"
        path.write_text(source, encoding="utf-8", newline="")
        command = [sys.executable, "-m", "octoscript_lsp.cli", "check", str(path)]
        for _ in range(RUNS):
            started = time.perf_counter()
            completed = subprocess.run(command, capture_output=True, check=False)
            cli.append(time.perf_counter() - started)
            if completed.returncode != 0:
                print(completed.stderr.decode(), file=sys.stderr)
                return 1

    report = {
        "source_bytes": size,
        "source_tokens": tokens,
        "target_seconds": 1.0,
        "analyze_syntax": _summary(in_process),
        "format_source": _summary(formatting),
        "cli_check_subprocess": _summary(cli),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
