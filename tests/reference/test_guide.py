"""docs/language.md says only what the checker and limits.py say: every
example is canonical, every rejected form is refused with its code, every
limit is the enforced one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from octoscript_lsp import limits
from octoscript_lsp.analysis import advice, surfaces
from octoscript_lsp.catalogs.model import CallMode, CallShape
from octoscript_lsp.syntax.check import analyze_syntax, format_source
from octoscript_lsp.syntax.codes import SyntaxCode

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()

EXAMPLES = re.findall(r"^```octoscript\n(.*?)^```$", GUIDE, re.DOTALL | re.MULTILINE)
REJECTED = re.findall(r"^\| `(.+)` \| `(.+)` \| `([a-z-]+)` \|$", GUIDE, re.MULTILINE)
_LIMIT_ROW = r"^\| [^|]+ \| ([0-9,]+(?: [KM]iB)?) \| `(MAX_[A-Z_]+)` \|$"
LIMITS = re.findall(_LIMIT_ROW, GUIDE, re.MULTILINE)


def test_the_guide_has_its_examples_and_tables() -> None:
    fences = re.findall(r"^```(\w*)", GUIDE, re.MULTILINE)
    # every fenced block is Octoscript (opening fences; closing ones are bare)
    assert fences[::2] == ["octoscript"] * len(EXAMPLES)
    assert len(EXAMPLES) == 9
    assert len(REJECTED) == 10
    assert len(LIMITS) == 13


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_is_valid_and_formats_to_itself(example: str) -> None:
    result = analyze_syntax(example)
    assert result.valid, [(item.code, item.message) for item in result.diagnostics]
    assert format_source(example) == example


@pytest.mark.parametrize(("written", "instead", "code"), REJECTED)
def test_every_rejected_form_is_refused_with_its_code(
    written: str, instead: str, code: str
) -> None:
    # A `|` in a table cell is written `\|`.
    written, instead = written.replace("\\|", "|"), instead.replace("\\|", "|")
    refused = analyze_syntax(written)
    assert refused.diagnostics and refused.diagnostics[0].code.value == code
    assert analyze_syntax(instead).valid


def _value(text: str) -> int:
    number, _, unit = text.partition(" ")
    return int(number.replace(",", "")) * {"": 1, "KiB": 1024, "MiB": 1024 * 1024}[unit]


@pytest.mark.parametrize(("written", "constant"), LIMITS)
def test_every_limit_is_the_enforced_one(written: str, constant: str) -> None:
    assert _value(written) == getattr(limits, constant)


def _code_spans(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


def test_every_diagnostic_code_named_is_a_code() -> None:
    codes = {code.value for code in SyntaxCode} | {
        advice.CODE_UNLISTED_TOOL,
        advice.CODE_TOOL_FORMAT,
        advice.CODE_UNLISTED_MEMBER,
        advice.CODE_MISSING_INPUT,
        advice.CODE_UNKNOWN_INPUT,
    }
    named = {span for span in _code_spans(GUIDE) if re.fullmatch(r"[a-z]+(-[a-z]+)+", span)}
    assert named <= codes
    assert len(named) == 15


def test_the_catalog_words_are_the_catalog_model_s() -> None:
    modules = GUIDE[GUIDE.index("## Modules\n") : GUIDE.index("## Rejected forms\n")]
    assert {mode.value for mode in CallMode} | {shape.value for shape in CallShape} <= (
        _code_spans(modules)
    )
    assert {"callMode", "callShape"} <= _code_spans(modules)


def test_the_tool_method_table_is_surfaces_tool_methods() -> None:
    rows = re.findall(r"^\| `(tool\.\w+\([^)]*\))` \| `(\w+)` \| (yes|no): ", GUIDE, re.MULTILINE)
    assert rows == [
        (
            f"{surfaces.TOOL_BINDING}.{method.name}({', '.join(method.parameters)})",
            method.format.value,
            "no" if method.deferred else "yes",
        )
        for method in surfaces.TOOL_METHODS
    ]


def test_the_other_refused_forms_are_refused() -> None:
    start = GUIDE.index("Also refused: ")
    paragraph = GUIDE[start : GUIDE.index("\n\n", start)]
    forms = sorted(_code_spans(paragraph) - {"keywords"})
    assert forms == ["..", "1u32", "2_000", "let", "let [a, b] = x", "let a: T", "try"]
    for form in forms:
        assert not analyze_syntax(form).valid, form
