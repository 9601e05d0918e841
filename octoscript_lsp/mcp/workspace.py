"""Where `octoscript mcp` takes its catalogs and rules from, kept current.

The places are `octoscript check`'s: `--settings FILE` (a settings file,
which may name `catalogFiles`), else the project configuration (`--config
FILE`, or the nearest one found from the working directory, unless
`--isolated`), read by the CLI's own functions with the editor's fail-closed
rules (cli/catalog.py, catalogs/store.py).

Before every call the server asks `refresh()`, which compares each named
file's identity on disk (inode, size, modification time) with the one it had
when it was read: a changed configuration or settings file is read again as
a whole, a changed catalog file through the store's own re-read
(`CatalogStore.files_changed`). Nothing but those named files is looked at
(`os.stat`, then the CLI's bounded reads).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..catalogs.store import CatalogStore
from ..cli.catalog import announced_catalogs
from ..cli.check import Profile, config_profile
from ..cli.inputs import Identity, UnreadableInput, identity
from ..cli.project import ConfigError, ConfigFinder, ProjectConfig, named_config
from ..cli.rules import UnknownRule


@dataclass(frozen=True)
class Origin:
    """What the command line chose: a settings file, a configuration, or none."""

    settings: str | None = None
    config: str | None = None
    isolated: bool = False
    directory: str = field(default_factory=os.getcwd)


def _configuration(origin: Origin) -> ProjectConfig | None:
    if origin.config is not None:
        return named_config(origin.config)
    if origin.isolated:
        return None
    return ConfigFinder().nearest(origin.directory)


def _settings_file(config: ProjectConfig | None) -> str | None:
    """The settings file a configuration's `settings` key names, if it names one."""
    named = config.get("settings") if config is not None else None
    return config.relative(named) if isinstance(named, str) else None


class Workspace:
    """The current configuration, catalogs and rules; `error` when they cannot be read.

    An unreadable or invalid configuration at start-up is the caller's to
    report (`load` raises); one that becomes so later leaves the workspace
    with no catalogs and `error` set, so lookups refuse with that reason
    instead of answering from what is gone.
    """

    def __init__(self, origin: Origin) -> None:
        self.origin = origin
        self.config: ProjectConfig | None = None
        self.profile = Profile()
        self.error: str | None = None
        self._named: dict[str, Identity | None] = {}
        self._catalog_files: dict[str, Identity | None] = {}
        # Every configuration file found so far: still watched after it stops
        # being one (turned into a directory, its table removed), so its return
        # is seen.
        self._found: set[str] = set()

    @property
    def catalogs(self) -> CatalogStore | None:
        return self.profile.catalogs

    @property
    def settings_path(self) -> str | None:
        if self.origin.settings is not None:
            return self.origin.settings
        return _settings_file(self.config)

    def load(self) -> None:
        """Read the configuration and catalogs; raises what `octoscript check` reports."""
        named = self._named_paths(None)
        before = {path: identity(path) for path in named}
        config = _configuration(self.origin)
        catalogs = announced_catalogs(self.origin.settings or None)
        self.config = config
        if config is not None:
            self._found.add(os.path.abspath(config.path))
        self.profile = config_profile(config, catalogs)
        self.error = None
        # Identities taken before the read: a change during it is seen next time.
        before.update({path: identity(path) for path in self._named_paths(config) - set(before)})
        self._named = before
        self._catalog_files = self._catalog_identities()

    def refresh(self) -> None:
        """Read again whatever named file changed on disk since it was read."""
        if any(identity(path) != known for path, known in self._named.items()):
            self._reload()
            return
        store = self.catalogs
        if store is None:
            return
        changed = [path for path, known in self._catalog_files.items() if identity(path) != known]
        if changed:
            identities = {path: identity(path) for path in changed}
            store.files_changed(changed)
            self._catalog_files.update(identities)

    def _reload(self) -> None:
        try:
            self.load()
        except (ConfigError, UnreadableInput, UnknownRule) as error:
            self.profile = Profile()
            self.error = str(error)
            # Watch the same files, so a repaired one is read again.
            self._named = {path: identity(path) for path in self._named}
            self._catalog_files = {}

    def _named_paths(self, config: ProjectConfig | None) -> set[str]:
        paths: set[str | None] = {self.origin.settings, self.origin.config, *self._found}
        if config is not None:
            paths.add(config.path)
            if self.origin.settings is None:  # `--settings` wins over the configuration's
                paths.add(_settings_file(config))
        return {os.path.abspath(path) for path in paths if path is not None}

    def _catalog_identities(self) -> dict[str, Identity | None]:
        store = self.catalogs
        if store is None:
            return {}
        paths = store.watched_paths()
        identities = {path: identity(path) for path in paths}
        store.projections()  # reads the named files now (after their identities)
        return identities
