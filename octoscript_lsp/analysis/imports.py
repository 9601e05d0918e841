"""`use mod.a.b` records: the path, its span and the binding it introduces."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import MAX_MODULE_IMPORTS
from ..syntax.tokens import Token
from ..syntax.tree import IMPORT


@dataclass(frozen=True, slots=True)
class ModuleImport:
    path: tuple[str, ...]
    path_start: int
    path_end: int
    binding_start: int
    binding_end: int


@dataclass(frozen=True, slots=True)
class ImportReport:
    imports: tuple[ModuleImport, ...]
    truncated: bool

    def for_binding(self, start: int, end: int) -> ModuleImport | None:
        for item in self.imports:
            if item.binding_start == start and item.binding_end == end:
                return item
        return None


def collect_imports(tokens: list[Token], events: list[tuple], prefix_end: int) -> ImportReport:
    """Complete imports ending before the safe prefix, at most MAX_MODULE_IMPORTS."""
    found: list[ModuleImport] = []
    truncated = False
    for event in events:
        if event[0] != IMPORT:
            continue
        _, path, path_start, path_end, binding = event
        if path_end > prefix_end:
            continue
        if len(found) == MAX_MODULE_IMPORTS:
            truncated = True
            continue
        token = tokens[binding]
        found.append(ModuleImport(path, path_start, path_end, token.start, token.end))
    return ImportReport(tuple(found), truncated)
