"""check_script and review_tool_calls against the CLI's own reports, over a corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octoscript_lsp.cli.check import CheckOptions, Profile, check_file
from octoscript_lsp.cli.reports import tool_calls_report
from octoscript_lsp.syntax.check import analyze_syntax

from .helpers import call, connected, settings_file, workspace

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(
    [
        *(ROOT / "tests" / "fixtures").glob("*.octoscript"),
        *(ROOT / "tests" / "fixtures" / "corpus").glob("*.octoscript"),
        *(ROOT / "examples").rglob("*.octoscript"),
        *(ROOT / "examples").rglob("*.octo"),
    ]
)
KEYS = ("line", "column", "end_line", "end_column", "severity", "message", "code")


def _variants(text: str) -> list[str]:
    """The text, and with names a catalog does not list and a syntax slip."""
    mistyped = text.replace('"text.echo"', '"text.ecko"').replace(
        "weather.current", "weather.curent"
    )
    return [text, mistyped, mistyped.replace("let ", "var ", 1)]


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
async def test_check_script_and_review_match_the_cli(tmp_path, path):
    space = workspace(settings_file(tmp_path))
    profile = Profile(space.catalogs)
    options = CheckOptions(output_format="json", profiles={None: profile})
    async with connected(space) as client:
        for number, text in enumerate(_variants(path.read_text(encoding="utf-8"))):
            script = tmp_path / f"v{number}.octoscript"
            script.write_text(text, encoding="utf-8")
            report = json.loads(check_file(options, (str(script), None)).stdout)
            expected = [*report["diagnostics"], *report.get("warnings", [])]
            answer = await call(client, "check_script", source=text)
            assert [{key: item[key] for key in KEYS} for item in answer["diagnostics"]] == [
                {key: item.get(key) for key in KEYS} for item in expected
            ]
            assert answer["valid"] == report["valid"]
            reviewed = await call(client, "review_tool_calls", source=text)
            listed = tool_calls_report(space.catalogs)("-", analyze_syntax(text))
            for key in ("valid", "diagnostics", "tool_calls_truncated"):
                assert reviewed[key] == listed[key]
            for call_site in reviewed["tool_calls"]:
                assert call_site.pop("standing") in ("dynamic", call_site["catalog"])
            for call_site in reviewed["imported_module_calls"]:
                call_site.pop("standing")
            assert reviewed["tool_calls"] == listed["tool_calls"]
            assert reviewed["imported_module_calls"] == listed["imported_module_calls"]
