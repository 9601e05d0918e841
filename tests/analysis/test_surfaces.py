"""Tables of the compiled-in surfaces: tool methods, std modules, import paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octoscript_lsp.analysis import surfaces as s
from octoscript_lsp.features import completion as kinds

# name -> (kind, parameters, result), exactly as the reference's signature labels spell them
F, C = s.MemberKind.FUNCTION, s.MemberKind.CONSTANT
EXPECTED: dict[str, dict[str, tuple[s.MemberKind, tuple[str, ...], str]]] = {
    "math": {
        "abs": (F, ("value",), "number"),
        "atan2": (F, ("y", "x"), "number"),
        "ceil": (F, ("value",), "number"),
        "clamp": (F, ("value", "minimum", "maximum"), "number"),
        "cos": (F, ("value",), "number"),
        "e": (C, (), "number"),
        "exp": (F, ("value",), "number"),
        "floor": (F, ("value",), "number"),
        "ln": (F, ("value",), "number"),
        "log10": (F, ("value",), "number"),
        "max": (F, ("left", "right"), "number"),
        "min": (F, ("left", "right"), "number"),
        "pi": (C, (), "number"),
        "pow": (F, ("base", "exponent"), "number"),
        "round": (F, ("value",), "number"),
        "sin": (F, ("value",), "number"),
        "sqrt": (F, ("value",), "number"),
        "tan": (F, ("value",), "number"),
    },
    "json": {
        "parse": (F, ("document",), "JSON value"),
        "stringify": (F, ("value",), "string"),
    },
    "array": {
        "compact": (F, ("value",), "array"),
        "concat": (F, ("left", "right"), "array"),
        "contains": (F, ("value", "item"), "boolean"),
        "flatten": (F, ("value",), "array"),
        "get": (F, ("value", "index", "fallback"), "value"),
        "has_index": (F, ("value", "index"), "boolean"),
        "index_of": (F, ("value", "item"), "number"),
        "len": (F, ("value",), "number"),
        "push": (F, ("value", "item"), "nil"),
        "range": (F, ("start", "end"), "array"),
        "reverse": (F, ("value",), "array"),
        "slice": (F, ("value", "start", "end"), "array"),
        "unique": (F, ("value",), "array"),
    },
    "object": {
        "entries": (F, ("value",), "array"),
        "from_entries": (F, ("entries",), "object"),
        "get": (F, ("value", "key", "fallback"), "value"),
        "has": (F, ("value", "key"), "boolean"),
        "keys": (F, ("value",), "array"),
        "len": (F, ("value",), "number"),
        "merge": (F, ("left", "right"), "object"),
        "omit": (F, ("value", "keys"), "object"),
        "pick": (F, ("value", "keys"), "object"),
        "values": (F, ("value",), "array"),
        "with": (F, ("value", "key", "item"), "object"),
    },
    "text": {
        "contains": (F, ("value", "needle"), "boolean"),
        "ends_with": (F, ("value", "suffix"), "boolean"),
        "index_of": (F, ("value", "needle"), "number"),
        "join": (F, ("values", "separator"), "string"),
        "last_index_of": (F, ("value", "needle"), "number"),
        "len": (F, ("value",), "number"),
        "lower": (F, ("value",), "string"),
        "replace_all": (F, ("value", "from", "to"), "string"),
        "slice": (F, ("value", "start", "end"), "string"),
        "split": (F, ("value", "delimiter"), "array"),
        "starts_with": (F, ("value", "prefix"), "boolean"),
        "trim": (F, ("value",), "string"),
        "upper": (F, ("value",), "string"),
    },
    "assert": {},
}

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "reference"


def test_lsp_kind_numbers() -> None:
    assert kinds.KIND_TOOL_METHOD == 2
    assert kinds.KIND_STD_FUNCTION == 3
    assert kinds.KIND_STD_NAMESPACE_MEMBER == 5
    assert kinds.KIND_IMPORT_PATH_SEGMENT == 9
    assert kinds.KIND_TOOL_NAME_LITERAL == 12
    assert kinds.KIND_STD_CONSTANT == 21


@pytest.mark.parametrize("module_name", sorted(EXPECTED))
def test_every_std_member(module_name: str) -> None:
    module = s.std_module(module_name)
    assert module is not None
    expected = EXPECTED[module_name]
    assert s.member_names(module_name) == tuple(sorted(expected))
    for name, (kind, parameters, result) in expected.items():
        item = s.member(module, name)
        assert item is not None, name
        assert item.kind is kind
        assert item.parameters == parameters
        assert item.result == result
        assert item.description and "\n" not in item.description
        expected_kind = 21 if kind is C else 3
        assert kinds.std_member_kind(item) == expected_kind


def test_member_order_is_label_order() -> None:
    for module in s.STD_MODULES:
        names = [item.name for item in s.members(module)]
        assert names == sorted(names)
        assert len(set(names)) == len(names)


def test_unknown_members_and_modules() -> None:
    assert s.member("math", "nope") is None
    assert s.member("math", "") is None
    assert s.member("assert", "assert") is None
    assert s.members("log") == ()
    assert s.std_module("log") is None
    assert s.member("nosuch", "len") is None


def test_std_module_for_import() -> None:
    for name in ("math", "json", "array", "object", "text", "assert"):
        module = s.std_module_for_import(("mod", "std", name))
        assert module is not None and module.name == name
        assert module.path == ("mod", "std", name)
    assert s.std_module_for_import(("mod", "std")) is None
    assert s.std_module_for_import(("mod", "std", "math", "x")) is None
    assert s.std_module_for_import(("mod", "custom", "math")) is None
    assert s.std_module_for_import(("mod", "std", "log")) is None
    assert s.std_module_for_import(("mod", "tool")) is None
    assert s.ASSERT.is_function and not s.MATH.is_function


def test_signature_labels_and_documentation() -> None:
    clamp = s.member("math", "clamp")
    assert clamp is not None
    assert clamp.header("math") == "math.clamp(value, minimum, maximum) -> number"
    pi = s.member(s.MATH, "pi")
    assert pi is not None
    assert pi.header("math") == "math.pi -> number"
    parse = s.member("json", "parse")
    assert parse is not None
    assert parse.header("json") == "json.parse(document) -> JSON value"
    push = s.member("array", "push")
    assert push is not None
    assert push.header("array") == "array.push(value, item) -> nil"
    doc = s.MATH.member_documentation(clamp)
    first, blank, description, blank2, note = doc.split("\n")
    assert first == "math.clamp(value, minimum, maximum) -> number"
    assert blank == blank2 == ""
    assert description == clamp.description and note == s.MATH.authority_note


def test_tool_methods() -> None:
    assert [m.name for m in s.TOOL_METHODS] == ["call", "call_json", "start", "start_json"]
    table = {m.name: m for m in s.TOOL_METHODS}
    assert table["call"].parameters == ("name", "input")
    assert table["start"].parameters == ("name", "input")
    assert table["call_json"].parameters == ("name", "value")
    assert table["start_json"].parameters == ("name", "value")
    assert table["call"].signature_label == "tool.call(name, input) -> string"
    assert table["start"].signature_label == "tool.start(name, input) -> promise<string>"
    assert table["call_json"].signature_label == "tool.call_json(name, value) -> string"
    assert table["start_json"].signature_label == "tool.start_json(name, value) -> promise<string>"
    assert s.tool_call_format("call") is s.ToolFormat.TEXT
    assert s.tool_call_format("start") is s.ToolFormat.TEXT
    assert s.tool_call_format("call_json") is s.ToolFormat.JSON
    assert s.tool_call_format("start_json") is s.ToolFormat.JSON
    assert s.tool_call_format("calls") is None
    assert s.tool_method("nope") is None
    assert s.is_tool_import(("mod", "tool"))
    assert not s.is_tool_import(("mod", "tool", "call"))
    for method in s.TOOL_METHODS:
        assert method.documentation.startswith(method.signature_label + "\n\n")


def test_assert_surface() -> None:
    assert s.ASSERT_FUNCTION.parameters == ("condition",)
    assert s.assert_signature_label("assert") == "assert(condition)"
    assert s.assert_signature_label("std.assert") == "std.assert(condition)"
    assert s.assert_documentation("std.assert").startswith("std.assert(condition)\n\n")
    assert s.member_names("assert") == ()


def test_import_path_tables() -> None:
    root = s.import_path_children(("mod",))
    assert root is not None and [c.name for c in root] == ["std"]
    std = s.import_path_children(("mod", "std"))
    assert std is not None
    assert [c.name for c in std] == ["array", "assert", "json", "math", "object", "text"]
    assert s.STD_MODULE_NAMES == ("array", "assert", "json", "math", "object", "text")
    for leaf in s.STD_MODULE_NAMES:
        assert s.import_path_children(("mod", "std", leaf)) == ()
    assert s.import_path_children(("mod", "std", "log")) == ()
    assert s.import_path_children(("mod", "std", "math", "deep")) == ()
    assert s.import_path_children(("mod", "app")) is None
    assert s.import_path_children(("mod", "tool")) is None
    assert s.is_fixed_core_path(("mod", "std"))
    assert s.is_fixed_core_path(("mod", "std", "x"))
    assert not s.is_fixed_core_path(("mod",))
    assert not s.is_fixed_core_path(("mod", "app"))
    assert s.import_path_child(("mod", "std"), "math") is not None
    assert s.import_path_child(("mod", "std"), "log") is None
    assert s.STD_IMPORT_CHILDREN == std
    assert all(child.detail and child.documentation for child in root + std)
    assert s.import_path_child(("mod", "std"), "assert").documentation.startswith(
        "assert(condition)"
    )


def test_active_parameter() -> None:
    assert s.active_parameter(0, 2) == 0
    assert s.active_parameter(1, 2) == 1
    assert s.active_parameter(2, 2) is None
    assert s.active_parameter(0, 0) is None
    assert s.ACTIVE_SIGNATURE == 0


def test_tables_are_frozen() -> None:
    with pytest.raises(AttributeError):
        s.MATH.name = "other"  # type: ignore[misc]
    item = s.member("math", "abs")
    with pytest.raises(AttributeError):
        item.name = "x"  # type: ignore[misc,union-attr]


def _reference(name: str) -> dict:
    path = REFERENCE / f"{name}.json"
    if not path.exists():
        pytest.skip("conformance reference answers not available")
    return json.loads(path.read_text())


@pytest.mark.parametrize("module_name", ["math", "json", "array", "object", "text"])
def test_matches_recorded_reference_completion(module_name: str) -> None:
    items = _reference(f"std-{module_name}-members")["results"][0]["items"]
    got = {item.name: int(kinds.std_member_kind(item)) for item in s.members(module_name)}
    assert got == {item["label"]: item["kind"] for item in items}


def test_matches_recorded_reference_tool_and_import() -> None:
    tool = _reference("tool-catalog-m")["results"][0]["items"]
    assert {i["label"]: i["kind"] for i in tool} == {m.name: 2 for m in s.TOOL_METHODS}
    std = _reference("std-import-std-partial")["results"][0]["items"]
    assert {i["label"]: i["kind"] for i in std} == {n: 9 for n in s.STD_MODULE_NAMES}
    sig = _reference("tool-sig-start-json")["results"][0]
    method = s.tool_method("start_json")
    assert method is not None
    assert sig["label"] == method.signature_label
    assert sig["parameters"] == len(method.parameters)
