"""Time how fast hostile catalogs are refused and deeply nested input is analysed.

Run: python benchmarks/bench_hostile_inputs.py [--runs 3]
Writes benchmarks/results/hostile_inputs.json; exits 1 when a median is over
its budget. The unit tests check what happens to this input (refused whole,
never raises); how long it takes is measured here, where a loaded machine
cannot fail the suite.

Budgets: a hostile catalog is refused (initialization options or a settings
change) within 0.25 s, a 5 MB search query within 0.05 s, and each deeply
nested document is analysed within 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from octoscript_lsp.catalogs.search import InvalidSearchQuery, search_tools  # noqa: E402
from octoscript_lsp.catalogs.store import CatalogStore  # noqa: E402
from octoscript_lsp.syntax.check import analyze_syntax  # noqa: E402
from tests.catalogs.test_hostile import BIG, HOSTILE  # noqa: E402
from tests.syntax.test_parser import DEEP_INPUTS  # noqa: E402

CATALOG_BUDGET_S = 0.25
SEARCH_BUDGET_S = 0.05
DEEP_INPUT_BUDGET_S = 2.0
RESULTS = ROOT / "benchmarks" / "results" / "hostile_inputs.json"


def _median_seconds(run: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _refuse_catalog(section: dict, apply: str) -> Callable[[], object]:
    def run() -> None:
        store = CatalogStore()
        if apply == "init":
            store.apply_initialization_options({"octoscript": section})
        else:
            store.apply_settings({"octoscript": section})

    return run


def _refuse_search() -> None:
    try:
        search_tools(CatalogStore(), BIG)
    except InvalidSearchQuery:
        return
    raise AssertionError("a 5 MB query was not refused")


def measure(runs: int) -> list[dict]:
    rows = []
    for name in sorted(HOSTILE):
        section = HOSTILE[name]()
        for apply in ("init", "refresh"):
            seconds = _median_seconds(_refuse_catalog(section, apply), runs)
            rows.append(_row(f"catalog {name} ({apply})", seconds, CATALOG_BUDGET_S))
    rows.append(_row("search 5 MB query", _median_seconds(_refuse_search, runs), SEARCH_BUDGET_S))
    for source in DEEP_INPUTS:
        label = f"deep {source[:12]!r} x{len(source)} chars"
        seconds = _median_seconds(lambda source=source: analyze_syntax(source), runs)
        rows.append(_row(label, seconds, DEEP_INPUT_BUDGET_S))
    return rows


def _row(label: str, seconds: float, budget: float) -> dict:
    return {"case": label, "median_s": round(seconds, 4), "budget_s": budget}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = measure(args.runs)
    over = [row for row in rows if row["median_s"] > row["budget_s"]]
    for row in rows:
        flag = "  OVER" if row in over else ""
        print(f"{row['median_s']:8.4f} s  (budget {row['budget_s']:.2f})  {row['case']}{flag}")
    RESULTS.write_text(json.dumps({"runs": args.runs, "rows": rows}, indent=2) + "\n")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
