"""The installed `octoscript-lsp` program the real-client tests start."""

from __future__ import annotations

import sys
from pathlib import Path


def server_command() -> Path:
    """The console script next to the running interpreter (the test venv's)."""
    bindir = Path(sys.executable).parent
    for name in ("octoscript-lsp", "octoscript-lsp.exe"):
        candidate = bindir / name
        if candidate.exists():
            return candidate
    return bindir / "octoscript-lsp"
