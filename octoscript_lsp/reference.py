"""A stand-in for the language reference (replaced by the real one on main).

The interface `octoscript mcp` is written against: `section_names()`,
`section(name)` and `REFERENCE_URI_PREFIX`.
"""

from __future__ import annotations

REFERENCE_URI_PREFIX = "octoscript://reference/"

_SECTIONS = {
    "guide": "# Octoscript\n\nA script is a sequence of statements.\n",
    "grammar": "script = { statement } ;\n",
}


def section_names() -> list[str]:
    return list(_SECTIONS)


def section(name: str) -> str | None:
    return _SECTIONS.get(name)
