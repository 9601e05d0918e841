"""One candidate quick fix, in code-point offsets (`features/code_actions` offers it)."""

from __future__ import annotations

from dataclasses import dataclass

from .advice import Finding


@dataclass(frozen=True, slots=True)
class Fix:
    """`span` is what the fix is about (it must meet the requested range).

    `about` is the catalog finding the fix repairs, listed in the action's
    `diagnostics`; `preferred` marks the one fix an editor may apply unasked.
    """

    title: str
    span: tuple[int, int]
    edit: tuple[int, int, str]
    about: Finding | None = None
    preferred: bool = False
