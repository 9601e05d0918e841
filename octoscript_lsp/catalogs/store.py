"""Replacement rules for the three advisory projections.

Matches the reference server's observable behaviour:

Initialization (`initializationOptions`):
- not an object, or no ``octoscript`` key: every projection stays absent;
- ``octoscript`` not an object (``null`` included): all three discarded;
- a present key is parsed (``null`` is malformed there, so discarded);
- workflow: catalog alone is valid with no step context (every output
  visible); a context without a catalog, or an invalid one, discards both.

Refresh (`workspace/didChangeConfiguration` ``settings``):
- ``settings`` not an object: all three cleared;
- no ``octoscript`` key: nothing changes;
- ``octoscript`` not an object: all three cleared;
- tool / module key omitted: kept; ``null``: cleared; malformed, duplicate or
  over-limit: discarded; valid (including ``[]``): replaced;
- workflow pair: neither key kept; exactly one key, or one ``null`` beside a
  non-null peer, discards; both ``null`` clears; otherwise both are parsed
  together (the context is then required) and replace or discard atomically.

"Cleared" follows the reference: it is *unavailable* exactly like
"discarded" (matching completions answer empty with ``isIncomplete``), it only
records that the host asked for it. Absent means never configured.

Each projection has a ``generation`` that grows by one on every non-keep
update (valid replacement, discard or clear), even when content is unchanged.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.fingerprint import fingerprint
from octoscript_lsp.catalogs.model import (
    CONVERTER,
    ModuleCatalog,
    ToolCatalog,
    WorkflowData,
    WorkflowDataCatalog,
)
from octoscript_lsp.catalogs.modules import parse_module_catalog
from octoscript_lsp.catalogs.tools import parse_tool_catalog
from octoscript_lsp.catalogs.workflow import (
    parse_workflow_data_catalog,
    parse_workflow_step_context,
)

SETTINGS_KEY = "octoscript"
TOOL_KEY = "toolCatalog"
MODULE_KEY = "moduleCatalog"
WORKFLOW_CATALOG_KEY = "workflowDataCatalog"
WORKFLOW_CONTEXT_KEY = "workflowDataStepContext"

T = TypeVar("T")


class CatalogState(enum.StrEnum):
    ABSENT = "absent"
    VALID = "valid"
    DISCARDED = "discarded"
    CLEARED = "cleared"

    @property
    def unavailable(self) -> bool:
        """Matching completions must answer empty with ``isIncomplete: true``."""
        return self in (CatalogState.DISCARDED, CatalogState.CLEARED)


@attrs.frozen
class Projection(Generic[T]):
    """An immutable snapshot of one projection; replaced as a whole."""

    state: CatalogState = CatalogState.ABSENT
    value: T | None = None
    generation: int = 0
    reason: str | None = None
    entries: int = 0
    fingerprint: str | None = None

    @property
    def valid(self) -> T | None:
        return self.value if self.state is CatalogState.VALID else None

    def status(self) -> dict[str, Any]:
        return {
            "state": self.state.value,
            "generation": self.generation,
            "entries": self.entries,
            "fingerprint": self.fingerprint,
            "reason": self.reason,
        }


@attrs.frozen
class _Outcome:
    state: CatalogState
    value: Any = None
    reason: str | None = None


def _attempt(parse: Callable[[], T]) -> _Outcome:
    try:
        return _Outcome(CatalogState.VALID, parse())
    except CatalogRejected as error:
        return _Outcome(CatalogState.DISCARDED, reason=error.reason)
    except RecursionError:
        return _Outcome(CatalogState.DISCARDED, reason="nesting too deep")


# ------------------------------------------------------------ wire documents


def tool_document(catalog: ToolCatalog) -> list[Any]:
    return CONVERTER.unstructure(catalog)["tools"]


def module_document(catalog: ModuleCatalog) -> list[Any]:
    documents = CONVERTER.unstructure(catalog)["descriptors"]
    for document, descriptor in zip(documents, catalog.descriptors, strict=True):
        document["path"] = descriptor.dotted
    return documents


def workflow_document(data: WorkflowData) -> dict[str, Any]:
    context = None if data.context is None else CONVERTER.unstructure(data.context)
    return {
        WORKFLOW_CATALOG_KEY: CONVERTER.unstructure(data.catalog),
        WORKFLOW_CONTEXT_KEY: context,
    }


def _tool_entries(catalog: ToolCatalog) -> int:
    return len(catalog.tools)


def _module_entries(catalog: ModuleCatalog) -> int:
    return len(catalog.descriptors)


def _workflow_entries(data: WorkflowData) -> int:
    """Input fields plus projected outputs (steps)."""
    return len(data.catalog.input_fields) + len(data.catalog.outputs)


# ------------------------------------------------------------------- parsing


def _workflow_outcome(catalog_value: object, context_value: object, has_context: bool) -> _Outcome:
    catalog = _attempt(lambda: parse_workflow_data_catalog(catalog_value))
    if catalog.state is not CatalogState.VALID:
        return catalog
    parsed: WorkflowDataCatalog = catalog.value
    if not has_context:
        return _Outcome(CatalogState.VALID, WorkflowData(parsed, None))
    context = _attempt(lambda: parse_workflow_step_context(context_value, parsed))
    if context.state is not CatalogState.VALID:
        return context
    return _Outcome(CatalogState.VALID, WorkflowData(parsed, context.value))


def _initial_workflow(section: dict[str, Any]) -> _Outcome | None:
    has_catalog = WORKFLOW_CATALOG_KEY in section
    has_context = WORKFLOW_CONTEXT_KEY in section
    if not has_catalog and not has_context:
        return None
    if not has_catalog:
        return _Outcome(
            CatalogState.DISCARDED,
            reason="workflowDataStepContext needs a valid workflowDataCatalog",
        )
    return _workflow_outcome(
        section[WORKFLOW_CATALOG_KEY], section.get(WORKFLOW_CONTEXT_KEY), has_context
    )


def _refreshed_workflow(section: dict[str, Any]) -> _Outcome | None:
    has_catalog = WORKFLOW_CATALOG_KEY in section
    has_context = WORKFLOW_CONTEXT_KEY in section
    if not has_catalog and not has_context:
        return None
    if has_catalog != has_context:
        return _Outcome(CatalogState.DISCARDED, reason="workflow update names only one key")
    catalog_value = section[WORKFLOW_CATALOG_KEY]
    context_value = section[WORKFLOW_CONTEXT_KEY]
    if catalog_value is None and context_value is None:
        return _Outcome(CatalogState.CLEARED, reason="cleared by null")
    if catalog_value is None or context_value is None:
        return _Outcome(CatalogState.DISCARDED, reason="workflow update clears only one key")
    return _workflow_outcome(catalog_value, context_value, True)


def _initial_single(
    section: dict[str, Any], key: str, parse: Callable[[object], T]
) -> _Outcome | None:
    if key not in section:
        return None
    value = section[key]
    return _attempt(lambda: parse(value))


def _refreshed_single(
    section: dict[str, Any], key: str, parse: Callable[[object], T]
) -> _Outcome | None:
    if key not in section:
        return None
    value = section[key]
    if value is None:
        return _Outcome(CatalogState.CLEARED, reason="cleared by null")
    return _attempt(lambda: parse(value))


# --------------------------------------------------------------------- store


class CatalogStore:
    """Holds the current tool, module and workflow projections.

    Readers should take ``store.tools`` / ``store.modules`` / ``store.workflow``
    once per request: each is an immutable :class:`Projection` snapshot.
    """

    def __init__(self) -> None:
        self._tools: Projection[ToolCatalog] = Projection()
        self._modules: Projection[ModuleCatalog] = Projection()
        self._workflow: Projection[WorkflowData] = Projection()
        # `initializationOptions` not parsed yet (see `apply_initialization_options`).
        self._pending_options: dict[str, Any] | None = None

    # -- the projections ---------------------------------------------------
    @property
    def tools(self) -> Projection[ToolCatalog]:
        self._settle()
        return self._tools

    @property
    def modules(self) -> Projection[ModuleCatalog]:
        self._settle()
        return self._modules

    @property
    def workflow(self) -> Projection[WorkflowData]:
        self._settle()
        return self._workflow

    @property
    def unparsed(self) -> bool:
        """Whether `initializationOptions` catalogs wait to be parsed (on first read)."""
        return self._pending_options is not None

    # -- convenience accessors -------------------------------------------
    @property
    def tool_catalog(self) -> ToolCatalog | None:
        return self.tools.valid

    @property
    def tool_catalog_state(self) -> CatalogState:
        return self.tools.state

    @property
    def module_catalog(self) -> ModuleCatalog | None:
        return self.modules.valid

    @property
    def module_catalog_state(self) -> CatalogState:
        return self.modules.state

    @property
    def workflow_data(self) -> WorkflowData | None:
        return self.workflow.valid

    @property
    def workflow_data_state(self) -> CatalogState:
        return self.workflow.state

    def status(self) -> dict[str, dict[str, Any]]:
        return {
            "toolCatalog": self.tools.status(),
            "moduleCatalog": self.modules.status(),
            "workflowData": self.workflow.status(),
        }

    # -- updates -----------------------------------------------------------
    def apply_initialization_options(self, options: object) -> None:
        """Apply ``initializationOptions`` (the whole value) once at startup.

        The catalogs are parsed when first read (any projection, status or
        update), not here: the `initialize` answer needs none of them, and
        validating them first loads jsonschema. The outcome is the same.
        """
        if not isinstance(options, dict) or SETTINGS_KEY not in options:
            return
        self._settle()
        self._pending_options = options

    def _settle(self) -> None:
        """Parse the kept ``initializationOptions``, if any."""
        options = self._pending_options
        if options is not None:
            self._pending_options = None
            self._apply_initialization_section(options[SETTINGS_KEY])

    def _apply_initialization_section(self, section: object) -> None:
        if not isinstance(section, dict):
            reason = "initializationOptions.octoscript is not an object"
            self._apply_all(_Outcome(CatalogState.DISCARDED, reason=reason))
            return
        self._apply_tools(_initial_single(section, TOOL_KEY, parse_tool_catalog))
        self._apply_modules(_initial_single(section, MODULE_KEY, parse_module_catalog))
        self._apply_workflow(_initial_workflow(section))

    def apply_did_change_configuration(self, params: object) -> None:
        """Apply raw ``workspace/didChangeConfiguration`` params."""
        self._settle()
        if not isinstance(params, dict) or "settings" not in params:
            reason = "didChangeConfiguration params are malformed"
            self._apply_all(_Outcome(CatalogState.CLEARED, reason=reason))
            return
        self.apply_settings(params["settings"])

    def apply_settings(self, settings: object) -> None:
        """Apply the ``settings`` value of a configuration notification."""
        self._settle()
        if not isinstance(settings, dict):
            self._apply_all(_Outcome(CatalogState.CLEARED, reason="settings is not an object"))
            return
        if SETTINGS_KEY not in settings:
            return
        section = settings[SETTINGS_KEY]
        if not isinstance(section, dict):
            reason = "settings.octoscript is not an object"
            self._apply_all(_Outcome(CatalogState.CLEARED, reason=reason))
            return
        self._apply_tools(_refreshed_single(section, TOOL_KEY, parse_tool_catalog))
        self._apply_modules(_refreshed_single(section, MODULE_KEY, parse_module_catalog))
        self._apply_workflow(_refreshed_workflow(section))

    # -- internals ---------------------------------------------------------
    def _apply_all(self, outcome: _Outcome) -> None:
        self._apply_tools(outcome)
        self._apply_modules(outcome)
        self._apply_workflow(outcome)

    def _apply_tools(self, outcome: _Outcome | None) -> None:
        self._tools = _advance(self._tools, outcome, tool_document, _tool_entries)

    def _apply_modules(self, outcome: _Outcome | None) -> None:
        self._modules = _advance(self._modules, outcome, module_document, _module_entries)

    def _apply_workflow(self, outcome: _Outcome | None) -> None:
        self._workflow = _advance(self._workflow, outcome, workflow_document, _workflow_entries)


def _advance(
    current: Projection[T],
    outcome: _Outcome | None,
    document: Callable[[T], object],
    entries: Callable[[T], int],
) -> Projection[T]:
    if outcome is None:
        return current
    generation = current.generation + 1
    if outcome.state is not CatalogState.VALID:
        return Projection(outcome.state, None, generation, outcome.reason)
    value: T = outcome.value
    return Projection(
        CatalogState.VALID, value, generation, None, entries(value), fingerprint(document(value))
    )
