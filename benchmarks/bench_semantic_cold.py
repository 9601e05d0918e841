"""The first semantic-tokens answer on a freshly opened document, in process.

`lsptyping.py` sends its keystroke+request pairs with no warm-up, so the
first `semanticTokens/full` after didOpen (every statement classified and
encoded, the lexical index made) is part of its per-request figure. Each
round closes and opens the generated document again through the real
server's message handling (as `profile_requests.py` drives it), types one
keystroke, and times the CPU of the first `full` request, then of a second
one and of keystroke+`full/delta` pairs. Prints min and median per kind.

    python benchmarks/bench_semantic_cold.py [--lines 4090] [--rounds 8]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from profile_requests import Session, requests  # noqa: E402

# Keystroke+delta pairs timed after each round's first answers.
DELTAS_PER_ROUND = 10


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=4090)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    session = Session(args.lines)
    kinds = requests(session)
    full_method, full_params = kinds["semanticTokens"]
    delta_method, delta_params = kinds["semanticTokens.delta"]
    figures: dict[str, list[float]] = {"cold full": [], "second full": [], "keystroke+delta": []}

    def timed(name: str, run) -> None:
        before = time.process_time()
        run()
        figures[name].append((time.process_time() - before) * 1000)

    for _ in range(args.rounds):
        session.reopen()
        session.keystroke()
        timed("cold full", lambda: session.send(full_method, full_params()))
        session.keystroke()
        timed("second full", lambda: session.send(full_method, full_params()))
        for _ in range(DELTAS_PER_ROUND):
            timed(
                "keystroke+delta",
                lambda: (session.keystroke(), session.send(delta_method, delta_params())),
            )
    for name, values in figures.items():
        print(f"{name:18} min {min(values):7.2f} ms   median {statistics.median(values):7.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
