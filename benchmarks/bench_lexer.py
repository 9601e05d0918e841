"""CPU time of lexing and parsing the 2,500-line benchmark document in process.

The first full lex and parse are most of a fresh server's first didOpen.
Prints two figures for each: the best of --runs calls in this process, with
the collector off (steady state), and the median first call of --fresh new
interpreters (what a first didOpen pays: untouched memory, cold caches).

    python benchmarks/bench_lexer.py [--runs 7] [--fresh 6] [--lines 2500]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import generate  # noqa: E402

from octoscript_lsp.syntax.lexer import tokenize  # noqa: E402
from octoscript_lsp.syntax.parser import parse  # noqa: E402


def _cpu_ms(action) -> float:
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def first_call(lines: int) -> tuple[float, float]:
    """(lex ms, parse ms) of the first calls in this interpreter."""
    source = generate(lines)
    gc.disable()
    lexed = []
    lex = _cpu_ms(lambda: lexed.append(tokenize(source)))
    return lex, _cpu_ms(lambda: parse(lexed[0].tokens))


def steady(lines: int, runs: int) -> tuple[float, float]:
    """(best lex ms, best parse ms) over `runs` calls each, interleaved."""
    source = generate(lines)
    tokens = tokenize(source).tokens
    gc.disable()
    lex, parsing = [], []
    for _ in range(runs):
        lex.append(_cpu_ms(lambda: tokenize(source)))
        parsing.append(_cpu_ms(lambda: parse(tokens)))
    gc.enable()
    return min(lex), min(parsing)


def fresh(lines: int, count: int) -> tuple[float, float]:
    """Median (lex ms, parse ms) of the first calls in `count` new interpreters."""
    lex, parsing = [], []
    for _ in range(count):
        answer = subprocess.run(
            [sys.executable, __file__, "--first", "--lines", str(lines)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        lex.append(float(answer[0]))
        parsing.append(float(answer[1]))
    return statistics.median(lex), statistics.median(parsing)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--fresh", type=int, default=6)
    parser.add_argument("--lines", type=int, default=2500)
    parser.add_argument("--first", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.first:
        print(*(f"{value:.2f}" for value in first_call(options.lines)))
        return
    lex, parsing = steady(options.lines, options.runs)
    print(f"steady, best of {options.runs}: lex {lex:.2f} ms, parse {parsing:.2f} ms CPU")
    if options.fresh:
        lex, parsing = fresh(options.lines, options.fresh)
        print(
            f"first call, median of {options.fresh} interpreters: "
            f"lex {lex:.2f} ms, parse {parsing:.2f} ms CPU"
        )


if __name__ == "__main__":
    main()
