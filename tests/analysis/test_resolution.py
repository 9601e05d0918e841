"""The member classifier returns one value per site, of every kind it knows."""

from __future__ import annotations

import pytest

from octoscript_lsp.analysis import surfaces
from octoscript_lsp.analysis.resolution import (
    AWAIT,
    NOTHING,
    BuiltInPastError,
    CallOutputField,
    CallOutputFields,
    CatalogChildren,
    CatalogMember,
    CatalogUntrusted,
    ClosedStdPath,
    Purpose,
    StaticRecordField,
    StaticRecordFields,
    StdModuleMember,
    StdNamespaceChild,
    ToolMethodMember,
    WorkflowDataField,
    WorkflowNamespace,
    classify_member_token,
    resolve_member,
)
from octoscript_lsp.analysis.sites import member_site
from tests.features.test_catalog_assist import configured


def resolve(marked: str, purpose: Purpose = Purpose.NAVIGATION):
    d = configured(marked)
    site = member_site(d.analysis.source, d.analysis.regions, d.at())
    assert site is not None
    return resolve_member(d.analysis, site, d.catalogs, purpose)


def test_built_in_surfaces():
    assert resolve("use mod.tool\ntool.call_js@@c@@on\n") == ToolMethodMember(
        surfaces.tool_method("call_json")
    )
    assert resolve("use mod.tool\ntool.nope@@c@@\n") == ToolMethodMember(None)
    found = resolve("use mod.std.text\ntext.lo@@c@@wer\n")
    assert isinstance(found, StdModuleMember) and found.module is surfaces.TEXT
    assert found.member is surfaces.member(surfaces.TEXT, "lower")
    assert resolve("use mod.std\nstd.ass@@c@@ert\n") == StdNamespaceChild(
        "assert", surfaces.import_path_child(surfaces.STD_NAMESPACE_PATH, "assert")
    )
    assert resolve("use mod.std\nstd.math.fl@@c@@oor\n") is NOTHING  # deeper: closed


def test_member_tokens_get_the_site_values_for_a_direct_import():
    """Semantic tokens' entry: the same values `resolve_member` gives a direct site."""
    text = ("mod", "std", "text")
    assert classify_member_token(text, "lower", False) == resolve(
        "use mod.std.text\ntext.lo@@c@@wer\n"
    )
    assert classify_member_token(text, "nope", False) == StdModuleMember(surfaces.TEXT, None)
    assert classify_member_token(("mod", "tool"), "call_json", True) == ToolMethodMember(
        surfaces.tool_method("call_json")
    )
    assert classify_member_token(("mod", "std"), "assert", False) == resolve(
        "use mod.std\nstd.ass@@c@@ert\n"
    )
    # `.await(` is the language's, whatever the receiver; uncalled it is a name.
    assert classify_member_token(text, "await", True) is AWAIT
    assert classify_member_token(None, "await", True) is AWAIT
    assert classify_member_token(None, "await", False) is NOTHING
    assert classify_member_token(text, "await", False) == StdModuleMember(surfaces.TEXT, None)
    # Not a built-in surface: a std module without members, a catalog path, no import.
    assert classify_member_token(("mod", "std", "assert"), "equal", False) is NOTHING
    assert classify_member_token(("mod", "app", "weather"), "current", False) is NOTHING
    assert classify_member_token(None, "lower", False) is NOTHING


def test_static_record_field_and_workflow_data():
    found = resolve("let r = {alpha: 1}\nr.alp@@c@@ha\n")
    assert isinstance(found, StaticRecordField) and found.field.name == "alpha"
    found = resolve("workflow.input.le@@c@@ft\n")
    assert isinstance(found, WorkflowDataField) and found.field.name == "left"
    assert found.role == "Workflow input"
    # A binding named `workflow` shadows the namespace.
    assert resolve("let workflow = 1\nworkflow.input.le@@c@@ft\n") is NOTHING


def test_catalog_members_and_call_outputs_by_purpose():
    found = resolve("use mod.app.weather\nweather.hist@@c@@ory\n")
    assert isinstance(found, CatalogMember)
    assert found.descriptor.path == ("mod", "app", "weather", "history")
    source = "use mod.app.weather\nlet h = weather.history({days: 1})\nh.cou@@c@@nt\n"
    found = resolve(source)
    assert isinstance(found, CallOutputField) and found.field.name == "count"
    # Signature help does not read output fields.
    assert resolve(source, Purpose.SIGNATURE) is NOTHING
    assert resolve("use mod.std.text\nlet q = 1\nq.x@@c@@\n") is NOTHING


def test_completion_classifies_what_may_follow_the_dot():
    completion = Purpose.COMPLETION
    assert resolve("workflow.@@c@@\n", completion) == WorkflowNamespace(("workflow",))
    assert resolve("use mod.tool\ntool.@@c@@\n", completion) == ToolMethodMember(None)
    assert resolve("use mod.std\nstd.@@c@@\n", completion) == StdNamespaceChild("", None)
    assert resolve("use mod.std\nstd.math.@@c@@\n", completion) == ClosedStdPath()
    assert resolve("use mod.tool\ntool.@@c@@.", completion) == BuiltInPastError()
    found = resolve("let r = {alpha: 1, beta: 2}\nr.@@c@@\n", completion)
    assert isinstance(found, StaticRecordFields)
    assert [field.name for field in found.fields] == ["alpha", "beta"]
    source = "use mod.app.weather\nlet h = weather.history({days: 1})\nh.@@c@@\n"
    found = resolve(source, completion)
    assert isinstance(found, CallOutputFields) and found.parent == ()
    found = resolve("use mod.app.weather\nweather.@@c@@\n", completion)
    assert found == CatalogChildren(("mod", "app", "weather"))


def test_completion_refuses_an_unusable_module_catalog():
    d = configured("use mod.app.weather\nweather.@@c@@\n")
    d.catalogs.apply_settings({"octoscript": {"moduleCatalog": [{"path": "bad path"}]}})
    site = member_site(d.analysis.source, d.analysis.regions, d.at())
    found = resolve_member(d.analysis, site, d.catalogs, Purpose.COMPLETION)
    assert found == CatalogUntrusted(alias_metadata_truncated=False)


@pytest.mark.parametrize("purpose", list(Purpose))
def test_the_std_tree_is_never_a_catalog_member(purpose):
    # The catalog lists `mod.std.extra`; the fixed tree wins.
    assert resolve("use mod.std\nstd.ex@@c@@tra\n", purpose) == StdNamespaceChild("extra", None)
