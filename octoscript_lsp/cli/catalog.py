"""Catalogs from a settings file: `--settings FILE` and `octoscript catalog check`.

The file holds the object an editor sends as `settings.octoscript` (or a
host's bare tool-catalog array; inputs.read_settings). It is applied to a
fresh `CatalogStore` as `initializationOptions` are, which is also how the
server reads a catalog file, so the schema validation and the fail-closed
rules are the server's own: a malformed (`null` included), duplicate or
over-limit projection is discarded as a whole, and a workflow catalog may
come without its step context. Its `catalogFiles` are read as the server
reads them, relative paths from the settings file's directory.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from ..catalogs.store import (
    SETTINGS_KEY,
    CatalogState,
    CatalogStore,
    Projection,
    Source,
)
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UnreadableInput, read_settings
from .project import ProjectConfig


def _store(root: str) -> CatalogStore:
    store = CatalogStore()
    store.paths.root = root
    # The user's own `~/`, as a shell would expand it on the command line.
    store.paths.home = os.path.expanduser("~")
    return store


def load_catalogs(path: str) -> CatalogStore:
    """A store holding what the server would keep from this settings file."""
    section = read_settings(path)
    store = _store(os.path.dirname(os.path.abspath(path)))
    # Read as the server reads `initializationOptions` and catalog files, so
    # `catalog check` says what an editor would keep from this file.
    store.apply_initialization_options({SETTINGS_KEY: section})
    return store


def announced_catalogs(path: str | None) -> CatalogStore | None:
    """The settings file's catalogs, if one is named; what it loses is said on stderr."""
    if path is None:
        return None
    store = load_catalogs(path)
    announce(store, path)
    return store


def announce(store: CatalogStore, origin: str) -> None:
    """Warn on stderr about each discarded projection, and about a file that gives none."""
    for line in discarded(store):
        sys.stderr.write(f"octoscript: warning: {origin}: {line}\n")
    if all_absent(store):
        sys.stderr.write(
            f"octoscript: warning: {origin}: no toolCatalog, moduleCatalog or workflow keys "
            "(the file holds the settings.octoscript object itself)\n"
        )


def project_catalogs(config: ProjectConfig) -> CatalogStore | None:
    """The catalogs a project configuration names, or None when it names none.

    `catalogFiles` are read exactly as the server reads the setting (both file
    forms, the same bounds; paths relative to the configuration's folder).
    `settings` is the settings object, inline as a table or a settings file's
    name; as in an editor, its catalog keys win over the files'.
    """
    files = config.get("catalogFiles")
    settings = config.get("settings")
    if files is None and settings is None:
        return None
    section: dict[str, Any] = {}
    if isinstance(settings, str):
        named = config.relative(settings)
        section = read_settings(named)
        if isinstance(section.get("catalogFiles"), list):
            # A settings file's own catalog files are relative to it.
            folder = os.path.dirname(named)
            section["catalogFiles"] = [
                os.path.join(folder, entry) if _relative(entry) else entry
                for entry in section["catalogFiles"]
            ]
    elif isinstance(settings, dict):
        section = dict(settings)
    if files is not None:
        earlier = section.get("catalogFiles")
        section["catalogFiles"] = [*files, *(earlier if isinstance(earlier, list) else ())]
    store = _store(config.root)
    store.apply_settings({SETTINGS_KEY: section})
    announce(store, config.path or "configuration")
    return store


def _relative(entry: object) -> bool:
    return isinstance(entry, str) and not entry.startswith("~") and not os.path.isabs(entry)


def discarded(store: CatalogStore) -> list[str]:
    """One line per discarded projection or catalog file not read, for stderr."""
    lines = [
        f"{name} discarded: {projection.reason}{_from(projection.source)}"
        for name, projection in store.projections().items()
        if projection.state is CatalogState.DISCARDED
    ]
    lines.extend(
        f"{_file_name(file['path'])} not read: {file['reason']}"
        for file in store.files_status()
        if not file["ok"]
    )
    return lines


def _from(source: Source | None) -> str:
    """` (from PATH)` for a projection a catalog file gave."""
    return "" if source is None or source.path is None else f" (from {_shown(source.path)})"


def _file_name(path: str | None) -> str:
    return f"catalog file {_shown(path)}" if path else "catalogFiles"


def _shown(path: str) -> str:
    """A catalog file's path as a person reads it: relative under the working directory."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def all_absent(store: CatalogStore) -> bool:
    """No projection key and no catalog file at all (for example `{}`)."""
    absent = all(p.state is CatalogState.ABSENT for p in store.projections().values())
    return absent and not store.files_status()


def _status_line(name: str, projection: Projection[Any]) -> str:
    state = projection.state
    if state is CatalogState.VALID:
        entries = "1 entry" if projection.entries == 1 else f"{projection.entries} entries"
        return f"{name}: valid, {entries}, {projection.fingerprint}{_from(projection.source)}"
    if state is CatalogState.DISCARDED:
        return f"{name}: discarded: {projection.reason}{_from(projection.source)}"
    if state is CatalogState.CLEARED:
        return f"{name}: cleared (null)"
    return f"{name}: absent"


def run_catalog_check(path: str, output_format: str) -> int:
    try:
        store = load_catalogs(path)
    except UnreadableInput as error:
        sys.stderr.write(f"octoscript: {error}\n")
        return EXIT_USAGE
    if output_format == "json":
        report = {"path": path, **store.status()}
        for name in store.projections():
            del report[name]["generation"]  # always 1 or 0 here
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        for name, projection in store.projections().items():
            sys.stdout.write(f"{path}: {_status_line(name, projection)}\n")
        for file in store.files_status():
            sys.stdout.write(f"{path}: {_file_line(file)}\n")
    return EXIT_FINDINGS if discarded(store) else EXIT_OK


def _file_line(file: dict[str, Any]) -> str:
    """Which projections a named catalog file gives, or why it gives none."""
    where = _file_name(file["path"])
    if not file["ok"]:
        return f"{where}: not read: {file['reason']}"
    given = ", ".join(file["projections"]) or "no catalog keys"
    return f"{where}: gives {given}"
