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
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    deadline = time.monotonic() + options.seconds
    seed, runs, failures = options.seed, 0, {}
    while time.monotonic() < deadline:
        try:
            check_random_program(seed)
            check_random_edits(seed, options.edits)
            if seed % 10 == 0:
                check_typing(seed)
        except Exception as error:  # noqa: BLE001 - report and go on
            key = (type(error).__name__, str(error)[:60])
            if key not in failures:
                failures[key] = seed
                print(f"seed {seed}: {type(error).__name__}: {str(error)[:400]}")
                traceback.print_exc(limit=-3)
        seed += 1
        runs += 1
    print(f"vm_compat: {runs} seeds from {options.seed}, {len(failures)} distinct failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
