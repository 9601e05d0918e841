"""Ranking, bounds and validation of `search_tools`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from octoscript_lsp.catalogs.search import InvalidSearchQuery, search_tools
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.limits import (
    MAX_SEARCH_HITS,
    MAX_SEARCH_QUERY_BYTES,
    MAX_SEARCH_RESULT_BYTES,
    MAX_SEARCH_SUMMARY_CHARS,
)
from tests.catalogs.helpers import tool, weather


def _store(tools: list[dict[str, Any]] | None = None, modules: Any = None) -> CatalogStore:
    section: dict[str, Any] = {}
    if tools is not None:
        section["toolCatalog"] = tools
    if modules is not None:
        section["moduleCatalog"] = modules
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": section})
    return store


def _ids(result: dict[str, Any]) -> list[str]:
    return [hit["id"] for hit in result["tools"]]


def test_forty_services_truncate_at_sixteen() -> None:
    tools = [tool(f"service.{i}", description=f"Service number {i}.") for i in range(40)]
    result = search_tools(_store(tools), "service")
    assert len(result["tools"]) == MAX_SEARCH_HITS
    assert result["truncated"] is True
    assert _ids(result) == sorted(_ids(result))  # same class: ordered by id


def test_rank_exact_then_prefix_then_substring_then_description() -> None:
    tools = [
        tool("zz.other", description="Talks to the echo service."),
        tool("text.echo"),
        tool("echo.loud"),
        tool("echo"),
        tool("a.echoes"),
    ]
    result = search_tools(_store(tools), "ECHO")
    assert _ids(result) == ["echo", "echo.loud", "a.echoes", "text.echo", "zz.other"]
    assert result["truncated"] is False


def test_all_keywords_must_match() -> None:
    tools = [tool("math.add", "json", "Adds two integers."), tool("math.sub", "json", "Subtracts.")]
    assert _ids(search_tools(_store(tools), "math  integers")) == ["math.add"]
    assert _ids(search_tools(_store(tools), "math\tnothing")) == []


def test_multi_keyword_ranking_by_worst_class() -> None:
    tools = [
        tool("files.read", description="Reads a file."),
        tool("read.files", description="Other."),
    ]
    # "read": substring vs prefix; "files": prefix vs substring -> tie on worst class,
    # tie on sum, so id order decides.
    assert _ids(search_tools(_store(tools), "read files")) == ["files.read", "read.files"]
    # "reads" only in a description: worst class 3 for files.read.
    assert _ids(search_tools(_store(tools), "files reads")) == ["files.read"]


def test_hit_shape_and_modules() -> None:
    store = _store([tool("text.echo", "text", "Echo text.")], weather())
    result = search_tools(store, "weather")
    assert _ids(result) == ["mod.app.weather", "mod.app.weather.current", "mod.app.weather.ping"]
    current = result["tools"][1]
    assert current == {
        "id": "mod.app.weather.current",
        "kind": "module",
        "callMode": "deferred",
        "summary": "Current forecast.",
    }
    assert "callMode" not in result["tools"][0]
    echo = search_tools(store, "echo")["tools"][0]
    assert echo == {"id": "text.echo", "kind": "tool", "format": "text", "summary": "Echo text."}


def test_never_returns_fields_or_schemas() -> None:
    result = search_tools(_store(None, weather()), "mod")
    for hit in result["tools"]:
        assert set(hit) <= {"id", "kind", "format", "callMode", "summary"}


def test_inferred_namespaces_are_not_hits() -> None:
    result = search_tools(_store(None, [{"path": "mod.deep.leaf"}]), "deep")
    assert _ids(result) == ["mod.deep.leaf"]


def test_summary_cut_and_collapsed() -> None:
    long = "word  \n " * 100
    hit = search_tools(_store([tool("a", description=long)]), "a")["tools"][0]
    assert len(hit["summary"]) == MAX_SEARCH_SUMMARY_CHARS
    assert hit["summary"].endswith("\u2026") and "\n" not in hit["summary"]
    exact = "x" * MAX_SEARCH_SUMMARY_CHARS
    assert search_tools(_store([tool("a", description=exact)]), "a")["tools"][0]["summary"] == exact


def test_byte_budget_truncates() -> None:
    description = "\U0001f600" * 1000  # 160 characters kept, 4 bytes each
    tools = [tool(f"t{i:02d}." + "n" * 100, description=description) for i in range(40)]
    result = search_tools(_store(tools), "t")
    size = len(json.dumps(result["tools"], separators=(",", ":"), ensure_ascii=False).encode())
    assert size <= MAX_SEARCH_RESULT_BYTES
    assert len(result["tools"]) < MAX_SEARCH_HITS and result["truncated"] is True


@pytest.mark.parametrize(("limit", "count"), [(1, 1), (5, 5), (0, 1), (-3, 1), (100, 16)])
def test_limit_clamped(limit: int, count: int) -> None:
    tools = [tool(f"s.{i}") for i in range(20)]
    result = search_tools(_store(tools), "s", limit)
    assert len(result["tools"]) == count and result["truncated"] is True


def test_limit_equal_to_matches_is_not_truncated() -> None:
    tools = [tool(f"s.{i}") for i in range(3)]
    assert search_tools(_store(tools), "s", 3)["truncated"] is False


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        "\n\t",
        "x" * (MAX_SEARCH_QUERY_BYTES + 1),
        "é" * (MAX_SEARCH_QUERY_BYTES // 2 + 1),
        None,
        3,
        ["a"],
        "\ud800",
    ],
)
def test_invalid_queries(query: Any) -> None:
    with pytest.raises(InvalidSearchQuery):
        search_tools(_store([tool()]), query)
    assert issubclass(InvalidSearchQuery, ValueError)


@pytest.mark.parametrize("limit", ["3", 2.5, True])
def test_invalid_limit(limit: Any) -> None:
    with pytest.raises(InvalidSearchQuery):
        search_tools(_store([tool()]), "a", limit)


def test_query_at_byte_limit_is_fine() -> None:
    assert search_tools(_store([tool()]), "x" * MAX_SEARCH_QUERY_BYTES)["tools"] == []


def test_generation_is_sum_and_unavailable_catalogs_are_empty() -> None:
    store = _store([tool("text.echo")], weather())
    assert search_tools(store, "e")["generation"] == 2
    store.apply_settings({"octoscript": {"toolCatalog": None}})
    result = search_tools(store, "echo")
    assert result == {"generation": 3, "truncated": False, "tools": []}
    assert search_tools(CatalogStore(), "echo")["generation"] == 0


def test_deterministic() -> None:
    tools = [tool(f"service.{i}", description="svc") for i in range(40)]
    assert search_tools(_store(tools), "svc") == search_tools(_store(list(reversed(tools))), "svc")
