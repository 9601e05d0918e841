"""Long differential run of position encodings over stdio (tests/lsp/encoding_fuzz.py).

    python benchmarks/fuzz_encodings.py [--seconds 300] [--seed 0] [--steps 12]

Sessions in utf-8, utf-16 and utf-32 and a fresh open in utf-16 get the same
random ranged edits over non-ASCII text (astral, combining and CJK
characters, em dashes, CRLF, bare CR, block comments); after each edit every
request's answer, in code points, must be the same in all four. Prints each
distinct divergence once (with its seed) and a summary line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seeded_runs import run_seeds  # noqa: E402

from tests.lsp.encoding_fuzz import Fuzz, run_seed  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=12, help="most edits per seed")
    options = parser.parse_args()
    fuzz = Fuzz()
    try:

        def case(seed: int) -> None:
            run_seed(fuzz, seed, options.steps)

        return run_seeds(case, options.seconds, options.seed, "encodings")
    finally:
        fuzz.stop()


if __name__ == "__main__":
    sys.exit(main())
