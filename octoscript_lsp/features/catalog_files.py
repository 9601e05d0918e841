"""Catalog files in the protocol: where they resolve, watching them, saying why.

The store (catalogs/store.py) reads the files and decides each projection;
this module turns its state into protocol values: the workspace root the
relative paths resolve against, the file watchers a client is asked to
register, the paths a `workspace/didChangeWatchedFiles` notification names,
and the one message per change that tells the user a projection or a file
was refused.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import attrs
from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from ..catalogs.store import PROJECTIONS, UNREAD_FILE, CatalogState

# The method of the notification that tells opted-in clients the catalog
# state changed (docs/catalogs.md), and the client capability that opts in.
STATUS_CHANGED = "octoscript/catalogStatusChanged"
STATUS_CAPABILITY = "octoscriptCatalogStatus"
RELOAD_COMMAND = "octoscript.reloadCatalogs"
WATCH_REGISTRATION_ID = "octoscript-catalog-files"
# Characters an LSP glob pattern reads as syntax (it has no escape).
_GLOB_SYNTAX = "*?[]{}"


def workspace_root(params: types.InitializeParams) -> str | None:
    """The first workspace folder, else `rootUri`, else `rootPath` (a path, no I/O)."""
    for folder in params.workspace_folders or ():
        path = _file_path(folder.uri)
        if path is not None:
            return path
    if params.root_uri:
        return _file_path(params.root_uri)
    if params.root_path:
        return os.path.normpath(params.root_path)
    return None


def _file_path(uri: str) -> str | None:
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return None if path is None else os.path.normpath(path)


# ------------------------------------------------------------------ watching


def _watched_files(
    capabilities: types.ClientCapabilities | None,
) -> types.DidChangeWatchedFilesClientCapabilities | None:
    workspace = capabilities.workspace if capabilities else None
    return workspace.did_change_watched_files if workspace else None


def can_watch(capabilities: types.ClientCapabilities | None) -> bool:
    watched = _watched_files(capabilities)
    return bool(watched and watched.dynamic_registration)


def _glob_literal(text: str) -> str:
    """`text` as a glob; a syntax character matches itself among others (events are filtered)."""
    return "".join("?" if char in _GLOB_SYNTAX else char for char in text)


def _watcher(path: str, relative: bool) -> types.FileSystemWatcher:
    if relative:
        directory, name = os.path.split(path)
        pattern: Any = types.RelativePattern(
            base_uri=from_fs_path(directory) or directory, pattern=_glob_literal(name)
        )
    else:
        pattern = _glob_literal(path.replace(os.sep, "/"))
    return types.FileSystemWatcher(glob_pattern=pattern)


def watch_registration(
    paths: Sequence[str], capabilities: types.ClientCapabilities | None
) -> types.RegistrationParams:
    watched = _watched_files(capabilities)
    relative = bool(watched and watched.relative_pattern_support)
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[_watcher(path, relative) for path in paths]
    )
    registration = types.Registration(
        id=WATCH_REGISTRATION_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    return types.RegistrationParams(registrations=[registration])


def watch_unregistration() -> types.UnregistrationParams:
    unregistration = types.Unregistration(
        id=WATCH_REGISTRATION_ID, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    )
    return types.UnregistrationParams(unregisterations=[unregistration])


def changed_paths(params: types.DidChangeWatchedFilesParams) -> list[str]:
    """The file paths a watched-files notification names (URIs only converted)."""
    found = []
    for change in params.changes:
        path = _file_path(change.uri)
        if path is not None:
            found.append(path)
    return found


def opted_in(capabilities: types.ClientCapabilities | None) -> bool:
    """Whether the client asked for `octoscript/catalogStatusChanged` notifications."""
    experimental = capabilities.experimental if capabilities else None
    return isinstance(experimental, dict) and experimental.get(STATUS_CAPABILITY) is True


# ------------------------------------------------------------- saying why


@attrs.define
class Announcer:
    """Remembers what the user was told, so each refusal is said once per change."""

    told_generations: dict[str, int] = attrs.field(factory=dict)
    told_files: set[tuple[str | None, str | None]] = attrs.field(factory=set)
    last_status: dict[str, Any] | None = None

    def news(self, status: dict[str, Any]) -> tuple[list[str], list[str]]:
        """(warnings to show, lines only to log) for what changed since the last call."""
        shown = [line for name in PROJECTIONS if (line := self._projection_news(name, status))]
        logged = self._file_news(status["catalogFiles"])
        return shown, logged

    def _projection_news(self, name: str, status: dict[str, Any]) -> str | None:
        entry = status[name]
        if self.told_generations.get(name) == entry["generation"]:
            return None
        self.told_generations[name] = entry["generation"]
        if entry["state"] != CatalogState.DISCARDED.value:
            return None
        if (entry["reason"] or "").startswith(UNREAD_FILE):
            return None  # the file not read is logged, once, by `_file_news`
        source = _source_label(entry["source"])
        return f"Octoscript: {name} from {source} discarded: {entry['reason']}"

    def _file_news(self, files: list[dict[str, Any]]) -> list[str]:
        failing = {(file["path"], file["reason"]) for file in files if not file["ok"]}
        fresh = sorted(failing - self.told_files, key=repr)
        self.told_files = failing
        return [f"Octoscript: catalog file {path or 'list'} not read: {why}" for path, why in fresh]

    def status_changed(self, status: dict[str, Any]) -> bool:
        changed = status != self.last_status
        self.last_status = status
        return changed


def _source_label(source: dict[str, Any] | None) -> str:
    if source is None:
        return "settings"
    if source.get("kind") == "file":
        return f"catalog file {source['path']}"
    return "settings"
