"""The language reference `octoscript mcp` serves: its sections, their bounds,
and that it says what the server's own tables, lexer and grammar say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from octoscript_lsp import reference
from octoscript_lsp.analysis import surfaces
from octoscript_lsp.limits import MAX_REFERENCE_SECTION_BYTES
from octoscript_lsp.reference import bounded, cut_to, is_cut, section, section_names
from octoscript_lsp.reference.guide import split_guide
from octoscript_lsp.syntax.tokens import COMPATIBILITY_WORDS, KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
COPIES = {
    "docs/language.md": reference.GUIDE_SOURCE,
    "grammar/octoscript.ebnf": reference.GRAMMAR_SOURCE,
}


@pytest.mark.parametrize(("original", "copy"), sorted(COPIES.items()))
def test_the_package_carries_the_sources_byte_for_byte(original: str, copy: str) -> None:
    packaged = Path(reference.__file__).parent / copy
    assert packaged.read_bytes() == (ROOT / original).read_bytes(), (
        f"{original} changed: run python scripts/sync_reference.py"
    )


def test_the_sections_in_order() -> None:
    assert section_names() == [
        "overview",
        "scripts",
        "statements",
        "records",
        "lambdas",
        "try-and-catch",
        "awaiting",
        "tool-calls",
        "modules",
        "rejected-forms",
        "limits",
        "tool",
        "std",
        "std.array",
        "std.assert",
        "std.json",
        "std.math",
        "std.object",
        "std.text",
        "keywords",
        "grammar",
    ]


def test_every_section_is_bounded_uncut_and_fits_in_a_uri() -> None:
    for name in section_names():
        text = section(name)
        assert text is not None and text.endswith("\n")
        assert len(text.encode("utf-8")) <= MAX_REFERENCE_SECTION_BYTES
        assert "[cut:" not in text
        assert re.fullmatch(r"[a-z][a-z0-9.-]*", name)
        assert reference.REFERENCE_URI_PREFIX == "octoscript://reference/"


@pytest.mark.parametrize("name", ["", "Scripts", "std.", "std.nope", "../grammar", "overview "])
def test_an_unknown_section_is_none(name: str) -> None:
    assert section(name) is None


def test_the_overview_lists_every_other_section() -> None:
    overview = section("overview")
    listed = re.findall(r"^- `([^`]+)`: ", overview, re.MULTILINE)
    assert listed == section_names()[1:]
    assert overview.startswith("# The Octoscript language\n")


def test_a_guide_section_is_the_guide_text_from_its_heading() -> None:
    guide = (ROOT / "docs" / "language.md").read_text()
    start = guide.index("## Try and catch\n")
    end = guide.index("\n## Awaiting\n")
    assert section("try-and-catch") == guide[start:end].strip() + "\n"


def test_the_grammar_section_is_the_grammar_file() -> None:
    grammar = (ROOT / "grammar" / "octoscript.ebnf").read_text()
    assert section("grammar") == f"# Grammar (ISO EBNF, grammar/octoscript.ebnf)\n\n{grammar}"


def test_every_std_module_and_member_appears() -> None:
    assert [module.name for module in surfaces.STD_MODULES] == [
        "array",
        "assert",
        "json",
        "math",
        "object",
        "text",
    ]
    overview = section("std")
    for module in surfaces.STD_MODULES:
        assert f"`use mod.std.{module.name}`" in overview
        text = section(f"std.{module.name}")
        assert text.startswith(f"# use mod.std.{module.name}\n")
        for member in module.members:
            assert f"\n## {member.header(module.name)}\n\n{member.description}\n" in text
    assert section("std.assert") == (
        "# use mod.std.assert\n\n"
        "assert(condition)\n\n"
        "Stops the script with an error when condition is false.\n\n"
        "Built-in check; it never reaches the host.\n"
    )


def test_the_std_math_section_in_full_starts_so() -> None:
    assert section("std.math").startswith(
        "# use mod.std.math\n\n"
        "Built-in number helpers and the constants pi and e. Purely local; no host "
        "module is looked up and nothing is granted.\n\n"
        "## math.abs(value) -> number\n\n"
        "Absolute value of a number.\n\n"
        "## math.atan2(y, x) -> number\n"
    )


def test_every_tool_method_appears_with_its_format() -> None:
    text = section("tool")
    for method in surfaces.TOOL_METHODS:
        heading = f"## {method.signature_label}\n\nTool format `{method.format.value}`. "
        assert heading + method.description in text
    assert "## tool.start(name, input) -> promise<string>\n" in text
    assert text.rstrip().endswith(surfaces.TOOL_AUTHORITY_NOTE)


def test_every_keyword_and_reserved_word_appears() -> None:
    words = KEYWORDS | COMPATIBILITY_WORDS
    assert len(KEYWORDS) == 17 and len(COMPATIBILITY_WORDS) == 10
    keywords = section("keywords")
    for word in words:
        assert f"`{word}`" in keywords, word
    # and the guide shows every keyword in use, in code
    _, guide = split_guide(reference.read_source(reference.GUIDE_SOURCE))
    code = " ".join(" ".join(_code_in(part.text)) for part in guide)
    missing = sorted(word for word in KEYWORDS if not re.search(rf"\b{word}\b", code))
    assert missing == []


def _code_in(markdown: str) -> list[str]:
    """Fenced blocks and code spans of a markdown text."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", markdown, re.DOTALL | re.MULTILINE)
    without_blocks = re.sub(r"^```[a-z]*\n.*?^```", "", markdown, flags=re.DOTALL | re.MULTILINE)
    return blocks + re.findall(r"`([^`\n]+)`", without_blocks)


def test_a_cut_section_keeps_whole_lines_and_says_so() -> None:
    text = "".join(f"line {number} é\n" for number in range(100))
    cut = cut_to(text, 120)
    assert len(cut.encode("utf-8")) <= 120
    assert cut.endswith("\n[cut: this section is longer than 120 bytes]\n")
    kept = cut.split("\n[cut:")[0] + "\n"
    assert text.startswith(kept) and kept.count("\n") >= 2
    assert cut_to(text, len(text.encode("utf-8"))) == text


def test_the_cut_sections_are_named() -> None:
    long = "".join(f"line {number}\n" for number in range(100))
    kept, cut = bounded({"long": long, "short": "one line\n"}, 120)
    assert cut == {"long"} and kept["short"] == "one line\n"
    assert kept["long"] == cut_to(long, 120)
    # Every section of the reference fits its bound today.
    assert not any(is_cut(name) for name in section_names())


def test_a_heading_inside_a_fence_is_not_a_section() -> None:
    intro, parts = split_guide(
        "# Title\n\nIntro.\n\n## One\n\n```text\n## not a heading\n```\n\n## Two and three\n\nx\n"
    )
    assert intro == "# Title\n\nIntro.\n"
    assert [(part.name, part.title) for part in parts] == [
        ("one", "One"),
        ("two-and-three", "Two and three"),
    ]
    assert parts[0].text == "## One\n\n```text\n## not a heading\n```\n"
