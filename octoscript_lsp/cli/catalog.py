"""Catalogs from a settings file: `--settings FILE` and `octoscript catalog check`.

The file holds the object an editor sends as `settings.octoscript`. It is
applied to a fresh `CatalogStore` exactly as a configuration refresh, so the
schema validation and the fail-closed rules are the server's own: a
malformed, duplicate or over-limit projection is discarded as a whole,
`null` clears, and the workflow pair travels together.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..catalogs.store import SETTINGS_KEY, CatalogState, CatalogStore, Projection
from .inputs import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UnreadableInput, read_settings
from .project import ProjectConfig

PROJECTIONS = ("toolCatalog", "moduleCatalog", "workflowData")


def load_catalogs(path: str) -> CatalogStore:
    """A store holding what the server would keep from this settings file."""
    store = CatalogStore()
    store.apply_settings({SETTINGS_KEY: read_settings(path)})
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

    `catalogFiles` (each file a settings object; paths relative to the
    configuration's folder) are read in order, a later file's keys over an
    earlier one's; a `settings` table (the settings object inline) or file
    name comes over both.
    """
    files = config.get("catalogFiles")
    settings = config.get("settings")
    if files is None and settings is None:
        return None
    merged: dict[str, Any] = {}
    for name in files or ():
        merged.update(read_settings(config.relative(name)))
    if isinstance(settings, str):
        merged.update(read_settings(config.relative(settings)))
    elif isinstance(settings, dict):
        merged.update(settings)
    store = CatalogStore()
    store.apply_settings({SETTINGS_KEY: merged})
    announce(store, config.path or "configuration")
    return store


def _projections(store: CatalogStore) -> dict[str, Projection[Any]]:
    return dict(zip(PROJECTIONS, (store.tools, store.modules, store.workflow), strict=True))


def discarded(store: CatalogStore) -> list[str]:
    """One line per discarded projection, for stderr."""
    return [
        f"{name} discarded: {projection.reason}"
        for name, projection in _projections(store).items()
        if projection.state is CatalogState.DISCARDED
    ]


def all_absent(store: CatalogStore) -> bool:
    """No projection key at all (for example a whole editor settings object)."""
    return all(p.state is CatalogState.ABSENT for p in _projections(store).values())


def status_json(store: CatalogStore) -> dict[str, Any]:
    """The server's catalog status without `generation` (always 1 or 0 here)."""
    out: dict[str, Any] = {}
    for name, projection in _projections(store).items():
        status = projection.status()
        del status["generation"]
        out[name] = status
    return out


def _status_line(name: str, projection: Projection[Any]) -> str:
    state = projection.state
    if state is CatalogState.VALID:
        entries = "1 entry" if projection.entries == 1 else f"{projection.entries} entries"
        return f"{name}: valid, {entries}, {projection.fingerprint}"
    if state is CatalogState.DISCARDED:
        return f"{name}: discarded: {projection.reason}"
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
        report = {"path": path, **status_json(store)}
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        for name, projection in _projections(store).items():
            sys.stdout.write(f"{path}: {_status_line(name, projection)}\n")
    return EXIT_FINDINGS if discarded(store) else EXIT_OK
