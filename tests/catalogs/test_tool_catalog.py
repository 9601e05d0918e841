"""One case per acceptance/rejection rule of the `toolCatalog` projection."""

from __future__ import annotations

from typing import Any

import pytest

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.model import ToolFormat
from octoscript_lsp.catalogs.tools import parse_tool_catalog
from octoscript_lsp.limits import (
    MAX_TOOL_CATALOG_BYTES,
    MAX_TOOL_CATALOG_ENTRIES,
    MAX_TOOL_DESCRIPTION_BYTES,
    MAX_TOOL_NAME_BYTES,
)
from tests.catalogs.helpers import tool


def _accepts(value: Any) -> bool:
    try:
        parse_tool_catalog(value)
    except CatalogRejected:
        return False
    return True


@pytest.mark.parametrize(
    "name",
    [
        "a",
        "text.echo",
        "files_read",
        "net-get",
        "0",
        "...",
        "-",
        "a" * MAX_TOOL_NAME_BYTES,
        "v2.search",
    ],
)
def test_valid_tool_names(name: str) -> None:
    assert _accepts([tool(name)])


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Text.echo",
        "text echo",
        "text/echo",
        "tëxt",
        "a" * (MAX_TOOL_NAME_BYTES + 1),
        "text.echo\n",
        "tool:x",
        "ÅÅ",
    ],
)
def test_invalid_tool_names(name: str) -> None:
    assert not _accepts([tool(name)])


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_formats(fmt: str) -> None:
    catalog = parse_tool_catalog([tool(fmt=fmt)])
    assert catalog.tools[0].format is ToolFormat(fmt)


@pytest.mark.parametrize("fmt", ["JSON", "Text", "binary", "", None, 1, ["text"]])
def test_bad_formats(fmt: Any) -> None:
    assert not _accepts([tool(fmt=fmt)])


@pytest.mark.parametrize(
    "entry",
    [
        {"format": "text"},
        {"name": "a"},
        {"name": None, "format": "text"},
        {"name": 3, "format": "text"},
        {"name": "a", "format": "text", "description": None},
        {"name": "a", "format": "text", "description": 5},
        {"name": "a", "format": "text", "description": ["x"]},
    ],
)
def test_required_and_typed_keys(entry: dict[str, Any]) -> None:
    assert not _accepts([entry])


@pytest.mark.parametrize("entry", [None, "text.echo", 1, [], True])
def test_entries_must_be_objects(entry: Any) -> None:
    assert not _accepts([entry])


@pytest.mark.parametrize("value", [None, {}, "[]", 0, {"tools": []}])
def test_value_must_be_array(value: Any) -> None:
    assert not _accepts(value)


def test_description_is_optional_and_defaults_empty() -> None:
    catalog = parse_tool_catalog([{"name": "a", "format": "json"}])
    assert catalog.tools[0].description == ""


def test_description_byte_limit_counts_utf8() -> None:
    assert _accepts([tool(description="x" * MAX_TOOL_DESCRIPTION_BYTES)])
    assert not _accepts([tool(description="x" * (MAX_TOOL_DESCRIPTION_BYTES + 1))])
    # 2 bytes per character: fewer characters than the limit, more bytes.
    assert not _accepts([tool(description="é" * (MAX_TOOL_DESCRIPTION_BYTES // 2 + 1))])
    assert _accepts([tool(description="é" * (MAX_TOOL_DESCRIPTION_BYTES // 2))])


def test_lone_surrogate_description_is_rejected() -> None:
    assert not _accepts([tool(description="\ud800")])


def test_duplicate_names_reject() -> None:
    assert not _accepts([tool("a"), tool("b"), tool("a", "json")])


def test_entry_count_limit() -> None:
    entries = [tool(f"t.{i}") for i in range(MAX_TOOL_CATALOG_ENTRIES)]
    assert _accepts(entries)
    assert not _accepts([*entries, tool("t.extra")])


def _catalog_of_size(total: int) -> list[dict[str, Any]]:
    """Tools whose retained bytes (name + description + 1 each) sum to ``total``."""
    entries: list[dict[str, Any]] = []
    remaining = total
    index = 0
    while remaining > 0:
        name = f"t{index:04d}"
        room = min(MAX_TOOL_DESCRIPTION_BYTES, remaining - len(name) - 1)
        entries.append(tool(name, description="d" * room))
        remaining -= len(name) + room + 1
        index += 1
    assert remaining == 0
    return entries


def test_total_retained_bytes_limit() -> None:
    assert _accepts(_catalog_of_size(MAX_TOOL_CATALOG_BYTES))
    assert not _accepts(_catalog_of_size(MAX_TOOL_CATALOG_BYTES + 1))


def test_unknown_properties_ignored() -> None:
    entry = {**tool(), "inputSchema": {"type": "object"}, "limits": [1, 2], "dispatch": None}
    catalog = parse_tool_catalog([entry])
    assert catalog.tools[0].name == "text.echo"


def test_empty_array_is_a_valid_empty_catalog() -> None:
    assert parse_tool_catalog([]).tools == ()


def test_sorted_by_name_and_lookups() -> None:
    catalog = parse_tool_catalog([tool("b", "json"), tool("a"), tool("c")])
    assert [t.name for t in catalog.tools] == ["a", "b", "c"]
    assert [t.name for t in catalog.by_format(ToolFormat.TEXT)] == ["a", "c"]
    assert [t.name for t in catalog.by_format(ToolFormat.JSON)] == ["b"]
    assert catalog.get("b") is not None and catalog.get("z") is None
