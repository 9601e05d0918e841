"""Output formats and small print: SARIF against the published 2.1.0 schema, JSON
fields, a command's own usage, format's summary, --stdin-filename, --quiet."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tests.cli.invoke import run
from tests.cli.test_end_to_end import err, out

SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json"
SETTINGS = {"toolCatalog": [{"name": "text.echo", "format": "text"}]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "host.json").write_text(json.dumps(SETTINGS))
    (tmp_path / "ok.octoscript").write_text("let a = 1\n")
    (tmp_path / "bad.octoscript").write_text("let a = [1,]\n")
    (tmp_path / "w é.octoscript").write_text('use mod.tool\ntool.call("text.ecko", "x")\n')
    (tmp_path / "broken.octoscript").write_bytes(b"\xff\n")
    return tmp_path


def test_sarif_validates_against_the_published_schema(project: Path) -> None:
    result = run("check", "--output-format", "sarif", "--settings", "host.json", cwd=project)
    assert result.returncode == 2  # the unreadable file
    log = json.loads(out(result))
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)
    (sarif_run,) = log["runs"]
    assert log["version"] == "2.1.0"
    assert sarif_run["columnKind"] == "unicodeCodePoints"
    assert [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]] == [
        "trailing-comma",
        "unlisted-tool",
    ]
    assert [
        (
            item["ruleId"],
            item["level"],
            item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            item["locations"][0]["physicalLocation"]["region"],
        )
        for item in sarif_run["results"]
    ] == [
        (
            "trailing-comma",
            "error",
            "bad.octoscript",
            {"startLine": 1, "startColumn": 12, "endLine": 1, "endColumn": 12},
        ),
        (
            "unlisted-tool",
            "warning",
            "w%20%C3%A9.octoscript",
            {"startLine": 2, "startColumn": 11, "endLine": 2, "endColumn": 22},
        ),
    ]
    assert "did you mean `text.echo`?" in sarif_run["results"][1]["message"]["text"]
    (invocation,) = sarif_run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert "broken.octoscript" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_of_a_clean_run(tmp_path: Path) -> None:
    (tmp_path / "ok.octoscript").write_text("let a = 1\n")
    result = run("check", "--output-format", "sarif", cwd=tmp_path)
    log = json.loads(out(result))
    jsonschema.validate(log, json.loads(SCHEMA.read_text()), cls=jsonschema.Draft7Validator)
    assert (result.returncode, log["runs"][0]["results"]) == (0, [])


ITEM_KEYS = {"line", "column", "end_line", "end_column", "severity", "message", "code"}


def test_every_json_output_carries_code_severity_and_end(project: Path) -> None:
    for command in (
        ["check", "--output-format", "json", "--settings", "host.json"],
        ["outline"],
        ["tool-calls", "--settings", "host.json"],
    ):
        result = run(*command, "bad.octoscript", "w é.octoscript", cwd=project)
        reports = [json.loads(line) for line in out(result).splitlines()]
        items = [item for report in reports for item in report["diagnostics"]]
        items += [item for report in reports for item in report.get("warnings", [])]
        assert items, command
        assert all(set(item) == ITEM_KEYS for item in items), command


def test_format_error_lines_carry_the_code(project: Path) -> None:
    result = run("format", "bad.octoscript", cwd=project)
    assert err(result) == (
        "bad.octoscript:1:12: error: trailing commas are not part of the canonical array "
        "grammar [trailing-comma]\n"
        "bad.octoscript: invalid source left unformatted\n"
        "0 files reformatted, 0 files left unchanged, 1 file could not be formatted\n"
    )


def test_a_bad_option_prints_the_commands_own_usage(tmp_path: Path) -> None:
    result = run("check", "--bogus", cwd=tmp_path)
    assert result.returncode == 2
    assert err(result).startswith("usage: octoscript check ")
    assert "unrecognized arguments: --bogus" in err(result)
    fmt = run("format", "--bogus", cwd=tmp_path)
    assert err(fmt).startswith("usage: octoscript format ")
    catalog = run("catalog", "check", "x.json", "--bogus", cwd=tmp_path)
    assert err(catalog).startswith("usage: octoscript catalog check ")


def test_check_alone_checks_the_current_folder(project: Path) -> None:
    result = run("check", cwd=project)
    assert out(result).endswith("checked 3 files: 1 error, 0 warnings, 1 unreadable\n")


def test_format_summary_quiet_and_stdin_filename(tmp_path: Path) -> None:
    (tmp_path / "a.octoscript").write_text("let a=1\n")
    (tmp_path / "b.octoscript").write_text("let b = 1\n")
    (tmp_path / "c.octoscript").write_text("let c = 1\n")
    check = run("format", "--check", cwd=tmp_path)
    assert err(check) == (
        "would reformat a.octoscript\n1 file would be reformatted, 2 files already formatted\n"
    )
    quiet = run("format", "--quiet", cwd=tmp_path)
    assert (quiet.returncode, err(quiet)) == (0, "")
    assert (tmp_path / "a.octoscript").read_text() == "let a = 1\n"
    named = run("format", "--stdin-filename", "flows/x.octoscript", "-", stdin="let x = [1,]\n")
    assert err(named).startswith("flows/x.octoscript:1:12: error: trailing commas")


def test_check_quiet_prints_findings_only(tmp_path: Path) -> None:
    (tmp_path / "a.octoscript").write_text("let a = [1,]\n")
    result = run("check", "-q", cwd=tmp_path)
    assert out(result) == (
        "a.octoscript:1:12: error: trailing commas are not part of the canonical array "
        "grammar [trailing-comma]\n"
    )
