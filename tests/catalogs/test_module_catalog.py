"""One case per acceptance/rejection rule of the `moduleCatalog` projection."""

from __future__ import annotations

from typing import Any

import pytest

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.model import CallMode, FieldType
from octoscript_lsp.catalogs.modules import parse_module_catalog
from octoscript_lsp.limits import (
    MAX_MODULE_CATALOG_BYTES,
    MAX_MODULE_CATALOG_DESCRIPTORS,
    MAX_MODULE_DESCRIPTION_BYTES,
    MAX_MODULE_FIELD_DESCRIPTION_BYTES,
    MAX_MODULE_INPUT_FIELDS,
    MAX_MODULE_OUTPUT_FIELDS,
    MAX_MODULE_PATH_BYTES,
)
from octoscript_lsp.syntax.tokens import RESERVED_WORDS
from tests.catalogs.helpers import field, shaped, weather


def _accepts(value: Any) -> bool:
    try:
        parse_module_catalog(value)
    except CatalogRejected:
        return False
    return True


def test_reference_example_accepted() -> None:
    assert _accepts(weather())


# ----------------------------------------------------------------- paths

LONG_SEGMENT_PATH = "mod." + "a" * (MAX_MODULE_PATH_BYTES - 4)


@pytest.mark.parametrize(
    "path",
    [
        "mod.app",
        "mod.a.b.c",
        "mod._x",
        "mod.A9",
        "mod.std.custom",
        "mod.toolbox",
        "mod.app.tool",
        "mod.catch",
        "mod.await",
        "mod." + ".".join(["s"] * 15),
        LONG_SEGMENT_PATH,
    ],
)
def test_valid_paths(path: str) -> None:
    assert _accepts([{"path": path}])


@pytest.mark.parametrize(
    "path",
    [
        "mod",
        "",
        "app.weather",
        "Mod.app",
        "mod.",
        "mod..a",
        "mod.a.",
        ".mod.a",
        "mod.9a",
        "mod.a-b",
        "mod.a b",
        "mod.é",
        "mod.tool",
        "mod.tool.call",
        "mod.let",
        "mod.app.fn",
        "mod." + ".".join(["s"] * 16),
        LONG_SEGMENT_PATH + "a",
        "mod.app\n",
        " mod.app",
    ],
)
def test_invalid_paths(path: str) -> None:
    assert not _accepts([{"path": path}])


@pytest.mark.parametrize("word", sorted(RESERVED_WORDS))
def test_reserved_words_rejected_as_segments(word: str) -> None:
    assert not _accepts([{"path": f"mod.app.{word}"}])


@pytest.mark.parametrize("entry", [{}, {"path": None}, {"path": 1}, {"path": ["mod", "a"]}])
def test_path_required_string(entry: dict[str, Any]) -> None:
    assert not _accepts([entry])


def test_duplicate_paths_reject() -> None:
    assert not _accepts([{"path": "mod.a"}, {"path": "mod.b"}, {"path": "mod.a"}])


# ----------------------------------------------------------- description


@pytest.mark.parametrize("description", [None, 1, [], {}])
def test_description_must_be_string(description: Any) -> None:
    assert not _accepts([{"path": "mod.a", "description": description}])


def test_description_byte_limit() -> None:
    assert _accepts([{"path": "mod.a", "description": "x" * MAX_MODULE_DESCRIPTION_BYTES}])
    too_long = "é" * (MAX_MODULE_DESCRIPTION_BYTES // 2 + 1)
    assert not _accepts([{"path": "mod.a", "description": too_long}])


# ------------------------------------------------------- callMode / shape


@pytest.mark.parametrize("mode", ["synchronous", "deferred"])
def test_call_modes_on_three_segment_leaf(mode: str) -> None:
    catalog = parse_module_catalog([{"path": "mod.a.b", "callMode": mode}])
    assert catalog.descriptors[0].call_mode is CallMode(mode)


@pytest.mark.parametrize("mode", ["sync", "Deferred", "", None, 1, True])
def test_bad_call_modes(mode: Any) -> None:
    assert not _accepts([{"path": "mod.a.b", "callMode": mode}])


def test_call_mode_needs_three_segments() -> None:
    assert not _accepts([{"path": "mod.a", "callMode": "synchronous"}])


@pytest.mark.parametrize(
    "others",
    [
        [{"path": "mod.a.b.c"}],
        [{"path": "mod.a.b.c.d"}],
        [{"path": "mod.a.b.c", "callMode": "deferred"}],
    ],
)
def test_call_mode_not_on_a_parent(others: list[dict[str, Any]]) -> None:
    assert not _accepts([{"path": "mod.a.b", "callMode": "synchronous"}, *others])
    assert not _accepts([*others, {"path": "mod.a.b", "callMode": "synchronous"}])


def test_call_mode_beside_a_sibling_is_fine() -> None:
    assert _accepts(
        [
            {"path": "mod.a.b", "callMode": "synchronous"},
            {"path": "mod.a.bc", "callMode": "synchronous"},
            {"path": "mod.a"},
        ]
    )


def test_call_shape_single_json_with_mode() -> None:
    assert _accepts([{"path": "mod.a.b", "callMode": "deferred", "callShape": "single_json"}])


@pytest.mark.parametrize("shape", ["json", "SINGLE_JSON", "", None, 0])
def test_bad_call_shapes(shape: Any) -> None:
    assert not _accepts([{"path": "mod.a.b", "callMode": "deferred", "callShape": shape}])


def test_call_shape_requires_call_mode() -> None:
    assert not _accepts([{"path": "mod.a.b", "callShape": "single_json"}])


@pytest.mark.parametrize("key", ["inputFields", "outputFields"])
@pytest.mark.parametrize(
    "base",
    [{"path": "mod.a.b"}, {"path": "mod.a.b", "callMode": "synchronous"}],
)
def test_field_lists_need_single_json_shape(key: str, base: dict[str, Any]) -> None:
    assert not _accepts([{**base, key: []}])
    assert not _accepts([{**base, key: [field()]}])


@pytest.mark.parametrize("key", ["inputFields", "outputFields"])
def test_field_lists_with_shape(key: str) -> None:
    catalog = parse_module_catalog([shaped(**{key: [field()]})])
    descriptor = catalog.descriptors[0]
    assert getattr(descriptor, "input_fields" if key == "inputFields" else "output_fields")


# ---------------------------------------------------------------- fields

FIELD_KEYS = ["inputFields", "outputFields"]


def _with_fields(key: str, fields: Any) -> list[dict[str, Any]]:
    return [shaped(**{key: fields})]


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("type_", [t.value for t in FieldType])
def test_eight_field_types(key: str, type_: str) -> None:
    assert _accepts(_with_fields(key, [field("x", type_)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("type_", ["int", "Object", "float", "", None, 1])
def test_bad_field_types(key: str, type_: Any) -> None:
    assert not _accepts(_with_fields(key, [field("x", type_)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("required", [None, 1, 0, "true", "false", []])
def test_required_must_be_boolean(key: str, required: Any) -> None:
    assert not _accepts(_with_fields(key, [field("x", required=required)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("missing", ["name", "type", "required"])
def test_field_keys_required(key: str, missing: str) -> None:
    entry = field("x")
    del entry[missing]
    assert not _accepts(_with_fields(key, [entry]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize(
    "name", ["", "9x", "a-b", "a.b", "let", "true", "x" * 129, "é", "a b", None, 1]
)
def test_bad_field_names(key: str, name: Any) -> None:
    assert not _accepts(_with_fields(key, [field(name)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_field_name_limit(key: str) -> None:
    assert _accepts(_with_fields(key, [field("x" * 128)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_field_description_rules(key: str) -> None:
    limit = MAX_MODULE_FIELD_DESCRIPTION_BYTES
    assert _accepts(_with_fields(key, [field("x", description="d" * limit)]))
    assert not _accepts(_with_fields(key, [field("x", description="d" * (limit + 1))]))
    assert not _accepts(_with_fields(key, [field("x", description=None)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("value", [None, {}, "x", 1, [None], ["x"], [[]]])
def test_field_list_shapes(key: str, value: Any) -> None:
    assert not _accepts(_with_fields(key, value))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_duplicate_root_fields(key: str) -> None:
    assert not _accepts(_with_fields(key, [field("x"), field("x", "number", False)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_duplicate_child_fields(key: str) -> None:
    children = [field("c"), field("c")]
    assert not _accepts(_with_fields(key, [field("x", "object", fields=children)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_same_name_at_different_levels_is_fine(key: str) -> None:
    assert _accepts(_with_fields(key, [field("x", "object", fields=[field("x")])]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("type_", ["any", "array", "string", "null"])
def test_fields_only_on_object(key: str, type_: str) -> None:
    assert not _accepts(_with_fields(key, [field("x", type_, fields=[])]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_no_grandchildren(key: str) -> None:
    child = field("c", "object", fields=[])
    assert not _accepts(_with_fields(key, [field("x", "object", fields=[child])]))


@pytest.mark.parametrize("key", FIELD_KEYS)
@pytest.mark.parametrize("value", [None, {}, "x", [1]])
def test_child_fields_must_be_list_of_fields(key: str, value: Any) -> None:
    assert not _accepts(_with_fields(key, [field("x", "object", fields=value)]))


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_child_fields_sorted_and_retained(key: str) -> None:
    catalog = parse_module_catalog(
        _with_fields(key, [field("x", "object", fields=[field("b"), field("a")])])
    )
    descriptor = catalog.descriptors[0]
    fields = descriptor.input_fields if key == "inputFields" else descriptor.output_fields
    assert fields is not None and fields[0].fields is not None
    assert [c.name for c in fields[0].fields] == ["a", "b"]
    assert fields[0].child("a") is not None and fields[0].child("z") is None


def _many_fields(count: int) -> list[dict[str, Any]]:
    return [field(f"f{i}") for i in range(count)]


@pytest.mark.parametrize(
    ("key", "limit"),
    [("inputFields", MAX_MODULE_INPUT_FIELDS), ("outputFields", MAX_MODULE_OUTPUT_FIELDS)],
)
def test_aggregate_field_limits_across_descriptors(key: str, limit: int) -> None:
    half = limit // 2
    ok = [
        shaped("mod.a.x", **{key: _many_fields(half)}),
        shaped("mod.a.y", **{key: _many_fields(limit - half)}),
    ]
    assert _accepts(ok)
    over = [
        shaped("mod.a.x", **{key: _many_fields(half)}),
        shaped("mod.a.y", **{key: _many_fields(limit - half + 1)}),
    ]
    assert not _accepts(over)


@pytest.mark.parametrize("key", FIELD_KEYS)
def test_children_count_towards_aggregate(key: str) -> None:
    children = _many_fields(MAX_MODULE_INPUT_FIELDS - 1)
    assert _accepts(_with_fields(key, [field("x", "object", fields=children)]))
    children = _many_fields(MAX_MODULE_INPUT_FIELDS)
    assert not _accepts(_with_fields(key, [field("x", "object", fields=children)]))


def test_input_and_output_limits_are_independent() -> None:
    entry = shaped(
        inputFields=_many_fields(MAX_MODULE_INPUT_FIELDS),
        outputFields=_many_fields(MAX_MODULE_OUTPUT_FIELDS),
    )
    assert _accepts([entry])


def test_single_list_over_limit() -> None:
    assert not _accepts(_with_fields("inputFields", _many_fields(MAX_MODULE_INPUT_FIELDS + 1)))


def _descriptor_bytes(path: str, description: str, mode: str = "", shape: str = "") -> int:
    return len(path) + len(description.encode()) + len(mode) + len(shape) + 1


def test_total_retained_bytes_limit() -> None:
    # 130 descriptors: path "mod.pNNN" (8 bytes) + description + 1.
    limit = MAX_MODULE_CATALOG_BYTES
    entries: list[dict[str, Any]] = []
    used = 0
    index = 0
    while used < limit:
        path = f"mod.p{index:03d}"
        room = min(MAX_MODULE_DESCRIPTION_BYTES, limit - used - len(path) - 1)
        entries.append({"path": path, "description": "d" * room})
        used += _descriptor_bytes(path, "d" * room)
        index += 1
    assert used == limit and len(entries) <= MAX_MODULE_CATALOG_DESCRIPTORS
    assert _accepts(entries)
    entries[-1]["description"] += "d"
    assert not _accepts(entries)


def test_field_bytes_count_towards_total() -> None:
    # Shape and mode text, path and field bytes all count; push just past the limit.
    limit = MAX_MODULE_CATALOG_BYTES
    desc = "d" * MAX_MODULE_FIELD_DESCRIPTION_BYTES
    per_field = 4 + len("string") + len(desc) + 1  # names f000..f999 are 4 bytes
    entry = shaped("mod.a.b", description="")
    base = _descriptor_bytes("mod.a.b", "", "deferred", "single_json")
    count = (limit - base) // per_field
    entry["inputFields"] = [field(f"f{i:03d}", description=desc) for i in range(count)]
    assert _accepts([entry])
    remaining = limit - base - count * per_field
    extra_desc = "d" * (remaining - 4 - len("string") - 1)
    entry["outputFields"] = [field("g000", description=extra_desc)]
    assert _accepts([entry])
    entry["outputFields"][0]["description"] += "d"
    assert not _accepts([entry])


def test_descriptor_count_limit() -> None:
    entries = [{"path": f"mod.p{i}"} for i in range(MAX_MODULE_CATALOG_DESCRIPTORS)]
    assert _accepts(entries)
    assert not _accepts([*entries, {"path": "mod.extra"}])


# ------------------------------------------------------------------ misc


def test_unknown_properties_ignored() -> None:
    entries = weather()
    entries[0]["runtime"] = {"deep": [1, 2, {"x": None}]}
    entries[2]["inputFields"][0]["schema"] = {"type": "string"}
    entries[2]["inputFields"][2]["fields"][0]["extra"] = True
    assert _accepts(entries)


@pytest.mark.parametrize("value", [None, {}, "mod.app", 1, {"moduleCatalog": []}])
def test_value_must_be_array(value: Any) -> None:
    assert not _accepts(value)


@pytest.mark.parametrize("entry", [None, "mod.a", [], 1])
def test_entries_must_be_objects(entry: Any) -> None:
    assert not _accepts([entry])


def test_empty_array_valid() -> None:
    assert parse_module_catalog([]).descriptors == ()
