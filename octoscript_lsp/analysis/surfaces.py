"""Compiled-in editor surfaces: `mod.tool` methods and the frozen `mod.std` modules.

Everything here is plain, immutable data plus small lookup helpers. Nothing in
this module knows about LSP transport types; the feature layer turns these
records into completion items, hovers and signature help. The tables are
advisory editor metadata only: a name appearing here does not mean a host
binding, adapter or capability exists.

Facts that must match the reference server byte-for-byte (names, parameter
names and order, result spellings used in signature labels, ordering) are
recorded here; descriptions are our own wording. The completion item kinds
the feature layer gives them are in `features/completion.py`.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from enum import Enum

# The one `ToolFormat`: the tool catalog's entries carry it too, and the
# catalogs layer sits below this one.
from ..catalogs.model import ToolFormat

#: Signature help always carries exactly one signature and points at it.
ACTIVE_SIGNATURE = 0


def active_parameter(argument_index: int, parameter_count: int) -> int | None:
    """Top-level `activeParameter`: the comma count when it names a parameter, else omitted.

    The reference leaves the per-signature `activeParameter` unset and omits the
    top-level one once the cursor is past the last declared parameter.
    """
    if 0 <= argument_index < parameter_count:
        return argument_index
    return None


# --------------------------------------------------------------------------- mod.tool


@dataclass(frozen=True)
class ToolMethod:
    """One fixed method on the `tool` binding from `use mod.tool`."""

    name: str
    parameters: tuple[str, ...]
    format: ToolFormat
    deferred: bool
    description: str

    @property
    def counterpart(self) -> str:
        """The method of the same kind (waiting or deferred) for the other format."""
        return _COUNTERPARTS[self.name]

    @property
    def result(self) -> str:
        """Result spelling used in the signature label."""
        return "promise<string>" if self.deferred else "string"

    @property
    def signature_label(self) -> str:
        return f"tool.{self.name}({', '.join(self.parameters)}) -> {self.result}"

    @property
    def documentation(self) -> str:
        return f"{self.signature_label}\n\n{self.description}\n\n{TOOL_AUTHORITY_NOTE}"


TOOL_MODULE_PATH: tuple[str, ...] = ("mod", "tool")
TOOL_BINDING = "tool"
TOOL_AUTHORITY_NOTE = (
    "Editor metadata only. The host checks the tool name and the script's grant when "
    "the call runs; nothing shown here makes a tool available."
)

#: Completion order is this order (already sorted by label).
TOOL_METHODS: tuple[ToolMethod, ...] = (
    ToolMethod(
        name="call",
        parameters=("name", "input"),
        format=ToolFormat.TEXT,
        deferred=False,
        description="Runs a text tool and waits for its text reply.",
    ),
    ToolMethod(
        name="call_json",
        parameters=("name", "value"),
        format=ToolFormat.JSON,
        deferred=False,
        description=(
            "Runs a JSON tool and waits for its reply. The value is sent across the "
            "bounded JSON bridge; the reply is JSON text to decode with parse_json()."
        ),
    ),
    ToolMethod(
        name="start",
        parameters=("name", "input"),
        format=ToolFormat.TEXT,
        deferred=True,
        description=(
            "Begins a text tool run and returns a promise; call .await() on it to get "
            "the text reply."
        ),
    ),
    ToolMethod(
        name="start_json",
        parameters=("name", "value"),
        format=ToolFormat.JSON,
        deferred=True,
        description=(
            "Begins a JSON tool run and returns a promise. The value crosses the bounded "
            "JSON bridge; after .await(), decode the JSON text reply with parse_json()."
        ),
    ),
)

_TOOL_METHODS_BY_NAME = {method.name: method for method in TOOL_METHODS}
_COUNTERPARTS = {
    method.name: other.name
    for method in TOOL_METHODS
    for other in TOOL_METHODS
    if other.deferred == method.deferred and other.format is not method.format
}


def tool_method(name: str) -> ToolMethod | None:
    return _TOOL_METHODS_BY_NAME.get(name)


def is_tool_import(path: tuple[str, ...]) -> bool:
    return tuple(path) == TOOL_MODULE_PATH


def tool_call_format(method_name: str) -> ToolFormat | None:
    """Which catalog `format` a literal first argument of this method completes from."""
    method = tool_method(method_name)
    return method.format if method is not None else None


# --------------------------------------------------------------------------- mod.std.*


class MemberKind(Enum):
    FUNCTION = "function"
    CONSTANT = "constant"


@dataclass(frozen=True)
class StdMember:
    name: str
    kind: MemberKind
    parameters: tuple[str, ...]
    result: str
    description: str

    def header(self, receiver: str) -> str:
        """First line of hover/documentation and the signature label, e.g.
        `math.pow(base, exponent) -> number` (`receiver` as written)."""
        if self.kind is MemberKind.CONSTANT:
            return f"{receiver}.{self.name} -> {self.result}"
        return f"{receiver}.{self.name}({', '.join(self.parameters)}) -> {self.result}"


@dataclass(frozen=True)
class StdModule:
    """One frozen `mod.std.<name>` module (or the `assert` function leaf)."""

    name: str
    is_function: bool
    members: tuple[StdMember, ...]
    detail: str
    summary: str
    authority_note: str

    @property
    def path(self) -> tuple[str, ...]:
        return (*STD_NAMESPACE_PATH, self.name)

    def member_documentation(self, member: StdMember, receiver: str | None = None) -> str:
        head = member.header(receiver or self.name)
        return f"{head}\n\n{member.description}\n\n{self.authority_note}"


def _members(table: str) -> tuple[StdMember, ...]:
    """A module's members, sorted by name, from lines `name(a, b) -> result:
    description` (a constant has no parameter list; an indented line goes on
    with the description above it)."""
    members = []
    for entry in re.split(r"\n(?=\S)", textwrap.dedent(table).strip()):
        head, description = entry.split(": ", 1)
        signature, result = head.split(" -> ")
        name, call, parameters = signature.partition("(")
        members.append(
            StdMember(
                name,
                MemberKind.FUNCTION if call else MemberKind.CONSTANT,
                tuple(parameters.rstrip(")").split(", ")) if call else (),
                result,
                " ".join(description.split()),
            )
        )
    return tuple(sorted(members, key=lambda item: item.name))


MATH = StdModule(
    name="math",
    is_function=False,
    detail="octoscript core module: pure number functions",
    summary=(
        "Built-in number helpers and the constants pi and e. Purely local; no host "
        "module is looked up and nothing is granted."
    ),
    authority_note="Built-in, side-effect-free helper; it never reaches the host.",
    members=_members(
        """
        abs(value) -> number: Absolute value of a number.
        atan2(y, x) -> number: Angle in radians from the positive x axis to the point (x, y).
        ceil(value) -> number: Smallest whole number that is not below the input.
        clamp(value, minimum, maximum) -> number: Keeps value within minimum..maximum (both
            inclusive); a minimum above the maximum is a script error.
        cos(value) -> number: Cosine of an angle given in radians.
        e -> number: Euler's number, the base of natural logarithms, about 2.71828.
        exp(value) -> number: e raised to the given power.
        floor(value) -> number: Largest whole number that is not above the input.
        ln(value) -> number: Logarithm to base e.
        log10(value) -> number: Logarithm to base 10.
        max(left, right) -> number: The greater of two numbers.
        min(left, right) -> number: The lesser of two numbers.
        pi -> number: Ratio of a circle's circumference to its diameter, about 3.14159.
        pow(base, exponent) -> number: base raised to the power exponent.
        round(value) -> number: The whole number closest to the input.
        sin(value) -> number: Sine of an angle given in radians.
        sqrt(value) -> number: Square root of a number.
        tan(value) -> number: Tangent of an angle given in radians.
        """
    ),
)

JSON = StdModule(
    name="json",
    is_function=False,
    detail="octoscript core module: bounded JSON encode/decode",
    summary=(
        "Built-in JSON reading and writing under the runtime's JSON limits. Purely "
        "local; no host module is looked up and nothing is granted."
    ),
    authority_note="Built-in data helper with runtime bounds; it never reaches the host.",
    members=_members(
        """
        parse(document) -> JSON value: Decodes strict JSON from a string or UTF-8 byte array,
            enforcing the configured size and depth limits.
        stringify(value) -> string: Encodes a JSON-safe value as JSON text, enforcing the
            configured size, depth and cycle limits.
        """
    ),
)

TEXT = StdModule(
    name="text",
    is_function=False,
    detail="octoscript core module: bounded string helpers",
    summary=(
        "Built-in string shaping with bounded results. Purely local; no host module is "
        "looked up and nothing is granted."
    ),
    authority_note="Built-in string helper with runtime bounds; it never reaches the host.",
    members=_members(
        """
        contains(value, needle) -> boolean: Whether needle occurs literally.
        ends_with(value, suffix) -> boolean: Whether the string finishes with suffix.
        index_of(value, needle) -> number: Position of the first literal occurrence of needle,
            -1 if none; an empty needle gives 0.
        join(values, separator) -> string: Glues up to 4,096 strings together with separator
            between neighbours.
        last_index_of(value, needle) -> number: Position of the last literal occurrence of
            needle, -1 if none; an empty needle gives the string's length.
        len(value) -> number: Length counted in Unicode scalar values.
        lower(value) -> string: Lower-case copy of the string.
        replace_all(value, from, to) -> string: Swaps every non-overlapping literal occurrence
            of from for to.
        slice(value, start, end) -> string: Substring from start up to, not including, end
            (Unicode scalar positions).
        split(value, delimiter) -> array: Cuts at each literal occurrence of a non-empty
            delimiter, keeping empty pieces.
        starts_with(value, prefix) -> boolean: Whether the string begins with prefix.
        trim(value) -> string: Drops Unicode whitespace from both ends.
        upper(value) -> string: Upper-case copy of the string.
        """
    ),
)

ARRAY = StdModule(
    name="array",
    is_function=False,
    detail="octoscript core module: bounded array helpers",
    summary=(
        "Built-in local array operations with bounded results. No host module is looked "
        "up and nothing is granted."
    ),
    authority_note="Built-in array helper with runtime bounds; it never reaches the host.",
    members=_members(
        """
        compact(value) -> array: Shallow copy without nil items (false, 0 and "" are kept).
        concat(left, right) -> array: New array with left's items then right's.
        contains(value, item) -> boolean: Whether some item equals item directly (scalars by
            value, arrays and records by identity).
        flatten(value) -> array: Joins one level of nested arrays when every item is an array;
            4,096 items max.
        get(value, index, fallback) -> value: Item at index, or fallback when the index is
            absent.
        has_index(value, index) -> boolean: Whether a non-negative index falls inside the array
            (a nil item still counts).
        index_of(value, item) -> number: First position whose item equals item directly, or -1.
        len(value) -> number: Number of items, read without walking the array.
        push(value, item) -> nil: Adds item to the end of the array in place.
        range(start, end) -> array: Non-negative integers from start up to, not including, end;
            at most 4,096.
        reverse(value) -> array: Shallow copy in reverse order.
        slice(value, start, end) -> array: Shallow copy of the items from start up to, not
            including, end.
        unique(value) -> array: Shallow copy keeping only the first of directly-equal items,
            order preserved.
        """
    ),
)

OBJECT = StdModule(
    name="object",
    is_function=False,
    detail="octoscript core module: bounded record helpers",
    summary=(
        "Built-in helpers over a record's own fields with bounded results. No host module "
        "is looked up and nothing is granted."
    ),
    authority_note="Built-in record helper with runtime bounds; it never reaches the host.",
    members=_members(
        """
        entries(value) -> array: Own [key, value] pairs in stored order.
        from_entries(entries) -> object: Plain record built from [key, value] pairs with text
            keys; a repeated key keeps the last value.
        get(value, key, fallback) -> value: Own field key, or fallback when it is missing.
        has(value, key) -> boolean: Whether the record has an own text field key (a nil value
            still counts).
        keys(value) -> array: Own field names in stored order.
        len(value) -> number: Number of own fields, read without walking the record.
        merge(left, right) -> object: Shallow union: left's field order first, right's values
            win.
        omit(value, keys) -> object: Shallow record without the listed own fields; unknown keys
            are skipped.
        pick(value, keys) -> object: Shallow record with only the listed own fields that exist.
        values(value) -> array: Own field values in stored order.
        with(value, key, item) -> object: Shallow copy with field key set to item, replacing or
            appending it.
        """
    ),
)

#: The `assert(condition)` function bound by `use mod.std.assert`.
ASSERT_FUNCTION = StdMember(
    name="assert",
    kind=MemberKind.FUNCTION,
    parameters=("condition",),
    result="",
    description="Stops the script with an error when condition is false.",
)

ASSERT_AUTHORITY_NOTE = "Built-in check; it never reaches the host."

ASSERT = StdModule(
    name="assert",
    is_function=True,
    members=(),
    detail="octoscript core function: assertion",
    summary="",  # replaced by assert_documentation("assert") wherever it is shown
    authority_note=ASSERT_AUTHORITY_NOTE,
)


def assert_signature_label(callee: str) -> str:
    """`assert(condition)` for a direct call, `std.assert(condition)` through `use mod.std`."""
    return f"{callee}({', '.join(ASSERT_FUNCTION.parameters)})"


def assert_documentation(callee: str = "assert") -> str:
    return (
        f"{assert_signature_label(callee)}\n\n{ASSERT_FUNCTION.description}\n\n"
        f"{ASSERT_AUTHORITY_NOTE}"
    )


#: The six std leaves, sorted by name (the order `use mod.std.` and `std.` list them).
STD_MODULES: tuple[StdModule, ...] = tuple(
    sorted((MATH, JSON, ARRAY, OBJECT, TEXT, ASSERT), key=lambda module: module.name)
)
STD_MODULE_NAMES: tuple[str, ...] = tuple(module.name for module in STD_MODULES)
_STD_BY_NAME = {module.name: module for module in STD_MODULES}

STD_NAMESPACE_PATH: tuple[str, ...] = ("mod", "std")


def std_module(name: str) -> StdModule | None:
    """A std leaf by its short name (`"math"`, ..., `"assert"`)."""
    return _STD_BY_NAME.get(name)


def std_module_for_import(path: tuple[str, ...]) -> StdModule | None:
    """The std leaf an import path names exactly (`("mod", "std", "math")` -> MATH)."""
    path = tuple(path)
    if len(path) != 3 or path[:2] != STD_NAMESPACE_PATH:
        return None
    return _STD_BY_NAME.get(path[2])


def members(module: StdModule | str) -> tuple[StdMember, ...]:
    """Members of a std module, sorted by label as the reference lists them.

    `assert` has no members (it is a function); an unknown name has none either.
    """
    resolved = std_module(module) if isinstance(module, str) else module
    return resolved.members if resolved is not None else ()


def member(module: StdModule | str, name: str) -> StdMember | None:
    """Exact member lookup; an unknown member yields `None` (no hover, no signature)."""
    for candidate in members(module):
        if candidate.name == name:
            return candidate
    return None


def member_names(module: StdModule | str) -> tuple[str, ...]:
    return tuple(item.name for item in members(module))


# --------------------------------------------------------------------------- import paths


@dataclass(frozen=True)
class ImportPathChild:
    """One fixed child offered below a `mod` / `mod.std` prefix."""

    name: str
    detail: str
    documentation: str


STD_NAMESPACE_CHILD = ImportPathChild(
    name="std",
    detail="octoscript core namespace (fixed, side-effect free)",
    documentation=(
        "The built-in octoscript namespace. Listing it does not look up a host module "
        "or grant anything."
    ),
)


def _std_child(module: StdModule) -> ImportPathChild:
    documentation = assert_documentation("assert") if module.is_function else module.summary
    return ImportPathChild(module.name, module.detail, documentation)


ROOT_IMPORT_CHILDREN: tuple[ImportPathChild, ...] = (STD_NAMESPACE_CHILD,)
STD_IMPORT_CHILDREN: tuple[ImportPathChild, ...] = tuple(
    _std_child(module) for module in STD_MODULES
)


def is_fixed_core_path(prefix: tuple[str, ...]) -> bool:
    """True at or below `mod.std`: the catalog may add nothing there and it is never incomplete.

    The one test of "under `mod.std`"; every layer above asks it.
    """
    return tuple(prefix[:2]) == STD_NAMESPACE_PATH


def import_path_children(prefix: tuple[str, ...]) -> tuple[ImportPathChild, ...] | None:
    """Fixed children below an import prefix (the segments already typed, `mod` first).

    `("mod",)` -> `std`; `("mod", "std")` -> the six leaves; anything deeper under
    `mod.std` -> `()` (closed, complete); any other prefix -> `None` (not fixed: the
    advisory module catalog alone decides).
    """
    prefix = tuple(prefix)
    if prefix == ("mod",):
        return ROOT_IMPORT_CHILDREN
    if prefix == STD_NAMESPACE_PATH:
        return STD_IMPORT_CHILDREN
    if is_fixed_core_path(prefix):
        return ()
    return None


def import_path_child(prefix: tuple[str, ...], name: str) -> ImportPathChild | None:
    for child in import_path_children(prefix) or ():
        if child.name == name:
            return child
    return None
