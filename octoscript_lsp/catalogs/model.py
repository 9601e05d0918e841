"""Typed, immutable views of the three advisory catalog projections.

Instances are produced only by the parsers in this package (validated wire
JSON -> normalized dict -> ``CONVERTER.structure``). Lists are tuples and are
already in presentation order: tools and modules sorted by name/path, record
fields sorted by name, workflow outputs kept in host order (the step context
depends on it).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override


class ToolFormat(enum.StrEnum):
    TEXT = "text"
    JSON = "json"


class CallMode(enum.StrEnum):
    SYNCHRONOUS = "synchronous"
    DEFERRED = "deferred"


class CallShape(enum.StrEnum):
    SINGLE_JSON = "single_json"


class FieldType(enum.StrEnum):
    ANY = "any"
    NULL = "null"
    BOOLEAN = "boolean"
    NUMBER = "number"
    INTEGER = "integer"
    STRING = "string"
    ARRAY = "array"
    OBJECT = "object"


@attrs.frozen
class ToolEntry:
    name: str
    format: ToolFormat
    description: str = ""


@attrs.frozen
class ToolCatalog:
    tools: tuple[ToolEntry, ...]

    def get(self, name: str) -> ToolEntry | None:
        return find_field(self.tools, name)

    def by_format(self, fmt: ToolFormat) -> tuple[ToolEntry, ...]:
        return tuple(tool for tool in self.tools if tool.format is fmt)


@attrs.frozen
class ModuleField:
    name: str
    type: FieldType
    required: bool
    description: str = ""
    fields: tuple[ModuleField, ...] | None = None

    def child(self, name: str) -> ModuleField | None:
        return find_field(self.fields or (), name)


@attrs.frozen
class ModuleDescriptor:
    path: tuple[str, ...]
    description: str = ""
    call_mode: CallMode | None = None
    call_shape: CallShape | None = None
    input_fields: tuple[ModuleField, ...] | None = None
    output_fields: tuple[ModuleField, ...] | None = None

    @property
    def dotted(self) -> str:
        return ".".join(self.path)

    @property
    def is_shaped(self) -> bool:
        """Has both a call mode and the one-JSON-argument shape."""
        return self.call_mode is not None and self.call_shape is CallShape.SINGLE_JSON


@attrs.frozen
class ModuleChild:
    """One immediate child segment below a catalog path.

    ``description`` and ``call_mode`` come only from a descriptor whose path is
    exactly parent + name; a namespace inferred from a deeper path has neither.
    """

    name: str
    description: str | None
    call_mode: CallMode | None


PathLike = str | Sequence[str]


def as_path(path: PathLike) -> tuple[str, ...]:
    if isinstance(path, str):
        return tuple(path.split("."))
    return tuple(path)


@attrs.frozen
class ModuleCatalog:
    descriptors: tuple[ModuleDescriptor, ...]

    def descriptor(self, path: PathLike) -> ModuleDescriptor | None:
        wanted = as_path(path)
        for module in self.descriptors:
            if module.path == wanted:
                return module
        return None

    def children(self, parent: PathLike) -> tuple[ModuleChild, ...]:
        parent = as_path(parent)
        depth = len(parent)
        merged: dict[str, tuple[str | None, CallMode | None]] = {}
        for module in self.descriptors:
            if len(module.path) <= depth or module.path[:depth] != parent:
                continue
            name = module.path[depth]
            direct = len(module.path) == depth + 1
            description = module.description if direct and module.description else None
            mode = module.call_mode if direct else None
            old_description, old_mode = merged.get(name, (None, None))
            merged[name] = (old_description or description, old_mode or mode)
        return tuple(
            ModuleChild(name=name, description=desc, call_mode=mode)
            for name, (desc, mode) in sorted(merged.items())
        )

    def is_parent(self, path: PathLike) -> bool:
        """Some descriptor lies strictly below ``path``."""
        wanted = as_path(path)
        depth = len(wanted)
        return any(len(m.path) > depth and m.path[:depth] == wanted for m in self.descriptors)

    def is_leaf(self, path: PathLike) -> bool:
        """``path`` is an explicit descriptor with nothing below it."""
        return self.descriptor(path) is not None and not self.is_parent(path)

    def knows(self, path: PathLike) -> bool:
        """Explicit descriptor or a namespace inferred from a deeper one."""
        wanted = as_path(path)
        depth = len(wanted)
        return any(m.path[:depth] == wanted for m in self.descriptors if len(m.path) >= depth)

    def leaves(self) -> tuple[ModuleDescriptor, ...]:
        return tuple(m for m in self.descriptors if not self.is_parent(m.path))


class _Named(Protocol):
    @property
    def name(self) -> str: ...


Named = TypeVar("Named", bound=_Named)


def find_field(fields: Sequence[Named], name: str) -> Named | None:
    """The first of `fields` (or tools) called `name`."""
    return next((field for field in fields if field.name == name), None)


@attrs.frozen
class WorkflowField:
    name: str
    type: FieldType
    description: str = ""


@attrs.frozen
class WorkflowOutput:
    step_id: str
    fields: tuple[WorkflowField, ...]


@attrs.frozen
class WorkflowDataCatalog:
    input_fields: tuple[WorkflowField, ...]
    outputs: tuple[WorkflowOutput, ...]

    def input_field(self, name: str) -> WorkflowField | None:
        return find_field(self.input_fields, name)


@attrs.frozen
class WorkflowStepContext:
    current_step_id: str
    completed_output_step_ids: tuple[str, ...]


@attrs.frozen
class WorkflowData:
    """A valid catalog plus its optional step context.

    Without a context (possible only from initialization options) every
    projected output is visible; with one, only the completed prefix is.
    """

    catalog: WorkflowDataCatalog
    context: WorkflowStepContext | None = None

    @property
    def input_fields(self) -> tuple[WorkflowField, ...]:
        return self.catalog.input_fields

    @property
    def context_configured(self) -> bool:
        return self.context is not None

    def visible_outputs(self) -> tuple[WorkflowOutput, ...]:
        """Visible outputs in host order (the completed prefix)."""
        if self.context is None:
            return self.catalog.outputs
        return self.catalog.outputs[: len(self.context.completed_output_step_ids)]

    def visible_step_ids(self) -> tuple[str, ...]:
        """Visible step ids in presentation (alphabetical) order."""
        return tuple(sorted(output.step_id for output in self.visible_outputs()))

    def step_fields(self, step_id: str) -> tuple[WorkflowField, ...] | None:
        for output in self.visible_outputs():
            if output.step_id == step_id:
                return output.fields
        return None

    def step_field(self, step_id: str, name: str) -> WorkflowField | None:
        fields = self.step_fields(step_id)
        return None if fields is None else find_field(fields, name)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _renames(cls: type) -> dict[str, Any]:
    return {f.name: override(rename=_camel(f.name)) for f in attrs.fields(cls)}


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=False)
    converter.register_structure_hook_factory(
        attrs.has, lambda cls: make_dict_structure_fn(cls, converter, **_renames(cls))
    )
    converter.register_unstructure_hook_factory(
        attrs.has,
        lambda cls: make_dict_unstructure_fn(
            cls, converter, _cattrs_omit_if_default=True, **_renames(cls)
        ),
    )
    return converter


CONVERTER: cattrs.Converter = _make_converter()
"""Wire (camelCase) <-> attrs converter; unstructure omits defaulted keys."""
