"""The parsers' structural rules come from the schema; reasons name place and rule only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.modules import parse_module_catalog
from octoscript_lsp.catalogs.schema import SETTINGS_SCHEMA, validate_definition
from octoscript_lsp.catalogs.store import CatalogStore
from tests.catalogs.helpers import field, shaped, tool

SECRET = "zzsecretzz"


@pytest.mark.parametrize(
    ("section", "reason"),
    [
        ({"toolCatalog": {"x": SECRET}}, "toolCatalog is not of type array"),
        ({"toolCatalog": [{"name": SECRET}]}, "toolCatalog[0].format is missing"),
        (
            {"toolCatalog": [tool(SECRET.upper())]},
            "toolCatalog[0].name does not have the required form",
        ),
        ({"toolCatalog": [tool(fmt=SECRET)]}, "toolCatalog[0].format is not a supported value"),
        ({"toolCatalog": [tool()] * 129}, "toolCatalog has more than 128 entries"),
        (
            {"moduleCatalog": [{"path": "mod.a", "callShape": "single_json"}]},
            "moduleCatalog[0].callShape needs callMode",
        ),
        (
            {"moduleCatalog": [shaped(inputFields=[field(fields=[])])]},
            "moduleCatalog[0].inputFields[0] carries a property that is not allowed here",
        ),
        (
            {"moduleCatalog": [shaped(inputFields=[field(description=SECRET * 500)])]},
            "moduleCatalog[0].inputFields[0].description is longer than 4096 characters",
        ),
    ],
)
def test_schema_reasons(section: dict[str, Any], reason: str) -> None:
    store = CatalogStore()
    store.apply_settings({"octoscript": section})
    status = json.dumps(store.status())
    assert reason in status
    assert SECRET not in status.lower()


def test_aggregate_count_is_refused_before_the_schema_walks_fields() -> None:
    # 2 x 600 inputs are each within the per-list limit but not in total.
    entries = [
        shaped(f"mod.a.m{i}", inputFields=[{"name": f"f{n}"} for n in range(600)]) for i in range(2)
    ]
    with pytest.raises(CatalogRejected) as rejected:
        parse_module_catalog(entries)
    # The fields are malformed (no type), yet the cheaper aggregate rule speaks first.
    assert rejected.value.reason == "moduleCatalog inputFields exceed 1024 fields in total"


def test_validators_check_the_definitions_the_settings_object_refers_to() -> None:
    for key in ("toolCatalog", "moduleCatalog", "workflowDataCatalog", "workflowDataStepContext"):
        assert SETTINGS_SCHEMA["properties"][key]["anyOf"][0] == {"$ref": f"#/$defs/{key}"}
    validate_definition([tool()], "toolCatalog", "toolCatalog")
    with pytest.raises(CatalogRejected, match=r"^here\[0\]\.name is missing$"):
        validate_definition([{"format": "text"}], "toolCatalog", "here")
