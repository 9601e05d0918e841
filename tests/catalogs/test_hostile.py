"""Arbitrary and hostile input never raises and is refused whole.

How fast each hostile catalog is refused is measured in
`benchmarks/bench_hostile_inputs.py`, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.catalogs.search import InvalidSearchQuery, search_tools
from octoscript_lsp.catalogs.store import CatalogState, CatalogStore
from tests.catalogs.helpers import field, shaped, tool, workflow_catalog, workflow_context
from tests.conftest import quick_and_full

KEYS = ["toolCatalog", "moduleCatalog", "workflowDataCatalog", "workflowDataStepContext"]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=40,
)
# Values shaped like the real thing so the parsers get past the first check.
NEAR = st.recursive(
    st.sampled_from(
        [
            None,
            True,
            0,
            "",
            "mod.a.b",
            "text",
            "json",
            "object",
            "string",
            "synchronous",
            "single_json",
            "x",
            "let",
            "prepare",
            "calculate",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "name",
                    "format",
                    "description",
                    "path",
                    "callMode",
                    "callShape",
                    "inputFields",
                    "outputFields",
                    "fields",
                    "type",
                    "required",
                    "stepId",
                    "outputs",
                    "currentStepId",
                    "completedOutputStepIds",
                ]
            ),
            children,
            max_size=6,
        )
    ),
    max_leaves=40,
)


def _all_states_known(store: CatalogStore) -> None:
    for state in (store.tools.state, store.modules.state, store.workflow.state):
        assert isinstance(state, CatalogState)
    store.status()


def _arbitrary_value_in_any_key_never_raises(key: str, value: Any) -> None:
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": {key: value}})
    _all_states_known(store)
    store.apply_settings({"octoscript": {key: value}})
    _all_states_known(store)


(
    test_arbitrary_value_in_any_key_never_raises,
    test_arbitrary_value_in_any_key_never_raises_full_count,
) = quick_and_full(
    _arbitrary_value_in_any_key_never_raises,
    st.sampled_from(KEYS),
    JSON | NEAR,
    quick=60,
    full=300,
    suppress_health_check=[HealthCheck.too_slow],
)


@settings(max_examples=200)
@given(JSON)
def test_arbitrary_settings_and_params_never_raise(value: Any) -> None:
    store = CatalogStore()
    store.apply_initialization_options(value)
    store.apply_settings(value)
    store.apply_did_change_configuration(value)
    store.apply_settings({"octoscript": value})
    _all_states_known(store)


@settings(max_examples=200)
@given(st.dictionaries(st.sampled_from(KEYS), JSON | NEAR, max_size=4))
def test_arbitrary_sections_never_raise(section: dict[str, Any]) -> None:
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": section})
    store.apply_settings({"octoscript": section})
    _all_states_known(store)


@settings(max_examples=200)
@given(st.text(max_size=300), st.one_of(st.none(), st.integers()))
def test_search_raises_only_invalid_query(query: str, limit: int | None) -> None:
    store = CatalogStore()
    store.apply_initialization_options(
        {"octoscript": {"toolCatalog": [tool(f"t.{i}", description="x y z") for i in range(30)]}}
    )
    try:
        result = search_tools(store, query, limit)
    except InvalidSearchQuery:
        return
    assert len(result["tools"]) <= 16


# ------------------------------------------------------------------ hostile

BIG = "x" * 5_000_000


def _deep(depth: int, leaf: Any = None) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _deep_dict(depth: int) -> Any:
    value: Any = {}
    for _ in range(depth):
        value = {"fields": value, "name": "x"}
    return value


HOSTILE: dict[str, Callable[[], dict[str, Any]]] = {
    "100k tools": lambda: {"toolCatalog": [tool(f"t{i}") for i in range(100_000)]},
    "100k modules": lambda: {"moduleCatalog": [{"path": "mod.a"}] * 100_000},
    "100k fields": lambda: {"moduleCatalog": [shaped(inputFields=[field()] * 100_000)]},
    "100k outputs": lambda: {
        "workflowDataCatalog": {"inputFields": [], "outputs": [{"stepId": "a"}] * 100_000},
        "workflowDataStepContext": workflow_context(),
    },
    "100k completed ids": lambda: {
        "workflowDataCatalog": workflow_catalog(),
        "workflowDataStepContext": workflow_context("x", ["prepare"] * 100_000),
    },
    "5MB description": lambda: {"toolCatalog": [tool(description=BIG)]},
    "5MB name": lambda: {"toolCatalog": [tool(BIG)]},
    "5MB path": lambda: {"moduleCatalog": [{"path": "mod." + BIG}]},
    "5MB field description": lambda: {
        "moduleCatalog": [shaped(inputFields=[field(description=BIG)])]
    },
    "5MB step id": lambda: {
        "workflowDataCatalog": {"inputFields": [], "outputs": [{"stepId": BIG, "fields": []}]},
        "workflowDataStepContext": workflow_context(),
    },
    "5MB unknown property": lambda: {"toolCatalog": [{**tool(), "blob": BIG}]},
    "5000-deep list": lambda: {"toolCatalog": _deep(5_000)},
    "5000-deep fields": lambda: {"moduleCatalog": [shaped(inputFields=[_deep_dict(5_000)])]},
    "5000-deep unknown": lambda: {"moduleCatalog": [{"path": "mod.a", "x": _deep(5_000)}]},
    "5000-deep context": lambda: {
        "workflowDataCatalog": workflow_catalog(),
        "workflowDataStepContext": workflow_context("calculate", [_deep(5_000)]),
    },
    "wrong types everywhere": lambda: {k: _deep(5_000, BIG) for k in KEYS},
}


IGNORED = {"5MB unknown property", "5000-deep unknown"}  # unknown properties are ignored


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_refused(name: str) -> None:
    section = HOSTILE[name]()
    for apply in ("init", "refresh"):
        store = CatalogStore()
        if apply == "init":
            store.apply_initialization_options({"octoscript": section})
        else:
            store.apply_settings({"octoscript": section})
        states = (store.tools.state, store.modules.state, store.workflow.state)
        if name in IGNORED:
            assert CatalogState.VALID in states
        else:
            assert CatalogState.DISCARDED in states
            assert CatalogState.VALID not in states


def test_huge_search_query_refused() -> None:
    with pytest.raises(InvalidSearchQuery):
        search_tools(CatalogStore(), BIG)
