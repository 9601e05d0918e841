"""Catalog, workflow-data and static-record behaviours re-checked against the
reference server's own unit scenarios (restated here in our own terms)."""

from __future__ import annotations

import copy

from octoscript_lsp.features import hover
from tests.features.helpers import complete

from .helpers import doc, labels

ADD = {
    "path": "mod.calc.add",
    "callMode": "synchronous",
    "callShape": "single_json",
    "inputFields": [
        {"name": "first", "type": "integer", "required": True},
        {
            "name": "options",
            "type": "object",
            "required": False,
            "fields": [{"name": "precise", "type": "boolean", "required": False}],
        },
    ],
    "outputFields": [{"name": "sum", "type": "integer", "required": True}],
}


def _with(marked: str, section: dict):
    d = doc(marked)
    d.catalogs.apply_initialization_options({"octoscript": copy.deepcopy(section)})
    return d


def _complete(d, mark: str = "c"):
    return complete(d.analysis, d.positions, d.at(mark), d.catalogs)


def _hover(d, mark: str = "c"):
    return hover.hover(d.analysis, d.positions, d.at(mark), d.catalogs)


def test_unavailable_module_catalog_marks_any_unresolved_member_site_incomplete():
    d = _with("let value = 1\nvalue.@@c@@", {"moduleCatalog": "not a list"})
    answer = _complete(d)
    assert labels(answer) == [] and answer.is_incomplete


def test_record_key_site_of_a_non_catalog_call_reports_an_unavailable_catalog():
    d = _with("let r = thing.run({ke@@c@@: 1})", {"moduleCatalog": {}})
    answer = _complete(d)
    assert labels(answer) == [] and answer.is_incomplete


def test_only_the_first_of_two_repeated_child_keys_has_hover():
    marked = "use mod.calc\nlet r = calc.add({options: {pr@@a@@ecise: true, pr@@b@@ecise: false}})"
    d = _with(marked, {"moduleCatalog": [ADD]})
    assert _hover(d, "a") is not None
    assert _hover(d, "b") is None


def test_later_aliases_of_a_result_count_toward_the_hop_limit():
    def source(hops: int) -> str:
        lines = ["use mod.calc", "let r = calc.add({first: 1})", "r.s@@c@@"]
        previous = "r"
        for index in range(hops):
            lines.append(f"let later_{index} = {previous}")
            previous = f"later_{index}"
        return "\n".join(lines)

    assert labels(_complete(_with(source(16), {"moduleCatalog": [ADD]}))) == ["sum"]
    assert labels(_complete(_with(source(17), {"moduleCatalog": [ADD]}))) == []


def test_import_alias_resolves_where_it_was_written_despite_a_later_redeclaration():
    marked = "use mod.calc\nlet c = calc\nlet calc = {}\nc.@@c@@"
    assert labels(_complete(_with(marked, {"moduleCatalog": [ADD]}))) == ["add"]


def test_output_step_outside_the_completed_prefix_is_empty_and_complete():
    workflow = {
        "inputFields": [],
        "outputs": [
            {"stepId": "first", "fields": [{"name": "a", "type": "integer"}]},
            {"stepId": "second", "fields": [{"name": "b", "type": "integer"}]},
        ],
    }
    context = {"currentStepId": "second", "completedOutputStepIds": ["first"]}
    section = {"workflowDataCatalog": workflow, "workflowDataStepContext": context}
    answer = _complete(_with("workflow.outputs.second.@@c@@", section))
    assert labels(answer) == [] and not answer.is_incomplete
    assert labels(_complete(_with("workflow.outputs.first.@@c@@", section))) == ["a"]


def test_write_through_an_alias_before_the_site_hides_root_fields():
    before = doc("let r = {k: 1}\nlet s = r\ns.k = 2\nr.@@c@@")
    after = doc("let r = {k: 1}\nlet s = r\nr.@@c@@\ns.k = 2")
    assert labels(_complete(before)) == []
    assert labels(_complete(after)) == ["k"]


def test_record_value_on_its_own_line_is_not_an_escape():
    assert labels(_complete(doc("let r = {k: 1}\nlet q = {x: r\n y: 1}\nr.@@c@@"))) == ["k"]
    assert labels(_complete(doc("let r = {k: 1}\nlet q = {x: r, y: 1}\nr.@@c@@"))) == []
