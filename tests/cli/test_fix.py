"""`check --fix` (and `--diff`): each fixable code, end to end, and a refused fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.invoke import run
from tests.cli.test_end_to_end import err, out
from tests.features.test_advisory import MODULES

SETTINGS = {
    "toolCatalog": [
        {"name": "text.echo", "format": "text"},
        {"name": "math.add", "format": "json"},
    ],
    "moduleCatalog": MODULES,
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "host.json").write_text(json.dumps(SETTINGS))
    return tmp_path


# (code, source before, source after, what --fix says)
CASES = [
    ("single-quoted-string", "let a = 'x'\n", 'let a = "x"\n', "Use a double-quoted string"),
    ("reserved-word", "var a = 1\n", "let a = 1\n", "Replace `var` with `let`"),
    ("trailing-comma", "let a = [1, 2,]\n", "let a = [1, 2]\n", "Remove the trailing comma"),
    (
        "unlisted-tool",
        'use mod.tool\nlet r = tool.call("text.ecko", "x")\n',
        'use mod.tool\nlet r = tool.call("text.echo", "x")\n',
        "Did you mean `text.echo`?",
    ),
    (
        "tool-format-mismatch",
        'use mod.tool\nlet r = tool.call("math.add", "x")\n',
        'use mod.tool\nlet r = tool.call_json("math.add", "x")\n',
        "Use `tool.call_json`",
    ),
    (
        "unknown-input-field",
        'use mod.app.weather\nlet g = weather.current({location: "x", unit: "c"})\n',
        'use mod.app.weather\nlet g = weather.current({location: "x", units: "c"})\n',
        "Did you mean `units`?",
    ),
    (
        "unlisted-module-member",
        'use mod.app.weather\nlet f = weather.curent({location: "x"})\n',
        'use mod.app.weather\nlet f = weather.current({location: "x"})\n',
        "Did you mean `current`?",
    ),
]


@pytest.mark.parametrize(("code", "before", "after", "title"), CASES, ids=[c[0] for c in CASES])
def test_fix_applies_each_fixable_code(
    project: Path, code: str, before: str, after: str, title: str
) -> None:
    script = project / "s.octoscript"
    script.write_text(before)
    result = run("check", "--settings", "host.json", "--fix", "s.octoscript", cwd=project)
    assert script.read_text() == after
    assert "fixed s.octoscript:" in err(result)
    assert f": {title} [{code}]\n" in err(result)
    # Re-checked after the fix: nothing is left.
    assert result.returncode == 0, out(result)
    assert out(result) == "checked 1 file: 0 errors, 0 warnings, 1 fixed\n"


def test_fixes_revealed_by_an_earlier_fix_are_applied_too(project: Path) -> None:
    # The lexer's finding (the quote) hides the parser's (`var`, the comma).
    script = project / "s.octoscript"
    script.write_text("var a = [1, 2,]\nlet b = 'x'\n")
    result = run("check", "--fix", "s.octoscript", cwd=project)
    assert (result.returncode, script.read_text()) == (0, 'let a = [1, 2]\nlet b = "x"\n')
    assert err(result).count("fixed s.octoscript") == 3


def test_fix_diff_writes_nothing_and_exits_1(project: Path) -> None:
    script = project / "s.octoscript"
    script.write_text("var a = 1\n")
    result = run("check", "--fix", "--diff", "s.octoscript", cwd=project)
    assert result.returncode == 1
    assert script.read_text() == "var a = 1\n"
    assert out(result) == (
        "--- s.octoscript (original)\n+++ s.octoscript (fixed)\n"
        "@@ -1 +1 @@\n-var a = 1\n+let a = 1\n"
    )
    assert err(result) == "would fix s.octoscript:1:1: Replace `var` with `let` [reserved-word]\n"
    script.write_text("let a = 1\n")
    clean = run("check", "--fix", "--diff", "s.octoscript", cwd=project)
    assert (clean.returncode, out(clean)) == (0, "")


def test_a_fix_that_leaves_the_file_invalid_is_refused(project: Path) -> None:
    script = project / "s.octoscript"
    script.write_text("var a = 1\nlet if = 2\n")
    result = run("check", "--fix", "s.octoscript", cwd=project)
    assert script.read_text() == "var a = 1\nlet if = 2\n"
    assert result.returncode == 1
    assert err(result) == (
        "octoscript: s.octoscript: 1 fix not applied: "
        "the fixed text would still not be valid Octoscript\n"
    )
    assert "s.octoscript:1:1: error: reserved words cannot be used" in out(result)


def test_fix_repairs_only_what_the_run_reports(project: Path) -> None:
    script = project / "s.octoscript"
    text = (
        "use mod.tool\n"
        'let a = tool.call("text.ecko", "x")\n'
        'let b = tool.call("text.ecko", "y") // octoscript: ignore[unlisted-tool]\n'
    )
    script.write_text(text)
    ignored = run(
        "check",
        "--settings",
        "host.json",
        "--ignore",
        "unlisted",
        "--fix",
        "s.octoscript",
        cwd=project,
    )
    assert (ignored.returncode, script.read_text(), err(ignored)) == (0, text, "")
    result = run("check", "--settings", "host.json", "--fix", "s.octoscript", cwd=project)
    assert script.read_text() == text.replace('"text.ecko", "x"', '"text.echo", "x"')
    assert result.returncode == 0
