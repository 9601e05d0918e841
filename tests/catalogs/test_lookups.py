"""Pure lookup helpers the editor features use."""

from __future__ import annotations

from octoscript_lsp.catalogs.model import (
    CallMode,
    FieldType,
    ModuleCatalog,
    ModuleChild,
    find_field,
)
from octoscript_lsp.catalogs.modules import parse_module_catalog
from octoscript_lsp.catalogs.store import CatalogStore
from tests.catalogs.helpers import weather


def _catalog() -> ModuleCatalog:
    entries = weather()
    entries.append({"path": "mod.deep.ns.leaf", "description": "Deep leaf."})
    return parse_module_catalog(entries)


def test_children_of_root_include_inferred_namespaces() -> None:
    children = _catalog().children("mod")
    assert children == (
        ModuleChild("app", "Application modules.", None),
        ModuleChild("arithmetic", None, None),  # inferred: no borrowed description
        ModuleChild("deep", None, None),
    )


def test_children_carry_direct_metadata_only() -> None:
    children = _catalog().children(("mod", "app", "weather"))
    assert [c.name for c in children] == ["current", "ping"]
    assert children[0].call_mode is CallMode.DEFERRED
    assert children[0].description == "Current forecast."
    assert children[1].description is None  # empty description is not presented
    assert _catalog().children("mod.deep") == (ModuleChild("ns", None, None),)
    assert _catalog().children("mod.app.weather.current") == ()
    assert _catalog().children("mod.nothing") == ()


def test_leaf_parent_and_descriptor() -> None:
    catalog = _catalog()
    assert catalog.is_leaf("mod.app.weather.current")
    assert not catalog.is_leaf("mod.app.weather")  # explicit but has children
    assert not catalog.is_leaf("mod.deep.ns")  # inferred only
    assert catalog.is_parent("mod.deep.ns") and catalog.is_parent(["mod", "app"])
    assert not catalog.is_parent("mod.app.weather.ping")
    assert catalog.knows("mod.deep.ns") and not catalog.knows("mod.deep.nope")
    assert catalog.descriptor("mod.deep.ns") is None
    current = catalog.descriptor(("mod", "app", "weather", "current"))
    assert current is not None and current.is_shaped and current.dotted.endswith("current")
    ping = catalog.descriptor("mod.app.weather.ping")
    assert ping is not None and not ping.is_shaped
    assert {d.dotted for d in catalog.leaves()} == {
        "mod.app.weather.current",
        "mod.app.weather.ping",
        "mod.arithmetic.add",
        "mod.deep.ns.leaf",
    }


def test_field_lookup() -> None:
    current = _catalog().descriptor("mod.app.weather.current")
    assert current is not None and current.input_fields is not None
    assert [f.name for f in current.input_fields] == ["filters", "location", "units"]
    filters = find_field(current.input_fields, "filters")
    assert filters is not None and filters.type is FieldType.OBJECT
    assert filters.child("station") is not None and filters.child("x") is None
    location = find_field(current.input_fields, "location")
    assert location is not None and location.required and location.fields is None
    assert current.output_fields is not None
    summary = find_field(current.output_fields, "summary")
    assert summary is not None and summary.child("temperature") is not None


def test_store_accessors_return_none_unless_valid() -> None:
    store = CatalogStore()
    assert store.tool_catalog is None and store.module_catalog is None
    assert store.workflow_data is None
    store.apply_initialization_options({"octoscript": {"moduleCatalog": weather()}})
    assert store.module_catalog is not None
    store.apply_settings({"octoscript": {"moduleCatalog": {}}})
    assert store.module_catalog is None and store.modules.value is None
