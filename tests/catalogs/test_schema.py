"""The published settings schema agrees with the parser on every sample.

"Parser accepts" means: applying ``{"octoscript": sample}`` as a configuration
refresh discards no projection (``null`` clears count as accepted). The
schema describes the refresh object, so both workflow keys travel together.

Rules JSON Schema cannot express are listed in ``SCHEMA_BLIND``: the schema
accepts those samples and the parser rejects them.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from octoscript_lsp.catalogs.store import CatalogState, CatalogStore
from octoscript_lsp.limits import (
    MAX_MODULE_CATALOG_DESCRIPTORS,
    MAX_MODULE_INPUT_FIELDS,
    MAX_MODULE_PATH_BYTES,
    MAX_TOOL_CATALOG_ENTRIES,
    MAX_TOOL_DESCRIPTION_BYTES,
    MAX_WORKFLOW_FIELDS,
    MAX_WORKFLOW_OUTPUTS,
)
from tests.catalogs.helpers import (
    field,
    shaped,
    tool,
    weather,
    wf_field,
    workflow_catalog,
    workflow_context,
)


def _schema() -> dict[str, Any]:
    text = resources.files("octoscript_lsp").joinpath("schemas/settings.schema.json").read_text()
    return json.loads(text)


SCHEMA = _schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _schema_accepts(sample: Any) -> bool:
    return VALIDATOR.is_valid(sample)


def _parser_accepts(sample: Any) -> bool:
    store = CatalogStore()
    store.apply_settings({"octoscript": sample})
    states = (store.tools.state, store.modules.state, store.workflow.state)
    return isinstance(sample, dict) and CatalogState.DISCARDED not in states


def _pair(catalog: Any = None, context: Any = None) -> dict[str, Any]:
    return {
        "workflowDataCatalog": workflow_catalog() if catalog is None else catalog,
        "workflowDataStepContext": workflow_context() if context is None else context,
    }


def _modules(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"moduleCatalog": list(entries)}


GOOD: list[Any] = [
    {},
    {"unrelated": {"any": [1, 2]}},
    {"toolCatalog": [tool(), tool("math.add", "json")]},
    {"toolCatalog": [{"name": "x", "format": "json"}]},
    {"toolCatalog": [{**tool(), "inputSchema": {"type": "object"}}]},
    {"toolCatalog": []},
    {"toolCatalog": None},
    {"moduleCatalog": None},
    {"moduleCatalog": []},
    {"moduleCatalog": weather()},
    _modules({"path": "mod.std.extra"}),
    _modules({"path": "mod.a.b", "callMode": "synchronous"}),
    _modules(shaped(inputFields=[field("x", "object", fields=[field("y")])])),
    _pair(),
    _pair(context=workflow_context("prepare", [])),
    {"workflowDataCatalog": None, "workflowDataStepContext": None},
    {**_pair(), "toolCatalog": [], "moduleCatalog": None},
    {"toolCatalog": [tool(f"t{i}") for i in range(MAX_TOOL_CATALOG_ENTRIES)]},
]

BAD: list[Any] = [
    [],
    None,
    "x",
    {"toolCatalog": {}},
    {"toolCatalog": "text.echo"},
    {"toolCatalog": [tool("Bad")]},
    {"toolCatalog": [tool("")]},
    {"toolCatalog": [tool("a" * 129)]},
    {"toolCatalog": [tool("text.echo\n")]},
    {"toolCatalog": [tool(fmt="binary")]},
    {"toolCatalog": [{"name": "a"}]},
    {"toolCatalog": [{"format": "text"}]},
    {"toolCatalog": [tool(description=None)]},
    {"toolCatalog": [tool(description="d" * (MAX_TOOL_DESCRIPTION_BYTES + 1))]},
    {"toolCatalog": [tool(f"t{i}") for i in range(MAX_TOOL_CATALOG_ENTRIES + 1)]},
    {"toolCatalog": [None]},
    {"moduleCatalog": {}},
    _modules({"path": "mod"}),
    _modules({"path": "mod.tool"}),
    _modules({"path": "mod.tool.call"}),
    _modules({"path": "mod.app.let"}),
    _modules({"path": "mod.9a"}),
    _modules({"path": "app.weather"}),
    _modules({"path": "mod.app\n"}),
    _modules({"path": "mod." + ".".join(["s"] * 16)}),
    _modules({"path": "mod." + "a" * (MAX_MODULE_PATH_BYTES - 3)}),
    _modules({}),
    _modules({"path": "mod.a", "description": None}),
    _modules({"path": "mod.a", "callMode": "synchronous"}),
    _modules({"path": "mod.a.b", "callMode": "sync"}),
    _modules({"path": "mod.a.b", "callShape": "single_json"}),
    _modules({"path": "mod.a.b", "callMode": "deferred", "callShape": "json"}),
    _modules({"path": "mod.a.b", "callMode": "deferred", "inputFields": []}),
    _modules({"path": "mod.a.b", "outputFields": []}),
    _modules(shaped(inputFields=[field("x", "float")])),
    _modules(shaped(inputFields=[field("x", required=None)])),
    _modules(shaped(inputFields=[field("x", required=1)])),
    _modules(shaped(inputFields=[{"name": "x", "type": "string"}])),
    _modules(shaped(inputFields=[field("if")])),
    _modules(shaped(outputFields=[field("x" * 129)])),
    _modules(shaped(outputFields=[field("x", "string", fields=[])])),
    _modules(shaped(outputFields=[field("x", "object", fields=[field("y", "object", fields=[])])])),
    _modules(shaped(inputFields=[field(f"f{i}") for i in range(MAX_MODULE_INPUT_FIELDS + 1)])),
    _modules(*({"path": f"mod.p{i}"} for i in range(MAX_MODULE_CATALOG_DESCRIPTORS + 1))),
    {"workflowDataCatalog": workflow_catalog()},
    {"workflowDataStepContext": workflow_context()},
    {"workflowDataCatalog": None, "workflowDataStepContext": workflow_context()},
    {"workflowDataCatalog": workflow_catalog(), "workflowDataStepContext": None},
    _pair(catalog={"inputFields": []}),
    _pair(catalog={"outputs": []}),
    _pair(catalog={**workflow_catalog(), "inputFields": [wf_field("a-b")]}),
    _pair(catalog={**workflow_catalog(), "inputFields": [wf_field("a", "int")]}),
    _pair(catalog={**workflow_catalog(), "inputFields": [wf_field("a", description=1)]}),
    _pair(catalog={"inputFields": [], "outputs": [{"stepId": "release-publish", "fields": []}]}),
    _pair(catalog={"inputFields": [], "outputs": [{"stepId": "a"}]}),
    _pair(
        catalog={
            "inputFields": [wf_field(f"f{i}") for i in range(MAX_WORKFLOW_FIELDS + 1)],
            "outputs": [],
        }
    ),
    _pair(
        catalog={
            "inputFields": [],
            "outputs": [{"stepId": f"s{i}", "fields": []} for i in range(MAX_WORKFLOW_OUTPUTS + 1)],
        }
    ),
    _pair(context={"currentStepId": "calculate"}),
    _pair(context={"currentStepId": "calculate", "completedOutputStepIds": [1]}),
    _pair(context={"currentStepId": "bad-id", "completedOutputStepIds": []}),
]


def _bad_module_pair() -> dict[str, Any]:
    return _modules({"path": "mod.a.b", "callMode": "synchronous"}, {"path": "mod.a.b.c"})


SCHEMA_BLIND: list[Any] = [
    {"toolCatalog": [tool(), tool()]},  # duplicate names
    {"toolCatalog": [tool(description="é" * (MAX_TOOL_DESCRIPTION_BYTES // 2 + 1))]},  # bytes
    {"toolCatalog": [tool(description="\ud800")]},  # not encodable as UTF-8
    {"toolCatalog": [tool(f"t{i}", description="d" * 4096) for i in range(128)]},  # 512 KiB
    _modules({"path": "mod.a"}, {"path": "mod.a"}),  # duplicate paths
    _bad_module_pair(),  # callMode on a parent
    _modules(shaped(inputFields=[field("x"), field("x")])),  # duplicate fields
    _modules(  # aggregate input fields across descriptors
        shaped("mod.a.x", inputFields=[field(f"f{i}") for i in range(600)]),
        shaped("mod.a.y", inputFields=[field(f"f{i}") for i in range(600)]),
    ),
    _pair(context=workflow_context("prepare", ["prepare"])),  # not the prefix + next step
    _pair(context=workflow_context("calculate", [])),
    _pair(catalog={"inputFields": [wf_field("x"), wf_field("x")], "outputs": []}),
]


@pytest.mark.parametrize("sample", GOOD)
def test_good_samples(sample: Any) -> None:
    assert _schema_accepts(sample)
    assert _parser_accepts(sample)


@pytest.mark.parametrize("sample", BAD)
def test_bad_samples(sample: Any) -> None:
    assert not _schema_accepts(sample)
    assert not _parser_accepts(sample)


@pytest.mark.parametrize("sample", SCHEMA_BLIND)
def test_documented_schema_blind_spots(sample: Any) -> None:
    assert _schema_accepts(sample)
    assert not _parser_accepts(sample)


def test_schema_is_valid_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_limits_match_constants() -> None:
    defs = SCHEMA["$defs"]
    assert defs["toolCatalog"]["maxItems"] == MAX_TOOL_CATALOG_ENTRIES
    assert defs["moduleCatalog"]["maxItems"] == MAX_MODULE_CATALOG_DESCRIPTORS
    assert defs["moduleFields"]["maxItems"] == MAX_MODULE_INPUT_FIELDS
    assert defs["workflowFields"]["maxItems"] == MAX_WORKFLOW_FIELDS
    assert defs["moduleDescriptor"]["properties"]["path"]["maxLength"] == MAX_MODULE_PATH_BYTES
    outputs = defs["workflowDataCatalog"]["properties"]["outputs"]
    assert outputs["maxItems"] == MAX_WORKFLOW_OUTPUTS


def test_samples_are_not_mutated_between_checks() -> None:
    sample = _pair()
    before = copy.deepcopy(sample)
    _schema_accepts(sample)
    _parser_accepts(sample)
    assert sample == before
