"""Long random run of the runtime-parser differential checks (tests/syntax/vm_differential.py).

    python benchmarks/fuzz_vm_compat.py [--seconds 120] [--seed 0] [--edits 10]

Each seed checks one random program against the full tree walk, then one
random edit sequence (incremental against fresh analysis, and the full
walk after every edit); every tenth seed also types a statement in and
out one character at a time. Prints each distinct failure once, with its seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seeded_runs import run_seeds  # noqa: E402

from tests.syntax.vm_differential import (  # noqa: E402
    check_random_edits,
    check_random_program,
    check_typing,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--edits", type=int, default=10)
    options = parser.parse_args()

    def case(seed: int) -> None:
        check_random_program(seed)
        check_random_edits(seed, options.edits)
        if seed % 10 == 0:
            check_typing(seed)

    return run_seeds(case, options.seconds, options.seed, "vm_compat")


if __name__ == "__main__":
    sys.exit(main())
