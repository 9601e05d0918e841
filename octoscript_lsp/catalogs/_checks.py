"""Checks the settings schema cannot state, shared by the three catalog parsers.

The schema (``catalogs.schema``) has already settled every type and shape
when these run: what is left is UTF-8 byte sizes, retained totals and
duplicates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn


class CatalogRejected(Exception):
    """A supplied projection is malformed, duplicated or over a limit.

    ``reason`` is a short fixed phrase plus a location; it never echoes
    client-supplied text.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def reject(reason: str) -> NoReturn:
    raise CatalogRejected(reason)


def utf8_len_within(text: str, limit: int) -> int | None:
    """UTF-8 length of ``text`` if it is encodable and at most ``limit``.

    Character count is a lower bound of the byte count, so oversized text is
    refused before any encoding work.
    """
    if len(text) > limit:
        return None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return None
    return size if size <= limit else None


def text_bytes(text: str, limit: int, where: str) -> int:
    size = utf8_len_within(text, limit)
    if size is None:
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
