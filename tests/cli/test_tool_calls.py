"""`octoscript tool-calls`: one JSON object per file, exit codes, byte spans."""

from __future__ import annotations

import json

import pytest

from octoscript_lsp.cli import main
from octoscript_lsp.limits import MAX_SOURCE_BYTES

KEYS = {
    "path",
    "valid",
    "diagnostics",
    "diagnostics_truncated",
    "tool_calls",
    "tool_calls_truncated",
    "imported_module_calls",
    "imported_module_calls_truncated",
}

SCRIPT = (
    "use mod.tool\n"
    "use mod.app.weather\n"
    "let forecast = weather\n"
    'let text = tool.call("text.echo", "hi")\n'
    "tool.start_json(name, {})\n"
    'forecast.current({city: "Zürich"}).await()\n'
)


@pytest.fixture
def write(tmp_path):
    def make(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return str(path)

    return make


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line]


def test_valid_file_reports_both_hint_lists(write, capsys):
    path = write("ok.octoscript", SCRIPT)
    assert main(["tool-calls", path]) == 0
    (report,) = lines(capsys.readouterr().out)
    assert set(report) == KEYS
    assert report["path"] == path and report["valid"] is True
    assert report["diagnostics"] == [] and report["diagnostics_truncated"] is False
    assert report["tool_calls"] == [
        {
            "callee": {"line": 4, "column": 12, "start_byte": 67, "end_byte": 76},
            "kind": "call",
            "name": {"kind": "literal", "value": "text.echo", "start_byte": 77, "end_byte": 88},
            "label": "text.echo",
            "catalog": "unknown",
        },
        {
            "callee": {"line": 5, "column": 1, "start_byte": 96, "end_byte": 111},
            "kind": "start_json",
            "name": {"kind": "dynamic"},
            "label": "dynamic",
            "catalog": "unknown",
        },
    ]
    assert report["tool_calls_truncated"] is False
    assert report["imported_module_calls"] == [
        {
            "callee": {"line": 4, "column": 12, "start_byte": 67, "end_byte": 76},
            "module_path": ["mod", "tool"],
            "method": "call",
            "label": "mod.tool.call",
        },
        {
            "callee": {"line": 5, "column": 1, "start_byte": 96, "end_byte": 111},
            "module_path": ["mod", "tool"],
            "method": "start_json",
            "label": "mod.tool.start_json",
        },
        {
            "callee": {"line": 6, "column": 1, "start_byte": 122, "end_byte": 138},
            "module_path": ["mod", "app", "weather"],
            "method": "current",
            "label": "mod.app.weather.current",
        },
    ]
    assert report["imported_module_calls_truncated"] is False


def test_byte_offsets_count_utf8_after_non_ascii_text(write, capsys):
    source = '// ünï 😀\nuse mod.tool\ntool.call("😀")\n'
    path = write("utf8.octoscript", source)
    assert main(["tool-calls", path]) == 0
    (report,) = lines(capsys.readouterr().out)
    (hint,) = report["tool_calls"]
    data = source.encode("utf-8")
    callee, name = hint["callee"], hint["name"]
    assert data[callee["start_byte"] : callee["end_byte"]] == b"tool.call"
    assert data[name["start_byte"] : name["end_byte"]] == '"😀"'.encode()
    # An invalid tool name is never echoed: no value, only the digest label.
    assert name["value"] is None
    assert hint["label"].startswith("blake3:") and "😀" not in hint["label"]
    assert "😀" not in json.dumps(report, ensure_ascii=False).split('"tool_calls"')[1]


def test_invalid_source_prints_diagnostics_and_empty_lists(write, capsys):
    path = write("bad.octoscript", 'use mod.tool\ntool.call("a")\nvar x = 1\n')
    assert main(["tool-calls", path]) == 1
    (report,) = lines(capsys.readouterr().out)
    assert set(report) == KEYS
    assert report["valid"] is False
    assert report["diagnostics"] and set(report["diagnostics"][0]) == {
        "line",
        "column",
        "end_line",
        "end_column",
        "severity",
        "message",
        "code",
    }
    assert report["tool_calls"] == [] and report["tool_calls_truncated"] is False
    assert report["imported_module_calls"] == []
    assert report["imported_module_calls_truncated"] is False


def test_one_line_per_file_and_truncation_flags(write, capsys):
    many = "use mod.tool\n" + 'tool.call("x")\n' * 1030
    first = write("many.octoscript", many)
    second = write("one.octoscript", 'tool.call("y")\n')
    assert main(["tool-calls", first, second]) == 0
    big, small = lines(capsys.readouterr().out)
    assert len(big["tool_calls"]) == 1024 and big["tool_calls_truncated"] is True
    assert len(big["imported_module_calls"]) == 1024
    assert big["imported_module_calls_truncated"] is True
    assert small["path"] == second and len(small["tool_calls"]) == 1
    assert small["imported_module_calls"] == []


def test_unreadable_inputs_exit_2(write, tmp_path, capsys):
    assert main(["tool-calls", str(tmp_path / "missing.octoscript")]) == 2
    oversized = write("big.octoscript", b"a" * (MAX_SOURCE_BYTES + 1))
    assert main(["tool-calls", oversized]) == 2
    not_utf8 = write("latin.octoscript", b'let a = "\xff"\n')
    assert main(["tool-calls", not_utf8]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("cannot read") == 3
