"""Shared test helpers."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER_COMMAND = [sys.executable, "-m", "octoscript_lsp.server"]


def strip_markers(text: str) -> tuple[str, dict[str, int]]:
    """Remove `@@name@@` markers; return the text and marker -> offset."""
    out: list[str] = []
    marks: dict[str, int] = {}
    rest = text
    length = 0
    while "@@" in rest:
        before, _, after = rest.partition("@@")
        name, _, rest = after.partition("@@")
        out.append(before)
        length += len(before)
        marks[name] = length
    out.append(rest)
    return "".join(out), marks
