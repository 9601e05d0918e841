"""Both programs as a user runs them: real files and exit codes, through real
subprocesses for the entry points, streams and in-place writes; the checks of
what `check` and `catalog check` print run in this process (`tests/cli/invoke.py`)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from octoscript_lsp import __version__
from tests.cli.invoke import run as invoke

ECHO_SETTINGS = {"toolCatalog": [{"name": "text.echo", "format": "text"}]}
ECKO_SCRIPT = 'use mod.tool\nlet r = tool.call("text.ecko", "x")\n'
MESSY = "fn greet(name){\nreturn name\n}\n"
CANONICAL = "fn greet(name) {\n    return name\n}\n"


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "octoscript_lsp.cli", *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def out(result: subprocess.CompletedProcess) -> str:
    return result.stdout.decode("utf-8")


def err(result: subprocess.CompletedProcess) -> str:
    return result.stderr.decode("utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project: sources at two depths, a hidden directory, unrelated files."""
    (tmp_path / "a.octoscript").write_text("let a = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.octo").write_text("let b = 'x'\n")
    (tmp_path / "sub" / "notes.txt").write_text("let if = 1\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.octoscript").write_text("var c = 1\n")
    return tmp_path


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(ECHO_SETTINGS))
    return path


# ------------------------------------------------------------------- check


def test_check_directory_text_output(tree: Path) -> None:
    result = invoke("check", ".", cwd=tree)
    assert result.returncode == 1
    assert out(result) == (
        "sub/b.octo:1:9: error: only double-quoted strings are part of canonical Octoscript"
        " [single-quoted-string]\n"
        "checked 2 files: 1 error, 0 warnings\n"
    )
    assert err(result) == ""


def test_check_clean_file_exits_0(tree: Path) -> None:
    result = invoke("check", "a.octoscript", cwd=tree)
    assert (result.returncode, out(result)) == (0, "checked 1 file: 0 errors, 0 warnings\n")


def test_check_json_lines_keep_todays_shape(tree: Path) -> None:
    result = invoke("check", "--output-format", "json", "a.octoscript", "sub", cwd=tree)
    assert result.returncode == 1
    reports = [json.loads(line) for line in out(result).splitlines()]
    assert reports[0] == {
        "path": "a.octoscript",
        "valid": True,
        "diagnostics": [],
        "diagnostics_truncated": False,
    }
    assert reports[1]["path"] == os.path.join("sub", "b.octo")
    assert reports[1]["diagnostics"][0]["line"] == 1 and reports[1]["valid"] is False


def test_check_github_annotations(tree: Path) -> None:
    result = invoke("check", "--output-format", "github", "sub", cwd=tree)
    assert result.returncode == 1
    assert out(result) == (
        "::error file=sub/b.octo,line=1,col=9,endLine=1,endColumn=9,"
        "title=octoscript single-quoted-string"
        "::only double-quoted strings are part of canonical Octoscript\n"
    )


def test_check_stdin_with_filename() -> None:
    result = run("check", "-", "--stdin-filename", "flows/x.octoscript", stdin="let = 1\n")
    assert result.returncode == 1
    assert out(result).startswith("flows/x.octoscript:1:5: error: ")


def test_check_unreadable_file_exits_2(tree: Path) -> None:
    result = run("check", "a.octoscript", "missing.octoscript", cwd=tree)
    assert result.returncode == 2
    assert "cannot read missing.octoscript" in err(result)
    assert out(result).endswith("checked 1 file: 0 errors, 0 warnings, 1 unreadable\n")


def test_check_usage_error_exits_2() -> None:
    assert run("check", "--no-such-option").returncode == 2
    assert run("check", "--output-format", "xml", "x").returncode == 2


def test_check_with_settings_warns_at_the_literal(tmp_path: Path, settings: Path) -> None:
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 0
    assert out(result) == (
        f"{script}:2:19: warning: the tool catalog does not list `text.ecko`; "
        "did you mean `text.echo`? [unlisted-tool]\n"
        "checked 1 file: 0 errors, 1 warning\n"
    )
    strict = invoke("check", "--strict", "--settings", str(settings), str(script))
    assert strict.returncode == 1
    assert "2:19: warning" in out(strict)


def test_check_settings_warnings_in_json(tmp_path: Path, settings: Path) -> None:
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--output-format", "json", "--settings", str(settings), str(script))
    (report,) = [json.loads(line) for line in out(result).splitlines()]
    assert report["warnings"] == [
        {
            "line": 2,
            "column": 19,
            "end_line": 2,
            "end_column": 30,
            "severity": "warning",
            "message": "the tool catalog does not list `text.ecko`; did you mean `text.echo`?",
            "code": "unlisted-tool",
        }
    ]


def test_check_announces_a_discarded_projection(tmp_path: Path) -> None:
    settings = tmp_path / "bad.json"
    settings.write_text(json.dumps({"toolCatalog": [{"name": "A", "format": "text"}]}))
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 0
    assert "toolCatalog discarded: toolCatalog[0].name" in err(result)
    # No advice from a discarded catalog: only the summary line.
    assert out(result) == "checked 1 file: 0 errors, 0 warnings\n"
    assert invoke("check", "--strict", "--settings", str(settings), str(script)).returncode == 1


def test_check_reads_an_editor_settings_object_as_the_object_inside(tmp_path: Path) -> None:
    settings = tmp_path / "editor.json"
    settings.write_text(json.dumps({"octoscript": ECHO_SETTINGS}))
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 0 and err(result) == ""
    assert "[unlisted-tool]" in out(result)


def test_check_reads_a_hosts_bare_tool_catalog(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.json"
    host_entry = {"name": "text.echo", "format": "text", "dispatch": "sync", "max_attempts": 1}
    catalog.write_text(json.dumps([host_entry]))
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(catalog), str(script))
    assert result.returncode == 0 and "[unlisted-tool]" in out(result)
    calls = json.loads(out(invoke("tool-calls", "--settings", str(catalog), str(script))))
    assert [call["catalog"] for call in calls["tool_calls"]] == ["unlisted"]


def test_check_warns_about_a_settings_file_with_no_catalog_keys(tmp_path: Path) -> None:
    settings = tmp_path / "editor.json"
    settings.write_text(json.dumps({"completion": {}}))
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 0
    assert "no toolCatalog, moduleCatalog or workflow keys" in err(result)
    assert out(result) == "checked 1 file: 0 errors, 0 warnings\n"


def test_an_unknown_settings_key_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    settings = tmp_path / "host.json"
    settings.write_text(json.dumps({"toolCatalogs": ECHO_SETTINGS["toolCatalog"]}))
    script = tmp_path / "s.octoscript"
    script.write_text(ECKO_SCRIPT)
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 2
    assert err(result) == (
        f'octoscript: cannot read {settings}: unknown key "toolCatalogs" '
        '(did you mean "toolCatalog"?)\n'
    )
    assert invoke("catalog", "check", str(settings)).returncode == 2


def test_check_settings_file_not_json_exits_2(tmp_path: Path) -> None:
    settings = tmp_path / "s.json"
    settings.write_text("[1, 2")
    script = tmp_path / "s.octoscript"
    script.write_text("let a = 1\n")
    result = invoke("check", "--settings", str(settings), str(script))
    assert result.returncode == 2
    assert "not valid JSON: Expecting ',' delimiter at line 1, column 6" in err(result)


# -------------------------------------------------------------- tool-calls


def test_tool_calls_report_catalog_status(tmp_path: Path, settings: Path) -> None:
    script = tmp_path / "s.octoscript"
    script.write_text(
        ECKO_SCRIPT + 'tool.call("text.echo", "y")\ntool.call_json("text.echo", {})\n'
    )
    result = invoke("tool-calls", "--settings", str(settings), str(script))
    assert result.returncode == 0
    (report,) = [json.loads(line) for line in out(result).splitlines()]
    assert [call["catalog"] for call in report["tool_calls"]] == [
        "unlisted",
        "listed",
        "format-mismatch",
    ]
    unknown = json.loads(out(invoke("tool-calls", str(script))))
    assert {call["catalog"] for call in unknown["tool_calls"]} == {"unknown"}


# ----------------------------------------------------------- catalog check


def test_catalog_check_duplicate_tool_is_discarded(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    tools = [{"name": "text.echo", "format": "text"}, {"name": "text.echo", "format": "json"}]
    path.write_text(json.dumps({"toolCatalog": tools, "moduleCatalog": [{"path": "mod.app"}]}))
    result = invoke("catalog", "check", str(path))
    assert result.returncode == 1
    lines = out(result).splitlines()
    assert (
        lines[0]
        == f"{path}: toolCatalog: discarded: toolCatalog[1].name duplicates an earlier tool"
    )
    assert lines[1].startswith(f"{path}: moduleCatalog: valid, 1 entry, blake3:")
    assert lines[2] == f"{path}: workflowData: absent"


def test_catalog_check_valid_json_output(settings: Path) -> None:
    result = invoke("catalog", "check", "--output-format", "json", str(settings))
    assert result.returncode == 0
    report = json.loads(out(result))
    assert report["toolCatalog"]["state"] == "valid" and report["toolCatalog"]["entries"] == 1
    assert report["toolCatalog"]["fingerprint"].startswith("blake3:")
    assert "generation" not in report["toolCatalog"]
    again = json.loads(out(invoke("catalog", "check", "--output-format", "json", str(settings))))
    assert again["toolCatalog"]["fingerprint"] == report["toolCatalog"]["fingerprint"]


def test_catalog_check_unreadable_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "number.json"
    path.write_text("3")
    result = invoke("catalog", "check", str(path))
    assert result.returncode == 2 and "must hold a JSON object or a JSON array" in err(result)
    assert invoke("catalog", "check", str(tmp_path / "missing.json")).returncode == 2


def test_catalog_check_says_what_each_catalog_file_gives(tmp_path: Path) -> None:
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "tools.json").write_text(json.dumps(ECHO_SETTINGS["toolCatalog"]))
    (tmp_path / "host" / "modules.json").write_text(
        json.dumps({"moduleCatalog": [{"path": "mod.app"}]})
    )
    settings = tmp_path / "settings.json"
    files = ["host/tools.json", "host/modules.json", "host/gone.json"]
    settings.write_text(json.dumps({"catalogFiles": files}))
    result = invoke("catalog", "check", str(settings))
    assert result.returncode == 1  # a named file could not be read
    host = tmp_path / "host"
    lines = out(result).splitlines()
    assert lines[0].startswith(f"{settings}: toolCatalog: valid, 1 entry, blake3:")
    assert lines[0].endswith(f" (from {host / 'tools.json'})")
    assert lines[1].endswith(f" (from {host / 'modules.json'})")
    assert lines[3:] == [
        f"{settings}: catalog file {host / 'tools.json'}: gives toolCatalog",
        f"{settings}: catalog file {host / 'modules.json'}: gives moduleCatalog",
        f"{settings}: catalog file {host / 'gone.json'}: not read: No such file or directory",
    ]
    report = json.loads(out(invoke("catalog", "check", "--output-format", "json", str(settings))))
    assert report["toolCatalog"]["source"] == {"kind": "file", "path": str(host / "tools.json")}
    assert [file["ok"] for file in report["catalogFiles"]] == [True, True, False]


def test_the_example_host_project_works_as_its_readme_says() -> None:
    project = Path(__file__).resolve().parents[2] / "examples" / "project"
    checked = run("catalog", "check", "host.json", cwd=project)
    assert checked.returncode == 0, err(checked)
    assert out(checked).splitlines()[3:] == [
        "host.json: catalog file host/tools.json: gives toolCatalog",
        "host.json: catalog file host/modules.json: gives moduleCatalog",
    ]
    strict = run("check", "--settings", "host.json", "--strict", "flows/", cwd=project)
    assert strict.returncode == 1
    assert out(strict).splitlines()[-2:] == [
        "flows/typo.octoscript:4:22: warning: the tool catalog does not list `text.ecko`; "
        "did you mean `text.echo`? [unlisted-tool]",
        "checked 3 files: 0 errors, 3 warnings",
    ]


# ------------------------------------------------------------------ format


def test_format_rewrites_in_place_atomically_keeping_mode(tmp_path: Path) -> None:
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    path.chmod(0o640)
    inode = path.stat().st_ino
    result = run("format", str(tmp_path))
    assert result.returncode == 0
    assert err(result) == f"reformatted {path}\n1 file reformatted, 0 files left unchanged\n"
    assert path.read_text() == CANONICAL
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.stat().st_ino != inode  # a new file renamed over the old one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.octoscript"]  # no temporaries left


def test_format_check_and_diff_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    check = run("format", "--check", str(path))
    assert (check.returncode, err(check).splitlines()) == (
        1,
        [f"would reformat {path}", "1 file would be reformatted, 0 files already formatted"],
    )
    diff = run("format", "--diff", str(path))
    assert diff.returncode == 1
    assert "\n-return name\n+fn greet(name) {\n+    return name\n }\n" in out(diff)
    assert path.read_text() == MESSY
    path.write_text(CANONICAL)
    assert run("format", "--check", str(path)).returncode == 0
    assert (
        run("format", "--diff", str(path)).returncode,
        out(run("format", "--diff", str(path))),
    ) == (0, "")


def test_format_stdin_to_stdout() -> None:
    result = run("format", "-", stdin=MESSY)
    assert (result.returncode, out(result)) == (0, CANONICAL)


def test_format_invalid_source_exits_2_untouched(tmp_path: Path) -> None:
    path = tmp_path / "bad.octoscript"
    path.write_text("var a = 1\n")
    result = run("format", str(path))
    assert result.returncode == 2
    assert f"{path}:1:1: error:" in err(result)
    assert path.read_text() == "var a = 1\n"
    assert run("format", "--check", str(path)).returncode == 2


# -------------------------------------------------------- both programs


def test_octoscript_version_and_help() -> None:
    version = run("--version")
    assert (version.returncode, out(version)) == (0, f"octoscript {__version__}\n")
    help_text = run("--help")
    assert help_text.returncode == 0
    for command in ("check", "format", "outline", "tool-calls", "catalog"):
        assert command in out(help_text)
    assert run().returncode == 2


def server(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "octoscript_lsp", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def _message(body: dict) -> bytes:
    data = json.dumps(body).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def test_server_version_help_and_unknown_options() -> None:
    version = server("--version")
    assert (version.returncode, out(version)) == (0, f"octoscript-lsp {__version__}\n")
    help_text = server("--help")
    assert help_text.returncode == 0
    for option in ("--stdio", "--log-file", "--log-level"):
        assert option in out(help_text)
    bad = server("--tcp")
    assert bad.returncode == 2 and "unrecognized arguments: --tcp" in err(bad)
    assert server("--log-level", "loud").returncode == 2


def test_server_log_file_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    result = server("--log-file", str(tmp_path / "missing" / "server.log"))
    assert result.returncode == 2
    assert "cannot open the log file" in err(result)
    assert "Traceback" not in err(result)


def test_server_runs_with_stdio_and_logs_to_a_file(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    session = _message({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}) + _message(
        {"jsonrpc": "2.0", "method": "exit"}
    )
    result = server(
        "--stdio",
        "--clientProcessId=4242",
        "--log-file",
        str(log),
        "--log-level",
        "INFO",
        stdin=session,
    )
    assert result.returncode == 0
    assert b'"id": 1' in result.stdout and b'"result": null' in result.stdout
    assert "Starting" in log.read_text()
    assert err(result) == ""


def test_check_module_advice_in_source_order(tmp_path: Path) -> None:
    settings = tmp_path / "host.json"
    weather = {
        "path": "mod.app.weather.current",
        "callMode": "deferred",
        "callShape": "single_json",
        "inputFields": [{"name": "city", "type": "string", "required": True}],
    }
    settings.write_text(
        json.dumps({**ECHO_SETTINGS, "moduleCatalog": [{"path": "mod.app"}, weather]})
    )
    script = tmp_path / "m.octoscript"
    script.write_text(
        "use mod.tool\nuse mod.app.weather\n"
        'let a = tool.call_json("text.echo", {})\n'
        'let f = weather.current({town: "x"}).await()\n'
        "let g = weather.forecast({}).await()\n"
    )
    result = invoke("check", "--settings", "host.json", "m.octoscript", cwd=tmp_path)
    assert result.returncode == 0
    assert out(result) == (
        "m.octoscript:3:24: warning: `text.echo` is not listed with the json format that "
        "tool.call_json uses; did you mean `tool.call`? [tool-format-mismatch]\n"
        "m.octoscript:4:9: warning: missing required input field `city` [missing-input-field]\n"
        "m.octoscript:4:26: warning: `town` is not an input field of this call "
        "[unknown-input-field]\n"
        "m.octoscript:5:9: info: the module catalog does not list mod.app.weather.forecast "
        "[unlisted-module-member]\n"
        "checked 1 file: 0 errors, 3 warnings, 1 info\n"
    )
