"""Copy the language guide and the grammar into the package's reference.

`octoscript mcp` serves docs/language.md and grammar/octoscript.ebnf from
octoscript_lsp/reference/sources/, which an installed package carries. Run
after changing either original; tests/reference/test_reference.py checks
that the copies are the same bytes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "octoscript_lsp" / "reference" / "sources"
ORIGINALS = (ROOT / "docs" / "language.md", ROOT / "grammar" / "octoscript.ebnf")


def main() -> None:
    for original in ORIGINALS:
        shutil.copyfile(original, SOURCES / original.name)


if __name__ == "__main__":
    main()
