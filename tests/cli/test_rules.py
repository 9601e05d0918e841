"""Rules: --select / --ignore, suppression comments, --report-unused, --exit-zero,
--statistics, and severities as documented (info never fails --strict)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.cli.findings import findings_of
from octoscript_lsp.cli.rules import Rules, UnknownRule, check_rules
from tests.cli.invoke import run
from tests.cli.test_end_to_end import err, out

# One reserved-word `var` (two findings), a quote on line 2, a comma on line 3.
LEXICAL = "let a = 'x'\nlet b = 'y'\n"
PARSED = "let a = [1,]\nlet b = [2,]\nvar c = 1\n"


def kept(text: str, rules: Rules) -> list[tuple[int, str | None]]:
    analysis = DocumentAnalysis(text)
    found = findings_of("t", analysis, None, rules)
    return [(item.line, item.code) for item in found.all]


def test_select_and_ignore_by_code_or_prefix() -> None:
    everything = kept(PARSED, Rules())
    assert everything == [
        (1, "trailing-comma"),
        (2, "trailing-comma"),
        (3, "reserved-word"),
        (3, "missing-statement-end"),
    ]
    assert kept(PARSED, Rules(select=("trailing",))) == everything[:2]
    assert kept(PARSED, Rules(ignore=("trailing-comma", "missing"))) == [(3, "reserved-word")]
    assert kept(PARSED, Rules(select=("reserved-word",), ignore=("reserved",))) == []


def test_unknown_rule_names_are_refused_with_a_suggestion() -> None:
    assert check_rules(["unlisted", "trailing-comma"], "select") == ("unlisted", "trailing-comma")
    with pytest.raises(UnknownRule, match="did you mean `trailing-comma`"):
        check_rules(["trailing-coma"], "ignore")


def test_suppression_comments() -> None:
    text = (
        "let a = [1,] // octoscript: ignore[trailing-comma]\n"
        "let b = [2,] // octoscript: ignore[reserved-word]\n"
        "// octoscript: ignore\n"
        "let c = [3,]\n"
        "let d = [4,] //octoscript:ignore[ trailing , reserved-word ]\n"
    )
    assert kept(text, Rules()) == [(2, "trailing-comma")]
    # Unused suppressions come after the syntax findings, as catalog advice does.
    assert kept(text, Rules(report_unused=True)) == [
        (2, "trailing-comma"),
        (2, "unused-suppression"),
        (5, "unused-suppression"),
    ]


def test_a_suppression_inside_a_string_is_not_a_comment() -> None:
    text = 'let a = [1,]\nlet s = "// octoscript: ignore"\n'
    assert kept(text, Rules()) == [(1, "trailing-comma")]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "p.octoscript").write_text(PARSED)
    (tmp_path / "l.octoscript").write_text(LEXICAL)
    return tmp_path


def test_select_ignore_exit_zero_end_to_end(folder: Path) -> None:
    selected = run("check", "--select", "single-quoted", cwd=folder)
    assert out(selected) == (
        "l.octoscript:1:9: error: only double-quoted strings are part of canonical Octoscript "
        "[single-quoted-string]\n"
        "l.octoscript:2:9: error: only double-quoted strings are part of canonical Octoscript "
        "[single-quoted-string]\n"
        "checked 2 files: 2 errors, 0 warnings\n"
    )
    assert selected.returncode == 1
    ignored = run(
        "check", "--ignore", "single,trailing", "--ignore", "reserved,missing", cwd=folder
    )
    assert (ignored.returncode, out(ignored)) == (0, "checked 2 files: 0 errors, 0 warnings\n")
    zero = run("check", "--exit-zero", cwd=folder)
    assert zero.returncode == 0
    assert "checked 2 files: 6 errors, 0 warnings\n" in out(zero)
    unknown = run("check", "--select", "nope", cwd=folder)
    assert (unknown.returncode, err(unknown)) == (
        2,
        "octoscript: select: `nope` is not a diagnostic code\n",
    )


def test_statistics_counts_per_code(folder: Path) -> None:
    result = run("check", "--statistics", cwd=folder)
    assert out(result) == (
        "2  single-quoted-string\n"
        "2  trailing-comma\n"
        "1  missing-statement-end\n"
        "1  reserved-word\n"
        "checked 2 files: 6 errors, 0 warnings\n"
    )
    assert result.returncode == 1


def test_report_unused_end_to_end(tmp_path: Path) -> None:
    (tmp_path / "a.octoscript").write_text("let a = 1 // octoscript: ignore[trailing-comma]\n")
    assert run("check", cwd=tmp_path).returncode == 0
    result = run("check", "--report-unused", cwd=tmp_path)
    assert out(result) == (
        "a.octoscript:1:11: warning: `trailing-comma` is suppressed here but nothing on the "
        "line reports it [unused-suppression]\n"
        "checked 1 file: 0 errors, 1 warning\n"
    )
    assert run("check", "--report-unused", "--strict", cwd=tmp_path).returncode == 1


def test_info_never_fails_strict(tmp_path: Path) -> None:
    settings = {
        "moduleCatalog": [
            {"path": "mod.app"},
            {"path": "mod.app.weather"},
            {"path": "mod.app.weather.current", "callMode": "synchronous"},
        ]
    }
    (tmp_path / "host.json").write_text(json.dumps(settings))
    (tmp_path / "m.octoscript").write_text("use mod.app.weather\nweather.curent()\n")
    result = run("check", "--settings", "host.json", "--strict", cwd=tmp_path)
    assert out(result) == (
        "m.octoscript:2:1: info: the module catalog does not list mod.app.weather.curent; "
        "did you mean `current`? [unlisted-module-member]\n"
        "checked 1 file: 0 errors, 0 warnings, 1 info\n"
    )
    assert result.returncode == 0
