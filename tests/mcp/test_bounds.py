"""Every bound of `octoscript mcp`'s inputs and outputs, at and past its limit."""

from __future__ import annotations

from octoscript_lsp.catalogs.fingerprint import canonical_json
from octoscript_lsp.limits import (
    MAX_DESCRIBE_IDS,
    MAX_DESCRIBE_RESULT_BYTES,
    MAX_DESCRIBED_FIELDS,
    MAX_SCRIPT_PATH_BYTES,
    MAX_SEARCH_HITS,
    MAX_SEARCH_QUERY_BYTES,
    MAX_SEARCH_RESULT_BYTES,
    MAX_SECTION_NAME_BYTES,
    MAX_SOURCE_BYTES,
    MAX_SYNTAX_DIAGNOSTICS,
)

from .helpers import call, connected, refused, settings_file, workspace


def _tools(count: int, description: str) -> list[dict]:
    return [
        {"name": f"host.tool{index:03d}", "format": "text", "description": description}
        for index in range(count)
    ]


async def test_120_matching_tools_give_16_hits_within_8_kib_truncated(tmp_path):
    tools = _tools(120, "A host tool that answers in plain text, for every matching query here.")
    async with connected(workspace(settings_file(tmp_path, tools=tools, modules=None))) as client:
        found = await call(client, "search_tools", query="tool")
    assert len(found["hits"]) == MAX_SEARCH_HITS == 16
    assert [hit["id"] for hit in found["hits"]] == [f"host.tool{i:03d}" for i in range(16)]
    assert len(canonical_json(found["hits"])) <= MAX_SEARCH_RESULT_BYTES == 8 * 1024
    assert found["truncated"] is True


async def test_the_byte_bound_cuts_before_the_hit_bound(tmp_path):
    # 160 three-byte characters a summary: 16 hits would need about 9 KiB.
    tools = _tools(40, "\u20ac" * 400)
    async with connected(workspace(settings_file(tmp_path, tools=tools, modules=None))) as client:
        found = await call(client, "search_tools", query="host")
    size = len(canonical_json(found["hits"]))
    assert 0 < len(found["hits"]) < MAX_SEARCH_HITS
    assert MAX_SEARCH_RESULT_BYTES - 600 < size <= MAX_SEARCH_RESULT_BYTES
    assert found["truncated"] is True


async def test_search_limit_and_query_bounds(tmp_path):
    tools = _tools(20, "Text.")
    async with connected(workspace(settings_file(tmp_path, tools=tools, modules=None))) as client:
        assert len((await call(client, "search_tools", query="host", limit=3))["hits"]) == 3
        assert "limit" in await refused(client, "search_tools", query="host", limit=17)
        assert "limit" in await refused(client, "search_tools", query="host", limit=0)
        at_bound = "host " + "x" * (MAX_SEARCH_QUERY_BYTES - 5)
        assert (await call(client, "search_tools", query=at_bound))["hits"] == []
        message = await refused(client, "search_tools", query=at_bound + "x")
        assert f"query exceeds {MAX_SEARCH_QUERY_BYTES} bytes" in message
        assert "query is empty" in await refused(client, "search_tools", query="   ")


async def test_describe_takes_at_most_8_ids(tmp_path):
    tools = _tools(9, "Text.")
    ids = [tool["name"] for tool in tools]
    async with connected(workspace(settings_file(tmp_path, tools=tools, modules=None))) as client:
        found = await call(client, "describe_tools", ids=ids[:MAX_DESCRIBE_IDS])
        assert [entry["id"] for entry in found["found"]] == ids[:8]
        message = await refused(client, "describe_tools", ids=ids)
        assert "9 ids given; at most 8 a call" in message
        assert "ids is empty" in await refused(client, "describe_tools", ids=[])
        long_id = "a" * 257
        assert "257 bytes; at most 256" in await refused(client, "describe_tools", ids=[long_id])


def _module(index: int, fields: int, description: str) -> dict:
    return {
        "path": f"mod.big.m{index}",
        "description": "Big.",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [
            {"name": f"f{n:03d}", "type": "string", "required": False, "description": description}
            for n in range(fields)
        ],
    }


async def test_describe_cuts_fields_past_the_field_bound(tmp_path):
    modules = [_module(0, 200, "A field.")]
    async with connected(workspace(settings_file(tmp_path, tools=[], modules=modules))) as client:
        found = await call(client, "describe_tools", ids=["mod.big.m0"])
    (entry,) = found["found"]
    assert len(entry["inputFields"]) == MAX_DESCRIBED_FIELDS
    assert entry["truncated"] is True and found["truncated"] is True


async def test_describe_keeps_its_answer_within_the_byte_bound(tmp_path):
    modules = [_module(index, 120, "d" * 400) for index in range(8)]
    async with connected(workspace(settings_file(tmp_path, tools=[], modules=modules))) as client:
        found = await call(client, "describe_tools", ids=[m["path"] for m in modules])
    entries = found["found"]
    assert [entry["id"] for entry in entries] == [m["path"] for m in modules]
    assert len(canonical_json(found)) <= MAX_DESCRIBE_RESULT_BYTES
    # The first keeps its fields; the others, which no longer fit, come without them.
    assert len(entries[0]["inputFields"]) == 120 and entries[0]["truncated"] is False
    assert all(entry["inputFields"] is None and entry["truncated"] for entry in entries[1:])
    assert found["truncated"] is True and found["omitted"] == []


async def test_describe_counts_unknown_ids_in_its_byte_bound(tmp_path):
    # One entry that only just fits alone, and seven unknown ids of the longest
    # kind: the entry loses its fields rather than the answer its bound.
    modules = [_module(0, 120, "d" * 460)]
    long_ids = [f"mod.{'x' * 200}{index}" for index in range(MAX_DESCRIBE_IDS - 1)]
    async with connected(workspace(settings_file(tmp_path, tools=[], modules=modules))) as client:
        alone = await call(client, "describe_tools", ids=["mod.big.m0"])
        found = await call(client, "describe_tools", ids=["mod.big.m0", *long_ids])
    assert alone["found"][0]["inputFields"] is not None
    assert len(canonical_json(found)) <= MAX_DESCRIBE_RESULT_BYTES
    assert [item["id"] for item in found["not_found"]] == long_ids
    assert found["found"][0]["inputFields"] is None and found["truncated"] is True


async def test_source_bound(tmp_path):
    at_bound = "// " + "x" * (MAX_SOURCE_BYTES - 3)
    over = at_bound + "x"
    async with connected(workspace(settings_file(tmp_path))) as client:
        answer = await call(client, "check_script", source=at_bound)
        assert answer["valid"] is True and answer["diagnostics"] == []
        for tool in ("check_script", "format_script", "review_tool_calls"):
            message = await refused(client, tool, source=over)
            assert f"source is {MAX_SOURCE_BYTES + 1} bytes" in message
            assert f"at most {MAX_SOURCE_BYTES} bytes" in message
        # Two bytes a character: the bound is in bytes, not characters.
        wide = "// " + "\u00e9" * (MAX_SOURCE_BYTES // 2)
        assert "bytes of UTF-8" in await refused(client, "check_script", source=wide)
        assert "lone surrogate" in await refused(client, "check_script", source="let x = \ud800")


async def test_check_marks_cut_diagnostics(tmp_path):
    source = "".join(f"let = {n}\n" for n in range(MAX_SYNTAX_DIAGNOSTICS + 10))
    async with connected(workspace(settings_file(tmp_path))) as client:
        answer = await call(client, "check_script", source=source)
    assert len(answer["diagnostics"]) == MAX_SYNTAX_DIAGNOSTICS
    assert answer["truncated"] is True


async def test_name_bounds(tmp_path):
    async with connected(workspace(settings_file(tmp_path))) as client:
        path = "p" * MAX_SCRIPT_PATH_BYTES
        assert (await call(client, "check_script", source="", path=path))["path"] == path
        assert "path is 1025 bytes" in await refused(
            client, "check_script", source="", path=path + "p"
        )
        message = await refused(client, "language_reference", section="s" * 65)
        assert f"section is 65 bytes; at most {MAX_SECTION_NAME_BYTES}" in message
