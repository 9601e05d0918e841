"""The Octoscript language reference, in named sections, for `octoscript mcp`
(its `language_reference` tool and `octoscript://reference/<name>` resources).

It is made from what the server already uses, so it cannot drift from it: the
hand-written guide (`docs/language.md`, one section per `##` heading), the
`mod.tool` and std tables hover reads, the lexer's reserved words, and the
grammar (`grammar/octoscript.ebnf`). The guide and the grammar sit outside
the package, so the package carries byte-for-byte copies of them in
`sources/` (`tests/reference/test_reference.py` compares them), found the
same way in a checkout, an editable install and a wheel.

Everything is read and rendered once, at import: a server that imports this
at start-up reads no file of its own while it serves (docs/security.md).
Pure: no MCP, LSP or JSON types.
"""

from __future__ import annotations

import pkgutil

from ..analysis import surfaces
from ..limits import MAX_REFERENCE_SECTION_BYTES
from .guide import split_guide
from .tables import (
    keywords_section,
    std_module_section,
    std_overview,
    std_section_name,
    tool_section,
)

REFERENCE_URI_PREFIX = "octoscript://reference/"

GUIDE_SOURCE = "sources/language.md"
GRAMMAR_SOURCE = "sources/octoscript.ebnf"

OVERVIEW = "overview"
GRAMMAR = "grammar"


def read_source(resource: str) -> str:
    """One of the package's copies (`GUIDE_SOURCE`, `GRAMMAR_SOURCE`)."""
    # pkgutil, as for the settings schema: importlib.resources costs more to import.
    data = pkgutil.get_data(__name__, resource)
    if data is None:
        raise FileNotFoundError(resource)
    return data.decode("utf-8")


def cut_to(text: str, limit: int) -> str:
    """`text` if its UTF-8 fits in `limit` bytes; else its longest run of
    whole lines that fits with a closing line saying it was cut."""
    if len(text.encode("utf-8")) <= limit:
        return text
    marker = f"\n[cut: this section is longer than {limit} bytes]\n"
    room = limit - len(marker.encode("utf-8"))
    kept: list[str] = []
    used = 0
    for line in text.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        if used + size > room:
            break
        kept.append(line)
        used += size
    return "".join(kept).rstrip("\n") + marker


def _grammar_section(grammar: str) -> str:
    return f"# Grammar (ISO EBNF, grammar/octoscript.ebnf)\n\n{grammar}"


def _overview(intro: str, described: list[tuple[str, str]]) -> str:
    lines = [intro.rstrip("\n"), "", "Sections:", ""]
    lines += [f"- `{name}`: {what}" for name, what in described]
    return "\n".join(lines) + "\n"


def _build() -> dict[str, str]:
    intro, guide = split_guide(read_source(GUIDE_SOURCE))
    generated: list[tuple[str, str, str]] = [
        ("tool", "the `mod.tool` methods", tool_section()),
        ("std", "the standard modules", std_overview()),
        *(
            (std_section_name(module), f"`mod.std.{module.name}`", std_module_section(module))
            for module in surfaces.STD_MODULES
        ),
        ("keywords", "keywords and reserved words", keywords_section()),
        (GRAMMAR, "the grammar, in EBNF", _grammar_section(read_source(GRAMMAR_SOURCE))),
    ]
    described = [(part.name, part.title) for part in guide]
    described += [(name, what) for name, what, _ in generated]
    texts = {OVERVIEW: _overview(intro, described)}
    texts.update((part.name, part.text) for part in guide)
    texts.update((name, text) for name, _, text in generated)
    return texts


def bounded(texts: dict[str, str], limit: int) -> tuple[dict[str, str], frozenset[str]]:
    """Each text cut to `limit` bytes, and the names of those that were cut."""
    kept = {name: cut_to(text, limit) for name, text in texts.items()}
    return kept, frozenset(name for name, text in texts.items() if kept[name] != text)


_SECTIONS, _CUT = bounded(_build(), MAX_REFERENCE_SECTION_BYTES)


def section_names() -> list[str]:
    """Every section's name, the overview first, then the guide's, then the
    generated ones (the order `overview` lists them)."""
    return list(_SECTIONS)


def section(name: str) -> str | None:
    """A section's text (at most `MAX_REFERENCE_SECTION_BYTES` of UTF-8); None
    for a name that is not one."""
    return _SECTIONS.get(name)


def is_cut(name: str) -> bool:
    """Whether the section `name` was cut to the size bound (its text then
    ends with a line that says so)."""
    return name in _CUT


__all__ = ["REFERENCE_URI_PREFIX", "bounded", "cut_to", "is_cut", "section", "section_names"]
