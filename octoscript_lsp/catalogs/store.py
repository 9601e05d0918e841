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
import os
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import attrs

from octoscript_lsp.catalogs._checks import CatalogRejected
from octoscript_lsp.catalogs.files import (
    CatalogFile,
    CatalogFileError,
    catalog_file_entries,
    load_catalog_file,
    resolve_catalog_path,
)
from octoscript_lsp.catalogs.fingerprint import fingerprint
from octoscript_lsp.catalogs.keys import (
    CATALOG_FILES_KEY,
    MODULE_KEY,
    SETTINGS_KEY,
    TOOL_KEY,
    WORKFLOW_CATALOG_KEY,
    WORKFLOW_CONTEXT_KEY,
)
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

# The projections, by the names `octoscript/catalogStatus` gives them.
TOOLS = "toolCatalog"
MODULES = "moduleCatalog"
WORKFLOW = "workflowData"
PROJECTIONS = (TOOLS, MODULES, WORKFLOW)
# How the reason of a projection discarded because its file could not be
# read begins (the file itself is reported, not the projection's content).
UNREAD_FILE = "catalog file not read:"

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
    source: Source | None = None

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
            "source": None if self.source is None else self.source.status(),
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


def _tool_document(catalog: ToolCatalog) -> list[Any]:
    return CONVERTER.unstructure(catalog)["tools"]


def _module_document(catalog: ModuleCatalog) -> list[Any]:
    documents = CONVERTER.unstructure(catalog)["descriptors"]
    for document, descriptor in zip(documents, catalog.descriptors, strict=True):
        document["path"] = descriptor.dotted
    return documents


def _workflow_document(data: WorkflowData) -> dict[str, Any]:
    context = None if data.context is None else CONVERTER.unstructure(data.context)
    return {
        WORKFLOW_CATALOG_KEY: CONVERTER.unstructure(data.catalog),
        WORKFLOW_CONTEXT_KEY: context,
    }


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


def _single(
    section: dict[str, Any], key: str, parse: Callable[[object], T], refresh: bool
) -> _Outcome | None:
    """A tool or module key; `null` clears it on a refresh (and is malformed at start)."""
    if key not in section:
        return None
    value = section[key]
    if refresh and value is None:
        return _Outcome(CatalogState.CLEARED, reason="cleared by null")
    return _attempt(lambda: parse(value))


@attrs.frozen
class Source:
    """Where a projection came from: the editor's settings or a catalog file."""

    kind: str
    path: str | None = None

    def status(self) -> dict[str, Any]:
        if self.path is None:
            return {"kind": self.kind}
        return {"kind": self.kind, "path": self.path}


SETTINGS_SOURCE = Source("settings")

# A projection's status name and the settings keys that give it.
PROJECTION_KEYS: dict[str, tuple[str, ...]] = {
    TOOLS: (TOOL_KEY,),
    MODULES: (MODULE_KEY,),
    WORKFLOW: (WORKFLOW_CATALOG_KEY, WORKFLOW_CONTEXT_KEY),
}


def _outcomes(section: dict[str, Any], refresh: bool) -> dict[str, _Outcome]:
    """What a settings section gives: read as `initializationOptions` (and catalog
    files) are, or under the refresh rules; a projection it leaves alone is not in it."""
    found = {
        TOOLS: _single(section, TOOL_KEY, parse_tool_catalog, refresh),
        MODULES: _single(section, MODULE_KEY, parse_module_catalog, refresh),
        WORKFLOW: (_refreshed_workflow if refresh else _initial_workflow)(section),
    }
    return {name: outcome for name, outcome in found.items() if outcome is not None}


class CatalogStore:
    """Holds the current tool, module and workflow projections.

    Readers should take ``store.tools`` / ``store.modules`` / ``store.workflow``
    once per request: each is an immutable :class:`Projection` snapshot.

    Two sources feed each projection: the editor's settings (inline values,
    under the replacement rules above) and the files `catalogFiles` names.
    A projection the settings give (valid or discarded) wins; otherwise the
    last file that gives it does; otherwise the settings' state (absent or
    cleared) stands. Its `generation` grows by one
    whenever the chosen snapshot changes.
    """

    def __init__(
        self,
        read_file: Callable[[str], CatalogFile] = load_catalog_file,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self._inline: dict[str, Projection[Any]] = {name: Projection() for name in PROJECTIONS}
        self._from_files: dict[str, Projection[Any]] = {}
        self._current: dict[str, Projection[Any]] = dict(self._inline)
        self._chosen: dict[str, Projection[Any]] = dict(self._inline)
        self._read_file = read_file
        self._on_change = on_change
        self.paths = CatalogPaths()
        self._entries: list[str] = []
        self._entries_reason: str | None = None
        self._files: tuple[_FileRead, ...] = ()
        self._file_keys: dict[str, tuple[str, ...]] = {}
        # What each named entry gave when it was last read (its status and
        # projections, never its JSON), so a watched-file event re-reads only
        # the files it names.
        self._file_reads: dict[str, _FileRead] = {}
        self._files_stale = False
        # When only some files changed on disk: their resolved paths.
        self._stale_paths: frozenset[str] | None = None
        # The file list or a file's outcome changed since the last `_choose`.
        self._files_news = False
        # Grows by one with every change a reader could see (a projection or a file).
        self.revision = 0
        # `initializationOptions` not parsed yet (see `apply_initialization_options`).
        self._pending_options: dict[str, Any] | None = None

    @property
    def tools(self) -> Projection[ToolCatalog]:
        self._settle()
        return self._current[TOOLS]

    @property
    def modules(self) -> Projection[ModuleCatalog]:
        self._settle()
        return self._current[MODULES]

    @property
    def workflow(self) -> Projection[WorkflowData]:
        self._settle()
        return self._current[WORKFLOW]

    def projections(self) -> dict[str, Projection[Any]]:
        self._settle()
        return dict(self._current)

    @property
    def unparsed(self) -> bool:
        """Whether catalogs wait to be parsed or read (on first read)."""
        return self._pending_options is not None or self._files_stale

    @property
    def tool_catalog(self) -> ToolCatalog | None:
        return self.tools.valid

    @property
    def module_catalog(self) -> ModuleCatalog | None:
        return self.modules.valid

    @property
    def workflow_data(self) -> WorkflowData | None:
        return self.workflow.valid

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: p.status() for name, p in self.projections().items()}
        out["catalogFiles"] = self.files_status()
        return out

    def files_status(self) -> list[dict[str, Any]]:
        self._settle()
        listed = [
            {
                "path": file.path,
                "ok": file.ok,
                "reason": file.reason,
                "projections": list(_names_of(file.keys)),
            }
            for file in self._files
        ]
        if self._entries_reason is not None:
            listed.append(
                {"path": None, "ok": False, "reason": self._entries_reason, "projections": []}
            )
        return listed

    def watched_paths(self) -> tuple[str, ...]:
        """The resolved paths of the named catalog files (no file is read)."""
        return tuple(dict.fromkeys(path for path in self._resolved() if path is not None))

    def apply_initialization_options(self, options: object) -> None:
        """Apply ``initializationOptions`` (the whole value) once at startup.

        The catalogs are parsed, and the files read, when first needed (any
        projection, status or update), not here: the `initialize` answer
        needs none of them, and validating them first loads jsonschema. The
        outcome is the same. The file list is taken now, so the server can
        ask the client to watch the files at once.
        """
        if not isinstance(options, dict) or SETTINGS_KEY not in options:
            return
        self._settle()
        self._pending_options = options
        section = options[SETTINGS_KEY]
        if isinstance(section, dict) and CATALOG_FILES_KEY in section:
            self._take_entries(section[CATALOG_FILES_KEY])

    def _settle(self) -> None:
        """Parse the kept ``initializationOptions`` and read stale files, if any."""
        options = self._pending_options
        if options is None and not self._files_stale:
            return
        self._pending_options = None
        if options is not None:
            self._apply_initialization_section(options[SETTINGS_KEY])
        if self._files_stale:
            self._read_files()
        self._choose()

    def _apply_initialization_section(self, section: object) -> None:
        if not isinstance(section, dict):
            reason = "initializationOptions.octoscript is not an object"
            self._apply_all(_Outcome(CatalogState.DISCARDED, reason=reason))
            return
        for name, outcome in _outcomes(section, refresh=False).items():
            self._apply(name, outcome)

    def apply_did_change_configuration(self, params: object) -> None:
        """Apply raw ``workspace/didChangeConfiguration`` params."""
        self._settle()
        if not isinstance(params, dict) or "settings" not in params:
            self._clear_all("didChangeConfiguration params are malformed")
            self._settle()
            self._choose()
            return
        self.apply_settings(params["settings"])

    def apply_settings(self, settings: object) -> None:
        """Apply the ``settings`` value of a configuration notification."""
        self._settle()
        self._apply_settings(settings)
        self._settle()
        self._choose()

    def _apply_settings(self, settings: object) -> None:
        if not isinstance(settings, dict):
            self._clear_all("settings is not an object")
            return
        if SETTINGS_KEY not in settings:
            return
        section = settings[SETTINGS_KEY]
        if not isinstance(section, dict):
            self._clear_all("settings.octoscript is not an object")
            return
        for name, outcome in _outcomes(section, refresh=True).items():
            self._apply(name, outcome)
        if CATALOG_FILES_KEY in section:
            self._take_entries(section[CATALOG_FILES_KEY])

    def reload_files(self) -> bool:
        """Read every named catalog file again; whether anything visible changed."""
        return self._reload(None)

    def files_changed(self, paths: Iterable[str]) -> bool:
        """Re-read the named files among `paths`; whether anything visible changed."""
        named = set(self.watched_paths())
        changed = frozenset(path for path in map(os.path.normpath, paths) if path in named)
        if not changed:
            return False
        return self._reload(changed)

    def _reload(self, only: frozenset[str] | None) -> bool:
        """Read the files at `only` (every named file when None) again."""
        self._settle()
        before = self.revision
        self._files_stale = bool(self._entries) or bool(self._files)
        self._stale_paths = only
        self._settle()
        return self.revision != before

    def _take_entries(self, value: object) -> None:
        """A new `catalogFiles` value: `null` (or an empty list) names none."""
        previous_reason = self._entries_reason
        self._entries_reason = None
        try:
            self._entries = [] if value is None else catalog_file_entries(value)
        except CatalogFileError as error:
            self._entries = []
            self._entries_reason = error.reason
        self._files_news = self._files_news or previous_reason != self._entries_reason
        self._files_stale = True

    def _resolved(self) -> list[str | None]:
        out: list[str | None] = []
        for entry in self._entries:
            try:
                out.append(resolve_catalog_path(entry, self.paths.root, self.paths.home))
            except CatalogFileError:
                out.append(None)
        return out

    def _read_files(self) -> None:
        """Read the stale named files; keep what each gives, never its raw JSON.

        A later file's projections override an earlier file's, so each
        entry's last read is kept and they are combined in order again.
        """
        only, self._stale_paths = self._stale_paths, None
        self._files_stale = False
        earlier, self._file_reads = self._file_reads, {}
        found: dict[str, Projection[Any]] = {}
        reads = []
        for entry in self._entries:
            read = self._file_reads.get(entry) or self._reread(entry, earlier.get(entry), only)
            self._file_reads[entry] = read
            reads.append(read)
            found.update(read.projections)
        if tuple(reads) != self._files:
            self._files_news = True
        self._files = tuple(reads)
        self._from_files = found

    def _reread(self, entry: str, last: _FileRead | None, only: frozenset[str] | None) -> _FileRead:
        """`last` while its file is not among the changed paths `only`, else a new read."""
        if last is not None and only is not None and last.path not in only:
            return last
        file = self._read_entry(entry)
        return _FileRead(file.path, file.ok, file.reason, file.keys(), self._projections_of(file))

    def _read_entry(self, entry: str) -> CatalogFile:
        try:
            path = resolve_catalog_path(entry, self.paths.root, self.paths.home)
        except CatalogFileError as error:
            return CatalogFile(entry, None, error.reason)
        return self._read_file(path)

    def _projections_of(self, file: CatalogFile) -> dict[str, Projection[Any]]:
        """What `file` gives (to be laid over what earlier files gave)."""
        source = Source("file", file.path)
        if file.section is not None:
            self._file_keys[file.path] = file.keys()
            return {
                name: _snapshot(name, outcome, source)
                for name, outcome in _outcomes(file.section, refresh=False).items()
            }
        # A file that gave projections before and cannot be read now
        # discards them: never an older file's catalog in their place.
        lost = _Outcome(CatalogState.DISCARDED, reason=f"{UNREAD_FILE} {file.reason}")
        return {
            name: _snapshot(name, lost, source)
            for name in _names_of(self._file_keys.get(file.path, ()))
        }

    def _choose(self) -> None:
        """Pick each projection's source; a new pick is a new generation."""
        changed, self._files_news = self._files_news, False
        for name in PROJECTIONS:
            inline = self._inline[name]
            picked = inline
            if name in self._from_files and inline.state in _GIVES_WAY:
                picked = self._from_files[name]
            previous = self._chosen[name]
            if picked is previous or _same(picked, previous):
                continue
            self._chosen[name] = picked
            generation = self._current[name].generation + 1
            self._current[name] = attrs.evolve(picked, generation=generation)
            changed = True
        if changed:
            self.revision += 1
            if self._on_change is not None:
                self._on_change()

    def _clear_all(self, reason: str) -> None:
        """Settings gone as a whole: every inline catalog cleared, no file named."""
        self._apply_all(_Outcome(CatalogState.CLEARED, reason=reason))
        self._take_entries(None)

    def _apply_all(self, outcome: _Outcome) -> None:
        for name in PROJECTIONS:
            self._apply(name, outcome)

    def _apply(self, name: str, outcome: _Outcome) -> None:
        self._inline[name] = _snapshot(name, outcome, SETTINGS_SOURCE)


# Inline states a file's projection replaces: never set, or cleared with
# `null` (a user who removes an inline catalog falls back to the files).
_GIVES_WAY = (CatalogState.ABSENT, CatalogState.CLEARED)


def _names_of(keys: Iterable[str]) -> tuple[str, ...]:
    given = set(keys)
    return tuple(name for name in PROJECTIONS if given & set(PROJECTION_KEYS[name]))


def _same(left: Projection[Any], right: Projection[Any]) -> bool:
    """Equal content from the same source (a file read again unchanged).

    Settings updates never compare equal: each one that is not a keep is a
    new generation, as the reference counts them.
    """
    if left.source is SETTINGS_SOURCE or right.source is SETTINGS_SOURCE:
        return False
    return (left.state, left.fingerprint, left.reason, left.source) == (
        right.state,
        right.fingerprint,
        right.reason,
        right.source,
    )


# Each projection's fingerprinted document and its entry count (a workflow
# counts its input fields and its steps).
_DOCUMENTS: dict[str, tuple[Callable[[Any], object], Callable[[Any], int]]] = {
    TOOLS: (_tool_document, lambda catalog: len(catalog.tools)),
    MODULES: (_module_document, lambda catalog: len(catalog.descriptors)),
    WORKFLOW: (
        _workflow_document,
        lambda data: len(data.catalog.input_fields) + len(data.catalog.outputs),
    ),
}


def _snapshot(name: str, outcome: _Outcome, source: Source) -> Projection[Any]:
    if outcome.state is not CatalogState.VALID:
        return Projection(outcome.state, None, 0, outcome.reason, source=source)
    document, entries = _DOCUMENTS[name]
    value = outcome.value
    return Projection(
        CatalogState.VALID,
        value,
        0,
        None,
        entries(value),
        fingerprint(document(value)),
        source=source,
    )


@attrs.frozen
class _FileRead:
    """One named entry's last read: whether it was usable, the keys and the
    projections it gave. Two reads are equal when what is reported is."""

    path: str
    ok: bool
    reason: str | None
    keys: tuple[str, ...]
    projections: dict[str, Projection[Any]] = attrs.field(eq=False)


@attrs.define
class CatalogPaths:
    """What relative and ``~/`` catalog paths resolve against (set by the server)."""

    root: str | None = None
    home: str | None = None
