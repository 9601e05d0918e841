"""The site classifier: one value per cursor site, in each request's order."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis import surfaces
from octoscript_lsp.analysis.resolution import (
    CatalogMember,
    StaticRecordField,
    StdModuleMember,
    ToolMethodMember,
)
from octoscript_lsp.analysis.site_resolution import (
    NO_SITE,
    AssertCall,
    BindingOccurrence,
    BindingsInScope,
    ImportSegment,
    InputKey,
    Member,
    MemberCall,
    NamedFunctionCall,
    Request,
    ToolNameLiteral,
    resolve_site,
)
from tests.features.test_catalog_assist import configured


def resolve(marked: str, request: Request):
    d = configured(marked)
    return resolve_site(d.analysis, d.at(), d.catalogs, request)


def test_completion_sites_in_order():
    found = resolve("use mod.st@@c@@\n", Request.COMPLETION)
    assert isinstance(found, ImportSegment) and found.site.prefix == ("mod",)
    found = resolve('use mod.tool\ntool.call("@@c@@")\n', Request.COMPLETION)
    assert isinstance(found, ToolNameLiteral) and found.site.method == "call"
    found = resolve("use mod.tool\ntool.ca@@c@@\n", Request.COMPLETION)
    assert isinstance(found, Member) and isinstance(found.meaning, ToolMethodMember)
    found = resolve("use mod.app.weather\nweather.current({@@c@@})\n", Request.COMPLETION)
    assert isinstance(found, InputKey) and found.field is None
    assert resolve("let a = 1\na@@c@@\n", Request.COMPLETION) == BindingsInScope()


def test_hover_sites_in_order():
    found = resolve("use mod.std.text\ntext.lo@@c@@wer\n", Request.HOVER)
    assert isinstance(found, Member) and isinstance(found.meaning, StdModuleMember)
    found = resolve("use mod.app.weather\nweather.cur@@c@@rent({})\n", Request.HOVER)
    assert isinstance(found, Member) and isinstance(found.meaning, CatalogMember)
    found = resolve('use mod.app.weather\nweather.current({loca@@c@@tion: "x"})\n', Request.HOVER)
    assert isinstance(found, InputKey) and found.field is not None
    assert found.field.name == "location"
    found = resolve("let a = 1\n@@c@@a\n", Request.HOVER)
    assert isinstance(found, BindingOccurrence) and found.occurrence.symbol.name == "a"


def test_a_tool_method_has_no_hover_of_its_own():
    """The member site passes on to the binding at the cursor (here none)."""
    assert resolve("use mod.tool\ntool.ca@@c@@ll\n", Request.HOVER) is NO_SITE
    assert surfaces.tool_method("call") is not None


@pytest.mark.parametrize(
    "marked",
    [
        "use mod.app.weather\nweather.current({units: 1, un@@c@@its: 2})\n",  # declared
        "use mod.app.weather\nweather.current({nope@@c@@: 1})\n",  # unknown key
    ],
)
def test_unknown_or_repeated_input_keys_are_no_site(marked: str):
    assert resolve(marked, Request.HOVER) is NO_SITE


def test_definition_takes_only_record_fields_from_members():
    found = resolve("let r = {alpha: 1}\nr.alp@@c@@ha\n", Request.DEFINITION)
    assert isinstance(found, Member) and isinstance(found.meaning, StaticRecordField)
    assert resolve("use mod.std.text\ntext.lo@@c@@wer\n", Request.DEFINITION) is NO_SITE
    found = resolve("let r = {alpha: 1}\n@@c@@r.alpha\n", Request.DEFINITION)
    assert isinstance(found, BindingOccurrence) and found.occurrence.symbol.name == "r"


def test_signature_sites_by_callee():
    found = resolve("fn add(a, b) {\n  return a\n}\nadd(1, @@c@@)\n", Request.SIGNATURE)
    assert isinstance(found, NamedFunctionCall)
    assert (found.name, found.parameters, found.context.active_argument) == ("add", ("a", "b"), 1)
    found = resolve("use mod.std.assert\nassert(@@c@@)\n", Request.SIGNATURE)
    assert isinstance(found, AssertCall) and found.name == "assert"
    found = resolve("use mod.std.text\ntext.lower(@@c@@)\n", Request.SIGNATURE)
    assert isinstance(found, MemberCall) and isinstance(found.meaning, StdModuleMember)
    assert resolve("nope(@@c@@)\n", Request.SIGNATURE) is NO_SITE
    assert resolve("let x = 1@@c@@\n", Request.SIGNATURE) is NO_SITE
