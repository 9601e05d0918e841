"""A long differential run of text sync and incremental analysis.

Run: python benchmarks/differential_sync.py [--minutes 10] [--first-seed 0]
Writes benchmarks/results/differential.json.

Each seed picks a base document and a random sequence of ranged edits (CRLF,
bare CR, U+2028/U+0085/FF, surrogate pairs, block comments, strings, positions
past line ends and inside surrogate pairs). After every edit the server's text
store must hold the text the protocol prescribes, and diagnostics, document
symbols, semantic tokens, folding ranges and formatting from the incremental
analysis must equal a fresh open of that text (`tests/sync/differential.py`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sync.differential import (  # noqa: E402
    BASES,
    Divergence,
    EditedDocument,
    random_sequence,
)

RESULTS = ROOT / "benchmarks" / "results" / "differential.json"
MAX_EDITS_PER_SEED = 40


def run_seed(seed: int) -> tuple[int, dict | None]:
    """(edits applied, divergence report or None) for one seed."""
    rng = random.Random(seed)
    base = rng.choice(BASES)
    edits = random_sequence(rng, base, rng.randrange(1, MAX_EDITS_PER_SEED + 1))
    document = EditedDocument(base)
    for count, edit in enumerate(edits, 1):
        document.apply(edit)
        try:
            document.check()
        except Divergence as divergence:
            return count, {"seed": seed, "edit": count, "reason": str(divergence)[:500]}
    return len(edits), None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    seeds = edits = 0
    divergences: list[dict] = []
    seed = args.first_seed
    while time.monotonic() < deadline:
        applied, divergence = run_seed(seed)
        seeds, edits, seed = seeds + 1, edits + applied, seed + 1
        if divergence is not None:
            divergences.append(divergence)
            print(json.dumps(divergence), flush=True)
    report = {
        "minutes": args.minutes,
        "first_seed": args.first_seed,
        "seeds": seeds,
        "edits": edits,
        "divergences": len(divergences),
        "first_divergences": divergences[:20],
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({key: report[key] for key in ("seeds", "edits", "divergences")}))
    return 1 if divergences else 0


if __name__ == "__main__":
    sys.exit(main())
