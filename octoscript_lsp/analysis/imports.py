"""`use mod.a.b` records: the path, its span and the binding it introduces.

Found per statement by `statement_facts`, which also applies the prefix and
the MAX_MODULE_IMPORTS budget (`import_report`).
"""

from __future__ import annotations

from dataclasses import dataclass


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
