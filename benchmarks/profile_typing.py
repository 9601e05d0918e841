"""cProfile of the slowest path after a keystroke: a one-digit edit in the
middle of the 2,500-line benchmark document, then semantic tokens (the
slowest request after a keystroke), in process,
through the same document store and features the server uses.

    python benchmarks/profile_typing.py
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "shared" / "conformance"))

from lspbench import generate  # noqa: E402

from octoscript_lsp.documents import DocumentStore  # noqa: E402
from octoscript_lsp.features import diagnostics, semantic_tokens  # noqa: E402

URI = "file:///bench/typing.octoscript"
KEYSTROKES = 40


class Typist:
    """Replaces one digit of a number literal, as lsptyping.py does."""

    def __init__(self, lines: int) -> None:
        self.text = generate(lines)
        middle = self.text.count("\nfn step") // 2
        needle = f"    let total{middle} = math.max(left, right) + "
        self.edit_at = self.text.index(needle) + len(needle)
        self.version = 1
        self.store = DocumentStore(lambda uri: self.text)
        self.store.track(URI, self.version)
        self.store.cached(URI)

    def keystroke(self):
        self.version += 1
        at = self.edit_at
        self.text = self.text[:at] + str(self.version % 10) + self.text[at + 1 :]
        self.store.track(URI, self.version)
        state = self.store.cached(URI)
        diagnostics.syntax_diagnostics(state.analysis, state.positions)
        return state


def main() -> None:
    typist = Typist(2500)
    # Carried across versions, as the server does.
    semantic_tokens.full_items(typist.keystroke().analysis)  # warm up
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(KEYSTROKES):
        semantic_tokens.full_items(typist.keystroke().analysis)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative")
    stats.print_stats(30)
    print(
        f"# {KEYSTROKES} keystrokes, each followed by semanticTokens/full, "
        f"{typist.text.count(chr(10))}-line document"
    )
    print(out.getvalue())


if __name__ == "__main__":
    main()
