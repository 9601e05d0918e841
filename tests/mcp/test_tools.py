"""Each `octoscript mcp` tool through the SDK's in-process client, with real values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from octoscript_lsp import reference
from octoscript_lsp.mcp.server import INSTRUCTIONS

from .helpers import call, connected, settings_file, workspace

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "examples" / "project"
TOOL_NAMES = {
    "search_tools",
    "describe_tools",
    "check_script",
    "format_script",
    "review_tool_calls",
    "catalog_status",
    "language_reference",
}


@pytest.fixture
def space(tmp_path):
    return workspace(settings_file(tmp_path))


async def test_tools_are_listed_read_only_closed_world_with_output_schemas(space):
    async with connected(space) as client:
        listed = (await client.list_tools()).tools
        assert {tool.name for tool in listed} == TOOL_NAMES
        for tool in listed:
            hints = tool.annotations
            assert (hints.read_only_hint, hints.idempotent_hint) == (True, True)
            assert (hints.open_world_hint, hints.destructive_hint) == (False, False)
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert client.instructions == INSTRUCTIONS
    for step in ("search", "describe", "write", "check", "fix", "review"):
        assert step in INSTRUCTIONS


async def test_search_tools(space):
    async with connected(space) as client:
        found = await call(client, "search_tools", query="add")
        assert found["hits"] == [
            {
                "id": "math.add",
                "kind": "tool",
                "format": "json",
                "summary": "Adds two integers.",
            }
        ]
        assert found["truncated"] is False
        status = await call(client, "catalog_status")
        assert found["fingerprints"] == {
            "toolCatalog": status["projections"]["toolCatalog"]["fingerprint"],
            "moduleCatalog": status["projections"]["moduleCatalog"]["fingerprint"],
        }
        modules = await call(client, "search_tools", query="forecast")
        assert modules["hits"] == [
            {
                "id": "mod.app.weather.current",
                "kind": "module",
                "callMode": "synchronous",
                "summary": "Current forecast for a place.",
            }
        ]
        some = await call(client, "search_tools", query="o", limit=2)
        assert len(some["hits"]) == 2 and some["truncated"] is True


async def test_describe_tools(space):
    async with connected(space) as client:
        found = await call(
            client, "describe_tools", ids=["mod.app.weather.current", "text.echo", "text.ecko"]
        )
    module, tool = found["found"]
    assert module["kind"] == "module" and module["callShape"] == "single_json"
    assert module["callMode"] == "synchronous"
    assert [(f["name"], f["type"], f["required"]) for f in module["inputFields"]] == [
        ("location", "string", True),
        ("units", "string", False),
    ]
    assert module["inputFields"][0]["description"] == "City."
    assert [f["name"] for f in module["outputFields"]] == ["temperature"]
    assert tool == {
        "id": "text.echo",
        "kind": "tool",
        "description": "Returns the input text unchanged.",
        "format": "text",
        "callMode": None,
        "callShape": None,
        "inputFields": None,
        "outputFields": None,
        "truncated": False,
    }
    assert found["not_found"] == [{"id": "text.ecko", "did_you_mean": ["text.echo"]}]
    assert (found["omitted"], found["truncated"]) == ([], False)


async def test_describe_asks_each_id_once(space):
    async with connected(space) as client:
        found = await call(client, "describe_tools", ids=["math.add", "math.add"])
    assert [entry["id"] for entry in found["found"]] == ["math.add"]


def _cli(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "octoscript_lsp.cli", *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


CHECKED = [
    "use mod.tool\nlet r = tool.call(\"text.ecko\", 'x')\nvar y = [1, 2,]\n",
    'use mod.tool\nlet r = tool.call("math.add", "x")\nlet s = tool.call_json("text.echo", {})\n',
    "let = \nfn f( {\n",
    '// octoscript: ignore[unlisted-tool]\nlet r = tool.call("nope.tool", "x")\n',
]


@pytest.mark.parametrize("source", CHECKED)
async def test_check_script_reports_what_check_reports(tmp_path, source):
    settings = settings_file(tmp_path)
    answer = None
    async with connected(workspace(settings)) as client:
        answer = await call(client, "check_script", source=source, path="flow.octoscript")
    result = _cli(
        "check",
        "--isolated",
        "--settings",
        str(settings),
        "--output-format",
        "json",
        "-",
        "--stdin-filename",
        "flow.octoscript",
        stdin=source,
    )
    report = json.loads(result.stdout)
    expected = [*report["diagnostics"], *report.get("warnings", [])]
    keys = ("line", "column", "end_line", "end_column", "severity", "message", "code")
    assert [{key: item[key] for key in keys} for item in answer["diagnostics"]] == [
        {key: item.get(key) for key in keys} for item in expected
    ]
    assert answer["valid"] == report["valid"] and answer["path"] == "flow.octoscript"
    assert [c["name"] for c in answer["catalogs"] if c["state"] == "valid"] == [
        "toolCatalog",
        "moduleCatalog",
    ]


def _apply(source: str, edits: list[dict]) -> str:
    """The edits (1-based lines and code-point columns) applied, last first."""
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = sorted(
        (
            (offset(e["line"], e["column"]), offset(e["end_line"], e["end_column"]), e["new_text"])
            for e in edits
        ),
        reverse=True,
    )
    for start, end, text in spans:
        source = source[:start] + text + source[end:]
    return source


async def test_check_script_fixes_are_the_edits_check_fix_applies(tmp_path):
    """Check, apply every fix's edits, check again: what `check --fix` writes."""
    source = CHECKED[0]
    settings = settings_file(tmp_path)
    rounds = []
    async with connected(workspace(settings)) as client:
        fixed = source
        for _ in range(8):
            answer = await call(client, "check_script", source=fixed)
            rounds.append(answer)
            edits = [e for d in answer["diagnostics"] for fix in d["fixes"] for e in fix["edits"]]
            if not edits:
                break
            fixed = _apply(fixed, edits)
    # The lexer's finding hides the parser's, and advice waits for valid source.
    assert [d["code"] for d in rounds[0]["diagnostics"]] == ["single-quoted-string"]
    unlisted = rounds[-2]["diagnostics"][0]
    assert (unlisted["code"], unlisted["did_you_mean"]) == ("unlisted-tool", ["text.echo"])
    assert unlisted["fixes"][0]["edits"][0]["new_text"] == '"text.echo"'
    script = tmp_path / "flow.octoscript"
    script.write_text(source, encoding="utf-8")
    _cli("check", "--isolated", "--settings", str(settings), "--fix", str(script))
    assert fixed == script.read_text(encoding="utf-8")
    assert rounds[-1]["diagnostics"] == [] and rounds[-1]["valid"] is True


async def test_check_script_takes_the_project_configuration():
    async with connected(workspace(directory=PROJECT)) as client:
        source = (PROJECT / "flows" / "order.octoscript").read_text(encoding="utf-8")
        answer = await call(client, "check_script", source=source)
        status = await call(client, "catalog_status")
    assert [d["code"] for d in answer["diagnostics"]] == ["unknown-input-field", "unlisted-tool"]
    assert answer["diagnostics"][0]["did_you_mean"] == ["express"]
    assert status["configuration"] == str(PROJECT / "pyproject.toml")
    assert [f["path"] for f in status["catalogFiles"]] == [
        str(PROJECT / "host" / "tools.json"),
        str(PROJECT / "host" / "modules.json"),
    ]


FORMATTED = [
    "fn greet(name){\nreturn name\n}\n",
    "let   x=1",
    'let x = [1,  2]   // a comment\r\nlet y = {a: 1, b: "é"}\n',
    "",
]


@pytest.mark.parametrize("source", FORMATTED)
async def test_format_script_gives_the_bytes_format_stdin_prints(space, source):
    async with connected(space) as client:
        answer = await call(client, "format_script", source=source)
    printed = _cli("format", "-", stdin=source)
    assert printed.returncode == 0
    assert answer["formatted"].encode("utf-8") == printed.stdout
    assert answer["changed"] == (answer["formatted"] != source)


REVIEWED = """use mod.tool
use mod.app.weather
use mod.std.text
let a = tool.call("text.echo", "x")
let b = tool.call("text.ecko", "x")
let c = tool.call("math.add", "x")
let d = tool.call_json(name, {})
let e = weather.current({location: "Lisbon"})
"""


async def test_review_tool_calls_gives_each_site_its_standing(tmp_path):
    modules = [{"path": "mod.app.weather.current", "description": "Forecast."}]
    async with connected(workspace(settings_file(tmp_path, modules=modules))) as client:
        answer = await call(client, "review_tool_calls", source=REVIEWED)
    assert [(c["label"], c["standing"]) for c in answer["tool_calls"]] == [
        ("text.echo", "listed"),
        ("text.ecko", "unlisted"),
        ("math.add", "format-mismatch"),
        ("dynamic", "dynamic"),
    ]
    assert answer["tool_calls"][0]["callee"] == {
        "line": 4,
        "column": 9,
        "start_byte": 58,
        "end_byte": 67,
    }
    modules_called = [(c["label"], c["standing"]) for c in answer["imported_module_calls"]]
    assert ("mod.app.weather.current", "listed") in modules_called
    assert ("mod.tool.call", "built-in") in modules_called
    assert answer["truncated"] is False and answer["valid"] is True


async def test_review_without_a_catalog_says_unknown():
    async with connected(workspace()) as client:
        answer = await call(client, "review_tool_calls", source=REVIEWED)
    assert [c["standing"] for c in answer["tool_calls"]] == [
        "unknown",
        "unknown",
        "unknown",
        "dynamic",
    ]


async def test_catalog_status(tmp_path):
    settings = settings_file(tmp_path, tools=[{"name": "Bad Name", "format": "text"}])
    async with connected(workspace(settings)) as client:
        status = await call(client, "catalog_status")
    assert status["settings"] == str(settings) and status["configuration"] is None
    tools = status["projections"]["toolCatalog"]
    assert tools["state"] == "discarded" and "toolCatalog[0]" in tools["reason"]
    assert tools["source"] == {"kind": "file", "path": str(tmp_path / "catalog.json")}
    modules = status["projections"]["moduleCatalog"]
    assert (modules["state"], modules["entries"]) == ("valid", 2)
    assert modules["fingerprint"].startswith("blake3:")
    assert status["catalogFiles"] == [
        {
            "path": str(tmp_path / "catalog.json"),
            "ok": True,
            "reason": None,
            "projections": ["toolCatalog", "moduleCatalog"],
        }
    ]


async def test_language_reference_and_its_resources(space):
    names = reference.section_names()
    async with connected(space) as client:
        listed = await call(client, "language_reference")
        first = await call(client, "language_reference", section=names[0])
        resources = (await client.list_resources()).resources
        read = await client.read_resource(f"{reference.REFERENCE_URI_PREFIX}{names[0]}")
    assert listed["sections"] == names and listed["text"] is None
    assert first["text"] == reference.section(names[0]) and first["section"] == names[0]
    assert [str(r.uri) for r in resources] == [
        f"{reference.REFERENCE_URI_PREFIX}{name}" for name in names
    ]
    assert read.contents[0].text == reference.section(names[0])
    assert listed["truncated"] is False and first["truncated"] is False


async def test_a_cut_reference_section_says_truncated(space, monkeypatch):
    texts = {"overview": "x\n", "long": "".join(f"line {n}\n" for n in range(100))}
    sections, cut = reference.bounded(texts, 120)
    monkeypatch.setattr(reference, "_SECTIONS", sections)
    monkeypatch.setattr(reference, "_CUT", cut)
    async with connected(space) as client:
        long = await call(client, "language_reference", section="long")
        short = await call(client, "language_reference", section="overview")
    assert long["truncated"] is True and long["text"] == sections["long"]
    assert long["text"].endswith("[cut: this section is longer than 120 bytes]\n")
    assert short["truncated"] is False
