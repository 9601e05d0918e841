"""Catalog-driven assistance: module paths and members, input and output fields,
workflow data, leaf hover and leaf signature help (unit level, no transport)."""

from __future__ import annotations

import copy

import pytest

from octoscript_lsp.analysis import surfaces
from octoscript_lsp.features import hover, signature
from octoscript_lsp.limits import MAX_STATIC_RECORD_ALIASES

from .helpers import complete as answer_at
from .helpers import doc, items, labels, rng

WEATHER_CURRENT = {
    "path": "mod.app.weather.current",
    "description": "Current forecast.",
    "callMode": "deferred",
    "callShape": "single_json",
    "inputFields": [
        {"name": "location", "type": "string", "required": True, "description": "Where."},
        {"name": "units", "type": "string", "required": False},
        {
            "name": "filters",
            "type": "object",
            "required": False,
            "fields": [
                {"name": "station", "type": "string", "required": False},
                {"name": "radius", "type": "number", "required": False},
            ],
        },
    ],
    "outputFields": [
        {
            "name": "summary",
            "type": "object",
            "required": True,
            "description": "Summary.",
            "fields": [
                {"name": "temperature", "type": "number", "required": True},
                {"name": "wind", "type": "number", "required": False},
            ],
        },
        {"name": "station", "type": "string", "required": False},
    ],
}
MODULES = [
    {"path": "mod.app", "description": "Application modules."},
    {"path": "mod.app.weather", "description": "Host weather module."},
    WEATHER_CURRENT,
    {
        "path": "mod.app.weather.history",
        "description": "Past readings.",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [{"name": "days", "type": "integer", "required": True}],
        "outputFields": [
            {"name": "readings", "type": "array", "required": True},
            {"name": "count", "type": "integer", "required": True},
        ],
    },
    {"path": "mod.app.weather.ping", "description": "Mode only.", "callMode": "synchronous"},
    {"path": "mod.arithmetic.add", "callMode": "synchronous"},
    {"path": "mod.std.extra", "description": "Must never extend the fixed tree."},
]
WORKFLOW = {
    "inputFields": [
        {"name": "left", "type": "integer", "description": "Left operand."},
        {"name": "right", "type": "integer"},
    ],
    "outputs": [
        {"stepId": "prepare", "fields": [{"name": "total", "type": "number"}]},
        {"stepId": "calculate", "fields": [{"name": "sum", "type": "number"}]},
    ],
}
CONTEXT = {"currentStepId": "calculate", "completedOutputStepIds": ["prepare"]}
DEFAULT = object()
WEATHER_MEMBERS = ["current", "history", "ping"]


def configured(marked: str, modules=DEFAULT, workflow=DEFAULT, context=DEFAULT):
    d = doc(marked)
    section: dict = {}
    if modules is not None:
        section["moduleCatalog"] = copy.deepcopy(MODULES if modules is DEFAULT else modules)
    if workflow is not None:
        chosen = WORKFLOW if workflow is DEFAULT else workflow
        section["workflowDataCatalog"] = copy.deepcopy(chosen)
        if context is not None:
            section["workflowDataStepContext"] = CONTEXT if context is DEFAULT else context
    d.catalogs.apply_initialization_options({"octoscript": section})
    return d


def complete(marked: str, mark: str = "c", **catalogs):
    d = configured(marked, **catalogs)
    return answer_at(d.analysis, d.positions, d.at(mark), d.catalogs)


def hover_at(marked: str, mark: str = "c", **catalogs):
    d = configured(marked, **catalogs)
    return hover.hover(d.analysis, d.positions, d.at(mark), d.catalogs)


def signature_at(marked: str, mark: str = "c", **catalogs):
    d = configured(marked, **catalogs)
    return signature.signature_help(d.analysis, d.at(mark), d.catalogs)


def discard_modules(d) -> None:
    d.catalogs.apply_settings({"octoscript": {"moduleCatalog": [{"path": "app"}]}})


# ---------------------------------------------------------------- `use mod.` paths


def test_root_path_lists_std_and_catalog_roots():
    answer = complete("use mod.@@c@@\n")
    assert items(answer) == [
        ("app", 9, (0, 8, 0, 8)),
        ("arithmetic", 9, (0, 8, 0, 8)),
        ("std", 9, (0, 8, 0, 8)),
    ]
    assert answer.is_incomplete is False


def test_catalog_child_path_has_no_std():
    assert labels(complete("use mod.app.@@c@@\n")) == ["weather"]


def test_catalog_never_extends_the_std_tree():
    assert "extra" not in labels(complete("use mod.std.@@c@@\n"))


def test_catalog_root_named_std_is_dropped():
    answer = complete("use mod.@@c@@\n", modules=[{"path": "mod.std.more"}, {"path": "mod.zed"}])
    assert labels(answer) == ["std", "zed"] and answer.is_incomplete is False
    assert answer.items[0].detail == surfaces.STD_NAMESPACE_CHILD.detail  # the fixed one


def test_path_documentation_notes_deferred_mode():
    answer = complete("use mod.app.weather.@@c@@\n")
    current = next(item for item in answer.items if item.label == "current")
    assert current.documentation.kind == "plaintext"
    assert "await()" in current.documentation.value


def test_discarded_module_catalog_is_incomplete_outside_std():
    d = configured("use mod.@@c@@\nuse mod.std.@@s@@\n")
    discard_modules(d)
    root = answer_at(d.analysis, d.positions, d.at("c"), d.catalogs)
    std = answer_at(d.analysis, d.positions, d.at("s"), d.catalogs)
    assert (labels(root), root.is_incomplete) == (["std"], True)
    assert std.is_incomplete is False


def test_absent_module_catalog_is_complete():
    answer = complete("use mod.@@c@@\n", modules=None)
    assert (labels(answer), answer.is_incomplete) == (["std"], False)


@pytest.mark.parametrize(
    ("marked", "incomplete"),
    [
        # A built-in module's members past the first error: none, and complete.
        ("use mod.tool\ntool.@@c@@.", False),
        ("use mod.std.text\ntext.@@c@@.", False),
        # The `mod.std` namespace, `assert`, an alias or a catalog import stay open.
        ("use mod.std\nstd.@@c@@.", True),
        ("use mod.std.assert\nassert.@@c@@.", True),
        ("use mod.tool\nlet t = tool\nt.@@c@@.", True),
        ("use mod.app.weather\nweather.@@c@@.", True),
    ],
)
@pytest.mark.parametrize("unusable", [[{"path": "mod.a"}, {"path": "mod.a"}], None])
def test_built_in_members_past_the_first_error(marked, incomplete, unusable):
    d = configured(marked)
    d.catalogs.apply_settings({"octoscript": {"moduleCatalog": unusable}})
    answer = answer_at(d.analysis, d.positions, d.at("c"), d.catalogs)
    assert not d.analysis.valid
    assert (answer.items, answer.is_incomplete) == ([], incomplete)


# ---------------------------------------------------------------- module members


def test_direct_import_members_are_fields():
    answer = complete("use mod.app.weather\nweather.@@c@@\n")
    assert items(answer) == [(name, 5, (1, 8, 1, 8)) for name in WEATHER_MEMBERS]


def test_member_edit_covers_whole_identifier_only():
    answer = complete("use mod.app.weather\nweather.cu@@c@@rr(1)\n")
    assert {rng(item.text_edit.range) for item in answer.items} == {(1, 8, 1, 12)}
    assert all(item.text_edit.new_text == item.label for item in answer.items)


def test_chained_members_follow_the_path():
    assert labels(complete("use mod.app\napp.weather.@@c@@\n")) == WEATHER_MEMBERS


def test_root_alias_chain_reaches_the_import():
    source = "use mod.app.weather\nlet a = weather\nlet b = a\nb.@@c@@\n"
    assert labels(complete(source)) == WEATHER_MEMBERS


def _alias_chain(hops: int) -> str:
    lines = ["use mod.app.weather", "let a1 = weather"]
    lines += [f"let a{n} = a{n - 1}" for n in range(2, hops + 1)]
    return "\n".join(lines) + f"\na{hops}.@@c@@\n"


def test_alias_chain_of_sixteen_hops_resolves():
    assert labels(complete(_alias_chain(16))) == WEATHER_MEMBERS


def test_alias_chain_of_seventeen_hops_fails_closed():
    assert labels(complete(_alias_chain(17))) == []


@pytest.mark.parametrize(
    "later",
    [
        "api = nil",  # write
        "api += 1",  # compound write
        "send(api)",  # escape into a call
        "let c = api.current",  # member extraction
        "api.current",  # member read without a call
        "api[0]",  # index
        "weather = 1",  # write to the import itself
        "send(weather)",  # the import escapes
    ],
)
def test_any_unstable_use_in_the_group_fails_closed_even_later(later: str):
    source = f"use mod.app.weather\nlet api = weather\napi.@@c@@\n{later}\n"
    answer = complete(source)
    assert (labels(answer), answer.is_incomplete) == ([], False)


def test_direct_member_calls_keep_the_group_stable():
    source = (
        "use mod.app.weather\nlet api = weather\nweather.ping({})\n"
        "api.history({days: 1})\nlet other = api\napi.@@c@@\n"
    )
    assert labels(complete(source)) == WEATHER_MEMBERS


def test_parenthesized_alias_is_no_edge():
    assert labels(complete("use mod.app.weather\nlet api = (weather)\napi.@@c@@\n")) == []


def test_direct_import_ignores_alias_stability():
    source = "use mod.app.weather\nsend(weather)\nweather.@@c@@\n"
    assert labels(complete(source)) == WEATHER_MEMBERS


def test_shadowed_import_gets_nothing():
    assert labels(complete("use mod.app.weather\nlet weather = 1\nweather.@@c@@\n")) == []


def test_unavailable_catalog_member_list_is_incomplete():
    d = configured("use mod.app.weather\nweather.@@c@@\n")
    discard_modules(d)
    answer = answer_at(d.analysis, d.positions, d.at(), d.catalogs)
    assert (labels(answer), answer.is_incomplete) == ([], True)


def test_member_documentation_is_plain_text():
    answer = complete("use mod.app.weather\nweather.@@c@@\n")
    documented = [item for item in answer.items if item.documentation]
    assert documented and all(item.documentation.kind == "plaintext" for item in documented)


def test_alias_to_std_import_is_not_a_fixed_surface():
    source = "use mod.std.math\nlet m = math\nm.@@c@@\n"
    assert labels(complete(source)) == []


def test_alias_edge_budget_exhausted_marks_let_receivers_incomplete():
    lines = ["use mod.app.weather", "let x = weather"]
    lines += [f"let y{n} = x" for n in range(MAX_STATIC_RECORD_ALIASES)]
    answer = complete("\n".join(lines) + "\nx.@@c@@\n")
    assert (labels(answer), answer.is_incomplete) == ([], True)


# ---------------------------------------------------------------- leaf hover and signatures


def test_leaf_hover_shows_path_mode_and_fields():
    found = hover_at("use mod.app.weather\nweather.cur@@c@@rent({})\n")
    assert rng(found.range) == (1, 8, 1, 15)
    text = found.contents.value
    assert found.contents.kind == "plaintext"
    for needle in (
        "mod.app.weather.current",
        "Current forecast.",
        "await()",
        "filters.station",
        "summary.temperature",
    ):
        assert needle in text


def test_namespace_hover_uses_its_descriptor():
    found = hover_at("use mod.app\napp.wea@@c@@ther\n")
    assert rng(found.range) == (1, 4, 1, 11) and "Host weather module." in found.contents.value


def test_unknown_member_has_no_hover():
    assert hover_at("use mod.app.weather\nweather.nop@@c@@e\n") is None


def test_deferred_leaf_signature_returns_a_promise():
    found = signature_at("use mod.app.weather\nweather.current(@@c@@)\n")
    assert found.signatures[0].label == "weather.current(input) -> promise<JSON value>"
    assert [p.label for p in found.signatures[0].parameters] == ["input"]
    assert found.active_parameter == 0


def test_sync_leaf_signature_through_an_alias():
    found = signature_at("use mod.app.weather\nlet w = weather\nw.history(@@c@@)\n")
    assert found.signatures[0].label == "w.history(input) -> JSON value"


def test_mode_only_leaf_has_no_signature():
    assert signature_at("use mod.app.weather\nweather.ping(@@c@@)\n") is None


def test_second_argument_has_no_active_parameter():
    found = signature_at("use mod.app.weather\nweather.history({}, @@c@@)\n")
    assert found is not None and found.active_parameter is None


# ---------------------------------------------------------------- input records


def test_input_keys_skip_declared_ones():
    answer = complete('use mod.app.weather\nweather.current({location: "x", @@c@@})\n')
    assert items(answer) == [("filters", 5, (1, 32, 1, 32)), ("units", 5, (1, 32, 1, 32))]


def test_input_keys_of_one_object_child_level():
    answer = complete("use mod.app.weather\nweather.current({filters: {@@c@@}})\n")
    assert labels(answer) == ["radius", "station"]


@pytest.mark.parametrize(
    "call",
    [
        "weather.current({}, {@@c@@})",  # second argument
        'weather.current({location: "@@c@@"})',  # inside a string
        "weather.current({ // @@c@@\n})",  # inside a comment
        "weather.current({units: 1, units: 2, @@c@@})",  # duplicate prior key
        "weather.current({filters: {a: {@@c@@}}})",  # deeper than one child level
        "weather.current({units: (1], @@c@@})",  # mismatched delimiters
        "weather.current({units: @@c@@})",  # value position
    ],
)
def test_input_record_refusals(call: str):
    answer = complete(f"use mod.app.weather\n{call}\n")
    assert not {"location", "units", "filters", "station"} & set(labels(answer))


def test_mode_only_leaf_offers_no_input_keys():
    answer = complete("use mod.app.weather\nweather.ping({@@c@@})\n")
    assert (labels(answer), answer.is_incomplete) == ([], False)


def test_input_key_hover_and_duplicate_refusal():
    found = hover_at('use mod.app.weather\nweather.current({loca@@c@@tion: "x"})\n')
    assert rng(found.range) == (1, 17, 1, 25) and "Where." in found.contents.value
    duplicate = "use mod.app.weather\nweather.current({units: 1, un@@c@@its: 2})\n"
    assert hover_at(duplicate) is None


def test_input_key_while_typing_at_end_of_file():
    assert "location" in labels(complete("use mod.app.weather\nweather.current({@@c@@"))


# ---------------------------------------------------------------- output fields


RESULT = 'use mod.app.weather\nlet r = weather.current({location: "x"}).await()\n'


def test_deferred_awaited_result_fields():
    answer = complete(RESULT + "r.@@c@@\n")
    assert items(answer) == [("station", 5, (2, 2, 2, 2)), ("summary", 5, (2, 2, 2, 2))]


def test_sync_result_fields():
    assert labels(
        complete("use mod.app.weather\nlet r = weather.history({days: 1})\nr.@@c@@\n")
    ) == ["count", "readings"]


@pytest.mark.parametrize(
    "initializer",
    [
        'weather.current({location: "x"})',  # deferred, not awaited
        "weather.history({days: 1}).await()",  # sync but awaited
        "weather.history({days: 1}, 2)",  # two arguments
        "weather.history()",  # no argument
        "weather.history({days: 1}) + 1",  # more expression after the call
    ],
)
def test_result_binding_refusals(initializer: str):
    source = f"use mod.app.weather\nlet r = {initializer}\nr.@@c@@\n"
    assert labels(complete(source)) == []


def test_one_child_level_and_no_deeper():
    assert labels(complete(RESULT + "r.summary.@@c@@\n")) == ["temperature", "wind"]
    assert labels(complete(RESULT + "r.summary.temperature.@@c@@\n")) == []


def test_result_alias_chain_and_member_reads():
    source = RESULT + "let a = r\nlet t = a.summary.temperature + 1\na.summary.@@c@@\n"
    assert labels(complete(source)) == ["temperature", "wind"]


def test_child_alias_of_a_group_member_fails_closed():
    source = RESULT + "let a = r\nlet t = a.summary\nr.s@@c@@\n"
    assert labels(complete(source)) == []


@pytest.mark.parametrize("later", ["r = nil", "send(r)", "let s = r.summary", "r.summary = 1"])
def test_result_group_instability_fails_closed(later: str):
    assert labels(complete(RESULT + f"r.s@@c@@\n{later}\n")) == []


def test_output_field_hover():
    found = hover_at(RESULT + "r.sum@@c@@mary\n")
    assert rng(found.range) == (2, 2, 2, 9) and "Summary." in found.contents.value


def test_unavailable_catalog_answers_member_sites_incomplete():
    d = configured(RESULT + "r.@@c@@\n")
    discard_modules(d)
    answer = answer_at(d.analysis, d.positions, d.at(), d.catalogs)
    assert (labels(answer), answer.is_incomplete) == ([], True)


# ---------------------------------------------------------------- workflow data

WORKFLOW_SOURCE = (
    "workflow.i@@ns@@\nworkflow.input.l@@in@@\nworkflow.outputs.p@@out@@\n"
    "workflow.outputs.prepare.t@@step@@\nworkflow.outputs.calculate.s@@future@@\n"
    "workflow.input.le@@hover@@ft\n"
)


@pytest.mark.parametrize(
    ("mark", "expected"),
    [
        ("ns", ["input", "outputs"]),
        ("in", ["left", "right"]),
        ("out", ["prepare"]),
        ("step", ["total"]),
        ("future", []),
    ],
)
def test_workflow_completion_with_step_context(mark: str, expected: list[str]):
    answer = complete(WORKFLOW_SOURCE, mark)
    assert (labels(answer), answer.is_incomplete) == (expected, False)
    assert all(int(item.kind) == 5 for item in answer.items)


def test_workflow_outputs_without_context_lists_every_step():
    assert labels(complete(WORKFLOW_SOURCE, "out", context=None)) == ["calculate", "prepare"]


def test_workflow_absent_falls_through():
    answer = complete(WORKFLOW_SOURCE, "ns", workflow=None)
    assert (labels(answer), answer.is_incomplete) == ([], False)


def test_workflow_discarded_is_empty_and_incomplete():
    answer = complete(
        WORKFLOW_SOURCE, "in", context={"currentStepId": "nope", "completedOutputStepIds": []}
    )
    assert (labels(answer), answer.is_incomplete) == ([], True)


def test_workflow_binding_shadows_the_namespace():
    answer = complete("let workflow = {input: 1}\nworkflow.@@c@@\n")
    assert "outputs" not in labels(answer)


def test_workflow_field_hover():
    found = hover_at(WORKFLOW_SOURCE, "hover")
    assert rng(found.range) == (5, 15, 5, 19) and "Left operand." in found.contents.value
    assert found.contents.kind == "plaintext"


def test_workflow_hover_of_an_unfinished_step_is_null():
    assert hover_at("workflow.outputs.calculate.s@@c@@um\n") is None
