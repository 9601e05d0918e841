"""Replacement rules, status and fingerprints of `CatalogStore`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from octoscript_lsp.catalogs.store import CatalogState, CatalogStore
from tests.catalogs.helpers import tool, weather, workflow_catalog, workflow_context

ABSENT, VALID = CatalogState.ABSENT, CatalogState.VALID
DISCARDED, CLEARED = CatalogState.DISCARDED, CatalogState.CLEARED
KEYS = ("toolCatalog", "moduleCatalog", "workflowData")


def _full() -> dict[str, Any]:
    return {
        "toolCatalog": [tool("text.echo"), tool("math.add", "json")],
        "moduleCatalog": weather(),
        "workflowDataCatalog": workflow_catalog(),
        "workflowDataStepContext": workflow_context(),
    }


def _started(section: Any = None) -> CatalogStore:
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": _full() if section is None else section})
    return store


def _states(store: CatalogStore) -> tuple[CatalogState, CatalogState, CatalogState]:
    return store.tools.state, store.modules.state, store.workflow.state


def _refresh(store: CatalogStore, section: Any) -> None:
    store.apply_settings({"octoscript": section})


# ----------------------------------------------------------- initialization


def test_fresh_store_is_absent() -> None:
    store = CatalogStore()
    assert _states(store) == (ABSENT, ABSENT, ABSENT)
    status = store.status()
    assert status.pop("catalogFiles") == []
    for entry in status.values():
        assert entry == {
            "state": "absent",
            "generation": 0,
            "entries": 0,
            "fingerprint": None,
            "reason": None,
            "source": None,
        }


@pytest.mark.parametrize("options", [None, [], "x", 3, {}, {"other": 1}, {"splash": {}}])
def test_init_without_section_keeps_absent(options: Any) -> None:
    store = CatalogStore()
    store.apply_initialization_options(options)
    assert _states(store) == (ABSENT, ABSENT, ABSENT)


@pytest.mark.parametrize("section", [None, [], "x", 1, True])
def test_init_non_object_section_discards_all(section: Any) -> None:
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": section})
    assert _states(store) == (DISCARDED, DISCARDED, DISCARDED)
    assert all(s.unavailable for s in _states(store))


def test_init_full_is_valid() -> None:
    store = _started()
    assert _states(store) == (VALID, VALID, VALID)
    status = store.status()
    assert status["toolCatalog"]["entries"] == 2
    assert status["moduleCatalog"]["entries"] == 5
    assert status["workflowData"]["entries"] == 4  # 2 input fields + 2 outputs
    assert all(status[k]["generation"] == 1 for k in KEYS)


@pytest.mark.parametrize("key", ["toolCatalog", "moduleCatalog"])
def test_init_null_is_malformed(key: str) -> None:
    store = _started({key: None})
    assert (store.tools if key == "toolCatalog" else store.modules).state is DISCARDED


def test_init_catalog_without_context_shows_all_outputs() -> None:
    store = _started({"workflowDataCatalog": workflow_catalog()})
    data = store.workflow_data
    assert data is not None and not data.context_configured
    assert data.visible_step_ids() == ("calculate", "prepare")


def test_init_context_without_catalog_discards() -> None:
    store = _started({"workflowDataStepContext": workflow_context()})
    assert store.workflow.state is DISCARDED


def test_init_bad_context_discards_catalog_too() -> None:
    store = _started(
        {
            "workflowDataCatalog": workflow_catalog(),
            "workflowDataStepContext": workflow_context("prepare", ["prepare"]),
        }
    )
    assert store.workflow.state is DISCARDED and store.workflow_data is None


def test_init_both_null_discards_workflow() -> None:
    store = _started({"workflowDataCatalog": None, "workflowDataStepContext": None})
    assert store.workflow.state is DISCARDED


def test_init_keys_independent() -> None:
    store = _started({"toolCatalog": [tool(), tool()], "moduleCatalog": weather()})
    assert _states(store) == (DISCARDED, VALID, ABSENT)


# ------------------------------------------------------------------ refresh


def test_omitted_keys_keep() -> None:
    store = _started()
    before = store.status()
    _refresh(store, {"unrelated": 1})
    store.apply_settings({"other": {"x": 1}})
    assert store.status() == before


@pytest.mark.parametrize("key", ["toolCatalog", "moduleCatalog"])
def test_null_clears_one_catalog_only(key: str) -> None:
    store = _started()
    _refresh(store, {key: None})
    expected = (CLEARED, VALID, VALID) if key == "toolCatalog" else (VALID, CLEARED, VALID)
    assert _states(store) == expected
    cleared = store.status()[key]
    assert cleared["state"] == "cleared" and cleared["generation"] == 2
    assert cleared["fingerprint"] is None and cleared["entries"] == 0


def test_malformed_tool_discards_only_tools() -> None:
    store = _started()
    _refresh(store, {"toolCatalog": [tool(), tool()]})
    assert _states(store) == (DISCARDED, VALID, VALID)
    assert store.tool_catalog is None and store.tools.state.unavailable
    assert "duplicate" in (store.tools.reason or "")


def test_malformed_module_with_valid_tool() -> None:
    store = _started()
    _refresh(
        store,
        {"toolCatalog": [tool("json.echo", "json")], "moduleCatalog": [{"path": "mod.tool.x"}]},
    )
    assert _states(store) == (VALID, DISCARDED, VALID)
    assert [t.name for t in store.tool_catalog.tools] == ["json.echo"]


def test_empty_array_is_complete_empty_catalog() -> None:
    store = _started()
    _refresh(store, {"toolCatalog": [], "moduleCatalog": []})
    assert _states(store)[:2] == (VALID, VALID)
    assert store.tool_catalog.tools == () and store.module_catalog.descriptors == ()
    assert store.status()["toolCatalog"]["entries"] == 0
    assert store.status()["toolCatalog"]["fingerprint"] is not None


def test_recovery_after_discard() -> None:
    store = _started()
    _refresh(store, {"toolCatalog": {}})
    _refresh(store, {"toolCatalog": [tool("text.recovered")]})
    assert store.tools.state is VALID
    assert store.tools.generation == 3


@pytest.mark.parametrize("settings", [None, [], "x", 1, False])
def test_non_object_settings_clears_everything(settings: Any) -> None:
    store = _started()
    store.apply_settings(settings)
    assert _states(store) == (CLEARED, CLEARED, CLEARED)


@pytest.mark.parametrize("section", [None, [], "x", 1])
def test_non_object_section_clears_everything(section: Any) -> None:
    store = _started()
    _refresh(store, section)
    assert _states(store) == (CLEARED, CLEARED, CLEARED)
    assert all(store.status()[k]["generation"] == 2 for k in KEYS)


@pytest.mark.parametrize("params", [None, [], {}, {"setting": {}}])
def test_malformed_params_clear_everything(params: Any) -> None:
    store = _started()
    store.apply_did_change_configuration(params)
    assert _states(store) == (CLEARED, CLEARED, CLEARED)


def test_params_wrapper() -> None:
    store = _started()
    store.apply_did_change_configuration({"settings": {"octoscript": {"toolCatalog": None}}})
    assert _states(store) == (CLEARED, VALID, VALID)


# ------------------------------------------------------------ workflow pair


def test_workflow_pair_replaces_atomically() -> None:
    store = _started({"workflowDataCatalog": workflow_catalog()})
    _refresh(
        store,
        {
            "workflowDataCatalog": workflow_catalog(),
            "workflowDataStepContext": workflow_context("prepare", []),
        },
    )
    data = store.workflow_data
    assert data is not None and data.context_configured and data.visible_step_ids() == ()


@pytest.mark.parametrize("key", ["workflowDataCatalog", "workflowDataStepContext"])
def test_one_workflow_key_discards(key: str) -> None:
    store = _started()
    value = workflow_catalog() if key == "workflowDataCatalog" else workflow_context()
    _refresh(store, {key: value})
    assert store.workflow.state is DISCARDED
    assert _states(store)[:2] == (VALID, VALID)


@pytest.mark.parametrize("key", ["workflowDataCatalog", "workflowDataStepContext"])
def test_single_null_discards(key: str) -> None:
    store = _started()
    _refresh(store, {key: None})
    assert store.workflow.state is DISCARDED


@pytest.mark.parametrize("key", ["workflowDataCatalog", "workflowDataStepContext"])
def test_one_null_beside_value_discards(key: str) -> None:
    store = _started()
    section = {
        "workflowDataCatalog": workflow_catalog(),
        "workflowDataStepContext": workflow_context(),
    }
    section[key] = None
    _refresh(store, section)
    assert store.workflow.state is DISCARDED


def test_both_null_clears_workflow() -> None:
    store = _started()
    _refresh(store, {"workflowDataCatalog": None, "workflowDataStepContext": None})
    assert _states(store) == (VALID, VALID, CLEARED)
    assert store.workflow.state.unavailable


def test_bad_context_discards_the_pair() -> None:
    store = _started()
    _refresh(
        store,
        {
            "workflowDataCatalog": workflow_catalog(),
            "workflowDataStepContext": workflow_context("calculate", []),
        },
    )
    assert store.workflow.state is DISCARDED and store.workflow_data is None


def test_tool_update_keeps_workflow_and_modules() -> None:
    store = _started()
    before = store.status()
    _refresh(store, {"toolCatalog": []})
    after = store.status()
    assert after["moduleCatalog"] == before["moduleCatalog"]
    assert after["workflowData"] == before["workflowData"]
    assert after["toolCatalog"]["generation"] == 2


# ---------------------------------------------------- generation, fingerprint

FINGERPRINT = re.compile(r"blake3:[0-9a-f]{64}")


def test_fingerprint_format_and_generation_growth() -> None:
    store = _started()
    for key in KEYS:
        assert FINGERPRINT.fullmatch(store.status()[key]["fingerprint"])
    first = store.status()["toolCatalog"]["fingerprint"]
    _refresh(store, {"toolCatalog": [tool("text.echo"), tool("math.add", "json")]})
    assert store.status()["toolCatalog"]["fingerprint"] == first  # same content
    assert store.status()["toolCatalog"]["generation"] == 2  # still a new generation
    _refresh(store, {"toolCatalog": [tool("text.echo")]})
    assert store.status()["toolCatalog"]["fingerprint"] != first
    assert store.status()["toolCatalog"]["generation"] == 3


def _reorder(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reorder(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reorder(v) for v in value]
    return value


def test_fingerprint_stable_under_key_order_and_unknown_props() -> None:
    a = _started()
    section = _reorder(_full())
    section["moduleCatalog"][0]["ignored"] = {"noise": True}
    section["toolCatalog"].reverse()  # tool order is normalized by name too
    b = _started(section)
    for key in KEYS:
        assert a.status()[key]["fingerprint"] == b.status()[key]["fingerprint"]


def test_fingerprint_sensitive_to_workflow_context() -> None:
    a = _started()
    b = _started({"workflowDataCatalog": workflow_catalog()})
    assert a.status()["workflowData"]["fingerprint"] != b.status()["workflowData"]["fingerprint"]


def test_status_is_json_serializable() -> None:
    store = _started()
    _refresh(store, {"toolCatalog": 7})
    json.dumps(store.status())
    assert store.status()["toolCatalog"]["reason"]


def test_reason_never_echoes_input() -> None:
    store = CatalogStore()
    secret = "supersecretvalue"
    store.apply_initialization_options(
        {
            "octoscript": {
                "toolCatalog": [tool(secret.upper())],
                "moduleCatalog": [{"path": f"mod.{secret}-x"}],
            }
        }
    )
    for key in KEYS:
        assert secret not in json.dumps(store.status()[key]).lower()


# ------------------------------------------------------ conformance samples

CASES = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cases"


def _replay(name: str) -> CatalogStore:
    case = json.loads((CASES / f"{name}.json").read_text())
    store = CatalogStore()
    store.apply_initialization_options(case.get("initializationOptions"))
    for step in case["steps"]:
        if "config" in step:
            store.apply_settings(step["config"])
    return store


@pytest.mark.skipif(not CASES.is_dir(), reason="conformance sample not available")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tool-config-duplicate-fails", (DISCARDED, ABSENT, ABSENT)),
        ("tool-config-replace", (VALID, ABSENT, ABSENT)),
        ("tool-config-settings-not-object", (CLEARED, CLEARED, CLEARED)),
        ("tool-config-max-ok", (VALID, ABSENT, ABSENT)),
        ("modules-config-bad-path", (ABSENT, DISCARDED, ABSENT)),
        ("modules-config-bad-type", (ABSENT, DISCARDED, ABSENT)),
        ("modules-config-fields-without-shape", (ABSENT, DISCARDED, ABSENT)),
        ("modules-config-mode-with-children", (ABSENT, DISCARDED, ABSENT)),
        ("modules-config-tool-update-keeps-modules", (VALID, VALID, ABSENT)),
        ("modules-config-unknown-props-ok", (ABSENT, VALID, ABSENT)),
        ("workflow-bad-context", (ABSENT, ABSENT, DISCARDED)),
        ("workflow-absent", (ABSENT, ABSENT, ABSENT)),
        ("workflow-unrelated-update-keeps", (VALID, ABSENT, VALID)),
    ],
)
def test_conformance_states(name: str, expected: tuple[CatalogState, ...]) -> None:
    if not (CASES / f"{name}.json").exists():
        pytest.skip("case not present")
    assert _states(_replay(name)) == expected


# ------------------------------------------------ deferred initial parsing


def test_initialization_catalogs_are_parsed_on_first_read() -> None:
    store = _started()
    assert store.unparsed
    assert store.tools.state is VALID and store.tools.generation == 1
    assert not store.unparsed
    assert store.modules.state is VALID and store.workflow.state is VALID


@pytest.mark.parametrize(
    "later",
    [
        lambda store: _refresh(store, {"toolCatalog": None}),
        lambda store: _refresh(store, {"moduleCatalog": [{"path": 5}]}),
        lambda store: store.apply_did_change_configuration({"settings": None}),
        lambda store: store.apply_initialization_options({"octoscript": {"toolCatalog": []}}),
        lambda store: store.apply_initialization_options({"octoscript": 3}),
    ],
)
def test_an_update_before_the_first_read_ends_as_if_parsed_at_once(later) -> None:
    read_first, unread = _started(), _started()
    read_first.status()
    later(read_first)
    later(unread)
    assert unread.status() == read_first.status() != _started().status()
