"""cProfile of the slowest path: a first full analysis of a 2,500-line document
(lex, parse, lexical index, imports, review hints) as a didOpen costs it.

    python benchmarks/profile_analysis.py
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import generate  # noqa: E402

from octoscript_lsp.analysis.document import DocumentAnalysis  # noqa: E402


def first_analysis(source: str) -> None:
    analysis = DocumentAnalysis(source)
    _ = analysis.completion_index, analysis.imports, analysis.hints


def main() -> None:
    source = generate(2500)
    profiler = cProfile.Profile()
    profiler.enable()
    first_analysis(source)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative")
    stats.print_stats(25)
    print(f"# first full analysis of a {source.count(chr(10))}-line, {len(source)}-char document")
    print(out.getvalue())


if __name__ == "__main__":
    main()
