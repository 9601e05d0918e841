"""The reference says what the editor says: each std member's hover and each
`mod.tool` method's signature documentation, asked of the features the
server runs, open with the heading and text its reference section shows."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis import surfaces
from octoscript_lsp.features import hover, signature
from octoscript_lsp.reference import section
from tests.features.helpers import doc

MEMBERS = [
    (module.name, member.name) for module in surfaces.STD_MODULES for member in module.members
]


def _paragraphs(text: str) -> list[str]:
    return text.split("\n\n")


@pytest.mark.parametrize(("module", "member"), MEMBERS)
def test_a_std_member_s_hover_is_in_its_section(module: str, member: str) -> None:
    shown = doc(f"use mod.std.{module}\n{module}.{member}@@c@@\n")
    found = hover.hover(shown.analysis, shown.positions, shown.at("c"), shown.catalogs)
    assert found is not None
    header, description, *_ = _paragraphs(found.contents.value)
    assert f"\n## {header}\n\n{description}\n" in section(f"std.{module}")


def test_the_assert_hover_is_its_section() -> None:
    shown = doc("use mod.std.assert\n@@c@@assert(true)\n")
    found = hover.hover(shown.analysis, shown.positions, shown.at("c"), shown.catalogs)
    assert section("std.assert") == f"# use mod.std.assert\n\n{found.contents.value}\n"


def test_each_tool_method_s_signature_documentation_is_in_the_tool_section() -> None:
    text = section("tool")
    for method in surfaces.TOOL_METHODS:
        shown = doc(f"use mod.tool\ntool.{method.name}(@@c@@\n")
        found = signature.signature_help(shown.analysis, shown.at("c"), shown.catalogs)
        (info,) = found.signatures
        label, description, note = _paragraphs(info.documentation.value)
        assert label == info.label
        assert f"\n## {label}\n\nTool format `{method.format.value}`. {description}\n" in text
        assert text.rstrip("\n").endswith(note)
