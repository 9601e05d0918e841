"""Checks the settings schema cannot state, shared by the three catalog parsers.

The schema (``catalogs.schema``) has already settled every type and shape
when these run: what is left is UTF-8 byte sizes, retained totals and
duplicates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn


class CatalogRejected(Exception):
    """A projection is malformed, duplicated or over a limit; ``reason`` is a
    fixed phrase and a location, never client-supplied text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def reject(reason: str) -> NoReturn:
    raise CatalogRejected(reason)


def text_bytes(text: str, limit: int, where: str) -> int:
    """The UTF-8 size of ``text``; it must be encodable and at most ``limit``.

    The character count is a lower bound of the byte count, so oversized text
    is refused before any encoding work.
    """
    try:
        size = len(text) if len(text) > limit else len(text.encode("utf-8"))
    except UnicodeEncodeError:
        size = limit + 1
    if size > limit:
        reject(f"{where} exceeds {limit} bytes or is not valid UTF-8")
    return size


class ByteBudget:
    """Running total of retained bytes against one projection-wide limit."""

    def __init__(self, limit: int, label: str) -> None:
        self.limit = limit
        self.label = label
        self.used = 0

    def spend(self, amount: int) -> None:
        self.used += amount
        if self.used > self.limit:
            reject(f"{self.label} exceeds {self.limit} retained bytes")


def named_field(
    entry: dict[str, Any], where: str, budget: ByteBudget, description_limit: int
) -> dict[str, Any]:
    """A module or workflow field's name, type and description, paid for."""
    name, field_type = entry["name"], entry["type"]
    description = entry.get("description", "")
    size = text_bytes(description, description_limit, f"{where}.description")
    budget.spend(len(name) + len(field_type) + size + 1)
    return {"name": name, "type": field_type, "description": description}


def unique_named(
    entries: list[Any],
    where: str,
    parse_entry: Callable[[object, str], dict[str, Any]],
    key: str = "name",
    noun: str = "field",
    sort: bool = True,
) -> list[dict[str, Any]]:
    """Parse each entry; reject a repeated `key`; return them (sorted by it)."""
    seen: set[Any] = set()
    parsed: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        item = parse_entry(entry, f"{where}[{index}]")
        if item[key] in seen:
            reject(f"{where}[{index}].{key} duplicates an earlier {noun}")
        seen.add(item[key])
        parsed.append(item)
    if sort:
        parsed.sort(key=lambda item: item[key])
    return parsed
