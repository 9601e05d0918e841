"""Every diagnostic carries a documented, stable code; the docs' examples hold."""

from __future__ import annotations

import re

import pytest

from octoscript_lsp.analysis import advice, problems
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.cli.rules import CODE_UNUSED_SUPPRESSION, KNOWN_CODES
from octoscript_lsp.features import diagnostics
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.limits import (
    MAX_SOURCE_BYTES,
    MAX_SYNTAX_DIAGNOSTICS,
    MAX_SYNTAX_NESTING,
    MAX_SYNTAX_TOKENS,
)
from octoscript_lsp.syntax.check import analyze_syntax
from octoscript_lsp.syntax.codes import SyntaxCode
from tests.conftest import ROOT, strip_markers
from tests.features.test_advisory import MODULES, store

DOC = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
HEADING = re.compile(r"^### `([a-z-]+)`$", re.MULTILINE)
DOCUMENTED = HEADING.findall(DOC)

ADVISORY_CODES = [
    advice.CODE_UNLISTED_TOOL,
    advice.CODE_TOOL_FORMAT,
    advice.CODE_UNLISTED_MEMBER,
    advice.CODE_MISSING_INPUT,
    advice.CODE_UNKNOWN_INPUT,
]
DOCUMENT_CODES = [
    problems.CODE_SOURCE_TOO_LARGE,
    problems.CODE_TOO_MANY_DIAGNOSTICS,
    diagnostics.CODE_TOO_MANY_DOCUMENTS,
]
# About suppression comments (analysis/suppressions.py): `check --report-unused`, editor hints.
CLI_CODES = [CODE_UNUSED_SUPPRESSION]
ALL_CODES = [code.value for code in SyntaxCode] + ADVISORY_CODES + DOCUMENT_CODES + CLI_CODES
TOOLS = [{"name": "text.echo", "format": "text"}, {"name": "svc.lookup", "format": "json"}]


def example(code: str) -> str | None:
    """The first ```octoscript block of the code's section, if any."""
    section = DOC.split(f"### `{code}`\n", 1)[1].split("\n### ", 1)[0]
    match = re.search(r"```octoscript\n(.*?)```", section, re.DOTALL)
    return match.group(1) if match else None


def test_every_code_is_documented_once_and_nothing_else_is():
    assert sorted(DOCUMENTED) == sorted(ALL_CODES)
    # The codes `--select` / `--ignore` accept, minus the server's session limit.
    assert sorted(KNOWN_CODES) == sorted(set(ALL_CODES) - {diagnostics.CODE_TOO_MANY_DOCUMENTS})
    assert len(set(ALL_CODES)) == len(ALL_CODES)


@pytest.mark.parametrize("code", [code.value for code in SyntaxCode])
def test_syntax_examples_produce_their_code(code: str):
    source = example(code)
    if source is None:
        pytest.skip("limits and line endings are described, not shown")
    assert code in [item.code for item in analyze_syntax(source).diagnostics]


@pytest.mark.parametrize("code", ADVISORY_CODES)
def test_catalog_examples_produce_their_code(code: str):
    source = example(code)
    assert source is not None
    catalogs = store(toolCatalog=TOOLS, moduleCatalog=MODULES)
    found = diagnostics.advisory_diagnostics(
        DocumentAnalysis(source), PositionMap(source), catalogs
    )
    assert code in [item.code for item in found]


def test_unexampled_syntax_codes_are_real():
    assert [item.code for item in analyze_syntax("let a = 1\rlet b = 2\n").diagnostics] == [
        SyntaxCode.BARE_CARRIAGE_RETURN
    ]
    assert analyze_syntax("let a = 1\n" * 9_000).diagnostics[0].code is SyntaxCode.TOKEN_LIMIT
    deep = "let a = " + "[" * 200 + "]" * 200 + "\n"
    assert analyze_syntax(deep).diagnostics[0].code is SyntaxCode.NESTING_LIMIT


def test_published_syntax_diagnostics_carry_the_code():
    source, _ = strip_markers("let s = 'hi'\nlet a = 1 let b = 2\n")
    found = diagnostics.syntax_diagnostics(DocumentAnalysis(source), PositionMap(source))
    assert [(item.code, item.range.start.line) for item in found] == [("single-quoted-string", 0)]
    source = "let a = 1 let b = 2\n"
    found = diagnostics.syntax_diagnostics(DocumentAnalysis(source), PositionMap(source))
    assert [item.code for item in found] == ["missing-statement-end"]


def test_truncation_and_size_diagnostics_carry_codes():
    many = "let x = [1,]\n" * 80
    found = diagnostics.syntax_diagnostics(DocumentAnalysis(many), PositionMap(many))
    assert {item.code for item in found} == {"trailing-comma", "too-many-diagnostics"}
    big = "let a = 1\n" * 30_000
    found = diagnostics.syntax_diagnostics(DocumentAnalysis(big), PositionMap(big))
    assert [item.code for item in found] == ["source-too-large"]
    assert [item.code for item in diagnostics.too_many_documents()] == ["too-many-documents"]


def test_documented_limits_are_the_real_ones():
    def section(code: str) -> str:
        return DOC.split(f"### `{code}`\n", 1)[1].split("\n### ", 1)[0]

    assert f"More than {MAX_SYNTAX_DIAGNOSTICS} syntax diagnostics" in section(
        problems.CODE_TOO_MANY_DIAGNOSTICS
    )
    assert f"More than {MAX_SYNTAX_TOKENS:,} tokens" in section("token-limit")
    assert f"more than {MAX_SYNTAX_NESTING} deep" in section("nesting-limit")
    assert f"over {MAX_SOURCE_BYTES // 1024} KiB" in section(problems.CODE_SOURCE_TOO_LARGE)
