"""One case per acceptance/rejection rule of the workflow-data pair."""

from __future__ import annotations

from typing import Any

import pytest

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.model import FieldType, WorkflowData
from octoscript_lsp.catalogs.workflow import (
    parse_workflow_data_catalog,
    parse_workflow_step_context,
)
from octoscript_lsp.limits import (
    MAX_WORKFLOW_CATALOG_BYTES,
    MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES,
    MAX_WORKFLOW_FIELDS,
    MAX_WORKFLOW_NAME_BYTES,
    MAX_WORKFLOW_OUTPUTS,
)
from tests.catalogs.helpers import wf_field, workflow_catalog, workflow_context


def _accepts(value: Any) -> bool:
    try:
        parse_workflow_data_catalog(value)
    except CatalogRejected:
        return False
    return True


def _context_accepts(value: Any, catalog: Any = None) -> bool:
    parsed = parse_workflow_data_catalog(catalog or workflow_catalog())
    try:
        parse_workflow_step_context(value, parsed)
    except CatalogRejected:
        return False
    return True


def test_reference_example() -> None:
    catalog = parse_workflow_data_catalog(workflow_catalog())
    assert [o.step_id for o in catalog.outputs] == ["prepare", "calculate"]  # host order
    assert [f.name for f in catalog.input_fields] == ["left", "right"]


@pytest.mark.parametrize("value", [None, [], "x", 1, True])
def test_catalog_must_be_object(value: Any) -> None:
    assert not _accepts(value)


@pytest.mark.parametrize("key", ["inputFields", "outputs"])
def test_required_arrays(key: str) -> None:
    value = workflow_catalog()
    del value[key]
    assert not _accepts(value)
    for bad in (None, {}, "x", 1):
        value[key] = bad
        assert not _accepts(value)


def test_empty_arrays_valid() -> None:
    assert _accepts({"inputFields": [], "outputs": []})


@pytest.mark.parametrize(
    "output",
    [
        None,
        "prepare",
        {"fields": []},
        {"stepId": "a"},
        {"stepId": None, "fields": []},
        {"stepId": "a", "fields": None},
        {"stepId": "a", "fields": {}},
        {"stepId": "release-publish", "fields": []},
        {"stepId": "9a", "fields": []},
        {"stepId": "let", "fields": []},
        {"stepId": "", "fields": []},
        {"stepId": "s" * (MAX_WORKFLOW_NAME_BYTES + 1), "fields": []},
    ],
)
def test_bad_outputs(output: Any) -> None:
    assert not _accepts({"inputFields": [], "outputs": [output]})


def test_step_id_length_limit_inclusive() -> None:
    step = "s" * MAX_WORKFLOW_NAME_BYTES
    assert _accepts({"inputFields": [], "outputs": [{"stepId": step, "fields": []}]})


def test_duplicate_step_ids() -> None:
    outputs = [{"stepId": "a", "fields": []}, {"stepId": "a", "fields": []}]
    assert not _accepts({"inputFields": [], "outputs": outputs})


def test_output_count_limit() -> None:
    outputs = [{"stepId": f"s{i}", "fields": []} for i in range(MAX_WORKFLOW_OUTPUTS)]
    assert _accepts({"inputFields": [], "outputs": outputs})
    outputs.append({"stepId": "extra", "fields": []})
    assert not _accepts({"inputFields": [], "outputs": outputs})


@pytest.mark.parametrize("type_", [t.value for t in FieldType])
def test_field_types(type_: str) -> None:
    assert _accepts({"inputFields": [wf_field("x", type_)], "outputs": []})


@pytest.mark.parametrize(
    "entry",
    [
        None,
        "x",
        {"type": "integer"},
        {"name": "x"},
        wf_field("x", "int"),
        wf_field("x", None),
        wf_field("x", description=None),
        wf_field("x", description=3),
        wf_field("a-b"),
        wf_field("if"),
        wf_field(""),
        wf_field("x" * (MAX_WORKFLOW_NAME_BYTES + 1)),
        wf_field(None),
    ],
)
@pytest.mark.parametrize("where", ["input", "output"])
def test_bad_fields(entry: Any, where: str) -> None:
    if where == "input":
        value = {"inputFields": [entry], "outputs": []}
    else:
        value = {"inputFields": [], "outputs": [{"stepId": "a", "fields": [entry]}]}
    assert not _accepts(value)


def test_required_and_nested_fields_are_ignored_properties() -> None:
    entry = wf_field("x", "object", required="nope", fields=[{"bogus": 1}])
    assert _accepts({"inputFields": [entry], "outputs": []})


def test_description_limit() -> None:
    limit = MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES
    assert _accepts({"inputFields": [wf_field("x", description="d" * limit)], "outputs": []})
    over = wf_field("x", description="é" * (limit // 2 + 1))
    assert not _accepts({"inputFields": [over], "outputs": []})


def test_duplicate_field_names_within_one_object() -> None:
    assert not _accepts({"inputFields": [wf_field("x"), wf_field("x")], "outputs": []})
    same_across = {
        "inputFields": [wf_field("x")],
        "outputs": [
            {"stepId": "a", "fields": [wf_field("x")]},
            {"stepId": "b", "fields": [wf_field("x")]},
        ],
    }
    assert _accepts(same_across)


def test_aggregate_field_limit() -> None:
    half = MAX_WORKFLOW_FIELDS // 2
    inputs = [wf_field(f"i{i}") for i in range(half)]
    outputs = [{"stepId": "a", "fields": [wf_field(f"o{i}") for i in range(half)]}]
    assert _accepts({"inputFields": inputs, "outputs": outputs})
    outputs.append({"stepId": "b", "fields": [wf_field("extra")]})
    assert not _accepts({"inputFields": inputs, "outputs": outputs})


def test_total_retained_bytes() -> None:
    limit = MAX_WORKFLOW_CATALOG_BYTES
    desc_limit = MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES
    per_field = 4 + len("integer") + desc_limit + 1  # names f000.. are 4 bytes
    count = limit // per_field
    inputs = [wf_field(f"f{i:03d}", description="d" * desc_limit) for i in range(count)]
    step_cost = len("s") + 1
    remaining = limit - count * per_field - step_cost
    tail = wf_field("g000", description="d" * (remaining - 4 - len("integer") - 1))
    value = {"inputFields": inputs, "outputs": [{"stepId": "s", "fields": [tail]}]}
    assert _accepts(value)
    tail["description"] += "d"
    assert not _accepts(value)


# ---------------------------------------------------------------- context


@pytest.mark.parametrize(
    ("current", "completed"),
    [("prepare", []), ("calculate", ["prepare"])],
)
def test_valid_contexts(current: str, completed: list[str]) -> None:
    assert _context_accepts(workflow_context(current, completed))


@pytest.mark.parametrize(
    ("current", "completed"),
    [
        ("prepare", ["prepare"]),  # current already completed
        ("calculate", []),  # skips prepare
        ("prepare", ["calculate"]),  # reordered
        ("calculate", ["prepare", "calculate"]),  # no step after the prefix
        ("missing", ["prepare"]),
        ("calculate", [1]),
        ("calculate", [None]),
        ("calculate", [["prepare"]]),
    ],
)
def test_invalid_contexts(current: str, completed: list[Any]) -> None:
    assert not _context_accepts(workflow_context(current, completed))


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        "calculate",
        {"currentStepId": "calculate"},
        {"completedOutputStepIds": []},
        {"currentStepId": None, "completedOutputStepIds": []},
        {"currentStepId": "prepare", "completedOutputStepIds": None},
        {"currentStepId": "prepare", "completedOutputStepIds": {}},
    ],
)
def test_malformed_contexts(value: Any) -> None:
    assert not _context_accepts(value)


def test_context_needs_a_catalog() -> None:
    with pytest.raises(CatalogRejected):
        parse_workflow_step_context(workflow_context("prepare", []), None)


def test_context_against_empty_outputs_rejects() -> None:
    assert not _context_accepts(workflow_context("a", []), {"inputFields": [], "outputs": []})


def test_visible_outputs_follow_context() -> None:
    catalog = parse_workflow_data_catalog(workflow_catalog())
    first = WorkflowData(
        catalog, parse_workflow_step_context(workflow_context("prepare", []), catalog)
    )
    assert first.visible_step_ids() == ()
    second = WorkflowData(catalog, parse_workflow_step_context(workflow_context(), catalog))
    assert second.visible_step_ids() == ("prepare",)
    assert second.step_fields("calculate") is None
    assert second.step_field("prepare", "total") is not None
    no_context = WorkflowData(catalog)
    assert no_context.visible_step_ids() == ("calculate", "prepare")  # alphabetical
    assert no_context.input_fields[0].name == "left"
    assert catalog.input_field("right") is not None and catalog.input_field("x") is None
