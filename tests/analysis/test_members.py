"""The member classifier: what a member site's receiver stands for."""

from __future__ import annotations

import gc
import weakref

import pytest

from octoscript_lsp.analysis import surfaces
from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.analysis.resolution import BuiltIn, MemberReceiver
from octoscript_lsp.analysis.sites import member_site
from tests.conftest import strip_markers


def receiver_at(text: str) -> MemberReceiver:
    source, marks = strip_markers(text)
    analysis = DocumentAnalysis(source)
    site = member_site(source, analysis.regions, marks["x"])
    assert site is not None
    return MemberReceiver(analysis, site)


@pytest.mark.parametrize(
    ("text", "surface", "module"),
    [
        ("use mod.tool\ntool.@@x@@\n", BuiltIn.TOOL, None),
        ("use mod.std.math\nmath.@@x@@\n", BuiltIn.STD_MODULE, "math"),
        ("use mod.std\nstd.@@x@@\n", BuiltIn.STD_ROOT, None),
    ],
)
def test_direct_imports_of_built_in_surfaces(text: str, surface: BuiltIn, module: str | None):
    built_in = receiver_at(text).built_in
    assert built_in is not None and built_in.surface is surface
    assert (built_in.module.name if built_in.module else None) == module


@pytest.mark.parametrize(
    "text",
    [
        "use mod.std.assert\nassert.@@x@@\n",  # a function: nothing to list
        "use mod.std\nstd.math.@@x@@\n",  # not direct
        "use mod.app.w\nw.@@x@@\n",  # a catalog module
        "let tool = 1\ntool.@@x@@\n",  # not an import
        "use mod.tool\nlet = 1\ntool.@@x@@\n",  # past the first error
    ],
)
def test_other_receivers_name_no_built_in_surface(text: str):
    assert receiver_at(text).built_in is None


def test_fixed_core_paths_are_never_catalog_paths_to_extend():
    found = receiver_at("use mod.std\nstd.text.@@x@@\n")
    assert found.fixed_path == ("mod", "std", "text") and found.is_fixed_core
    assert not receiver_at("use mod.app.w\nw.a.@@x@@\n").is_fixed_core


def test_catalog_path_through_a_stable_alias_chain():
    found = receiver_at("use mod.app.w\nlet a = w\nlet b = a\nb.c.@@x@@\n")
    assert found.fixed_path is None
    assert found.catalog_path == ("mod", "app", "w", "c")


def test_catalog_path_refused_when_the_group_is_not_stable():
    found = receiver_at("use mod.app.w\nlet a = w\nf(a)\na.@@x@@\n")
    assert found.catalog_path is None


def test_output_call_of_a_result_binding():
    found = receiver_at("use mod.app.w\nlet r = w.current(1).await()\nr.summary.@@x@@\n")
    call = found.output_call
    assert call is not None and call.awaited
    assert found.output_parent == ("summary",)
    assert receiver_at("let r = w.current(1)\nr.a.b.@@x@@\n").output_parent is None


def test_workflow_namespace_unless_shadowed():
    assert receiver_at("workflow.input.@@x@@\n").workflow_path() == ("workflow", "input")
    assert receiver_at("let workflow = 1\nworkflow.@@x@@\n").workflow_path() is None


def test_record_fields_by_completion_and_navigation_rules():
    found = receiver_at("let r = {a: 1, b: {c: 2}}\nr.b.@@x@@c\n")
    assert [field.name for field in found.record_fields()] == ["c"]
    assert [field.name for field in found.record_fields(navigation=True)] == ["c"]
    broken = receiver_at("let r = {a: 1}\nr.@@x@@\nlet = 1\n")
    assert [field.name for field in broken.record_fields()] == ["a"]
    assert broken.record_fields(navigation=True) is None  # invalid source


def test_receivers_of_one_site_agree():
    source, marks = strip_markers("use mod.tool\ntool.@@x@@\n")
    analysis = DocumentAnalysis(source)
    site = member_site(source, analysis.regions, marks["x"])
    first = MemberReceiver(analysis, site).built_in
    again = member_site(source, analysis.regions, marks["x"])
    assert MemberReceiver(analysis, again).built_in is first
    assert surfaces.is_tool_import(MemberReceiver(analysis, site).direct_import.path)


def test_a_snapshot_with_classified_sites_is_freed_without_the_cycle_collector():
    source, marks = strip_markers("use mod.app.w\nlet a = w\nlet r = {b: 1}\na.@@x@@\nr.b\n")
    analysis = DocumentAnalysis(source)
    site = member_site(source, analysis.regions, marks["x"])
    receiver = MemberReceiver(analysis, site)
    assert receiver.catalog_path == ("mod", "app", "w")
    assert receiver.record_fields() is None
    freed = [weakref.ref(analysis), weakref.ref(analysis.records)]
    gc.disable()
    try:
        del analysis, receiver
        assert [ref() for ref in freed] == [None, None]
    finally:
        gc.enable()
