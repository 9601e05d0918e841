"""The loop the long random runs (`fuzz_*.py`) share: one case per seed until
the time is up, each distinct failure printed once with the seed that found it."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable


def run_seeds(case: Callable[[int], None], seconds: float, first_seed: int, label: str) -> int:
    """Run `case(seed)` for seeds from `first_seed` on; 1 if any failed, else 0."""
    deadline = time.monotonic() + seconds
    seed, runs, failures = first_seed, 0, {}
    while time.monotonic() < deadline:
        try:
            case(seed)
        except Exception as error:  # noqa: BLE001 - report and go on
            key = (type(error).__name__, str(error)[:60])
            if key not in failures:
                failures[key] = seed
                print(f"seed {seed}: {type(error).__name__}: {str(error)[:400]}")
                traceback.print_exc(limit=-3)
        seed += 1
        runs += 1
    print(f"{label}: {runs} seeds from {first_seed}, {len(failures)} distinct failures")
    return 1 if failures else 0
