"""Time a warm `octoscript mcp` answering `check_script` on a 300-line script.

Run: python benchmarks/bench_mcp.py [--calls N]
Writes benchmarks/results/mcp.json. Target: the median call, as a host's
client sees it over stdio (the server a subprocess, JSON-RPC on pipes),
within 20 ms times the machine factor: the time of
`python -c "import pygls.lsp.server, lsprotocol.types"` here over 0.30 s.
The script is nine of `bench_cli.py`'s generated workflows (the valid kind) (tool and
module calls, one mistyped tool name each) with the same catalogs, so each
answer carries catalog advice, did-you-mean names and fixes. The same calls
through the SDK's in-process client are timed too (no pipes, no JSON).
Each call sends a different script (a digit changes), as an agent's
successive checks do.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from bench_cli import SETTINGS, _script
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from octoscript_lsp.mcp.server import build_server
from octoscript_lsp.mcp.workspace import Origin, Workspace

TARGET_MS = 20.0
QUIET_IMPORT_SECONDS = 0.30
LINES = 300
WARM_CALLS = 5
RESULTS = Path(__file__).resolve().parent / "results" / "mcp.json"


def machine_factor(runs: int = 3) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import pygls.lsp.server, lsprotocol.types"], check=True
        )
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) / QUIET_IMPORT_SECONDS


def script(variant: int) -> str:
    lines: list[str] = []
    index = 1  # never a multiple of ten: those have a syntax error, and no advice
    while len(lines) < LINES:
        lines.extend(_script(variant * 100 + index).splitlines())
        index += 1
    return "\n".join(lines[:LINES]) + "\n"


def _summary(timings: list[float]) -> dict[str, float]:
    ordered = sorted(timings)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 2),
        "calls": len(ordered),
    }


async def _timed_calls(client: Client, calls: int) -> tuple[list[float], int]:
    for variant in range(WARM_CALLS):
        await client.call_tool("check_script", {"source": script(variant)})
    timings = []
    diagnostics = 0
    for variant in range(calls):
        source = script(WARM_CALLS + variant)
        started = time.perf_counter()
        result = await client.call_tool("check_script", {"source": source})
        timings.append(time.perf_counter() - started)
        assert not result.is_error and result.structured_content is not None
        diagnostics = len(result.structured_content["diagnostics"])
    return timings, diagnostics


async def _stdio(settings: Path, calls: int) -> tuple[list[float], int]:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "octoscript_lsp.cli", "mcp", "--isolated", "--settings", str(settings)],
    )
    async with Client(server, read_timeout_seconds=120) as client:
        return await _timed_calls(client, calls)


async def _in_process(settings: Path, calls: int) -> tuple[list[float], int]:
    workspace = Workspace(Origin(settings=str(settings), isolated=True))
    workspace.load()
    async with Client(build_server(workspace)) as client:
        return await _timed_calls(client, calls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=60)
    args = parser.parse_args()
    factor = machine_factor()
    with tempfile.TemporaryDirectory() as name:
        settings = Path(name) / "settings.json"
        settings.write_text(json.dumps(SETTINGS), encoding="utf-8")
        stdio, diagnostics = anyio.run(_stdio, settings, args.calls)
        in_process, _ = anyio.run(_in_process, settings, args.calls)
    limit = TARGET_MS * factor
    report = {
        "lines": LINES,
        "diagnostics_per_answer": diagnostics,
        "machine_factor": round(factor, 2),
        "target_ms": TARGET_MS,
        "limit_ms": round(limit, 1),
        "stdio": _summary(stdio),
        "in_process": _summary(in_process),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0 if report["stdio"]["median_ms"] <= limit else 1


if __name__ == "__main__":
    sys.exit(main())
