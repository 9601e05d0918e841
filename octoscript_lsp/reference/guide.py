"""The hand-written guide (`docs/language.md`) cut into the reference's sections."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = "```"


@dataclass(frozen=True)
class GuideSection:
    name: str
    title: str
    text: str


def slug(title: str) -> str:
    """`Try and catch` -> `try-and-catch`: a section's name in a URI."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def split_guide(markdown: str) -> tuple[str, list[GuideSection]]:
    """The text before the first `##` heading, and one section per `##`
    heading (a `##` inside a fenced block is code, not a heading)."""
    intro: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    fenced = False
    for line in markdown.splitlines(keepends=True):
        if line.startswith(_FENCE):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            sections.append((line[3:].strip(), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            intro.append(line)
    return "".join(intro).strip() + "\n", [
        GuideSection(slug(title), title, "".join(lines).strip() + "\n") for title, lines in sections
    ]
