"""Long random run of the authoring checks (tests/robustness/*_fuzz.py).

    python benchmarks/fuzz_authoring.py [--seconds 120] [--seed 0] [--kind edits|catalogs]

`edits`: random edit sequences, every feature against a fresh open, range
formatting and quick-fix properties. `catalogs`: random module catalogs and
record styles through quick fixes and prefill. Prints each distinct failure
once (with its seed) and a summary line.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seeded_runs import run_seeds  # noqa: E402

from tests.robustness.authoring_fuzz import AUTHORING_BASES, catalogs, run_random  # noqa: E402
from tests.robustness.catalog_fuzz import run_catalog_case  # noqa: E402


def _edits_case(rng: random.Random, store) -> None:
    run_random(rng, rng.choice(AUTHORING_BASES), rng.randrange(1, 12), store)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", choices=("edits", "catalogs"), default="edits")
    options = parser.parse_args()
    store = catalogs()

    def case(seed: int) -> None:
        rng = random.Random(seed)
        if options.kind == "edits":
            _edits_case(rng, store)
        else:
            run_catalog_case(rng)

    return run_seeds(case, options.seconds, options.seed, options.kind)


if __name__ == "__main__":
    sys.exit(main())
