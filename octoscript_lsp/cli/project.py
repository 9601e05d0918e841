"""Project configuration: `[tool.octoscript]` in `pyproject.toml`, or `octoscript.toml`.

As ruff does, each checked path takes the nearest configuration found by
walking up from it: in each directory an `octoscript.toml` comes first,
then a `pyproject.toml` that has a `[tool.octoscript]` table (one without
is passed over). `--config FILE` names one for every path; `--isolated`
reads none. Paths inside a configuration (globs, catalog files) are
relative to the directory that holds it. Command-line flags override it.

Only the command line reads these files; the language server still reads
nothing but the catalog files its settings name.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from typing import Any

from ..catalogs.suggest import closest_names
from ..limits import MAX_CONFIG_FILE_BYTES
from .inputs import UnreadableInput, read_named

CONFIG_NAMES = ("octoscript.toml", "pyproject.toml")
DEFAULT_INCLUDE = ("*.octoscript", "*.octo")

# Each key and the type its value must have.
_LIST = "a list of strings"
KEYS: dict[str, str] = {
    "catalogFiles": _LIST,
    "settings": "a file name or a table",
    "include": _LIST,
    "exclude": _LIST,
    "extend-exclude": _LIST,
    "force-exclude": "true or false",
    "respect-gitignore": "true or false",
    "select": _LIST,
    "ignore": _LIST,
    "strict": "true or false",
}


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class ProjectConfig:
    """One configuration file's `[tool.octoscript]` table, checked."""

    path: str | None  # None: the built-in defaults
    root: str  # globs and catalog paths are relative to this directory
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def relative(self, path: str) -> str:
        return os.path.normpath(os.path.join(self.root, path))


def _check_value(origin: str, key: str, value: Any) -> None:
    expected = KEYS[key]
    if expected == _LIST:
        ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    elif key == "settings":
        ok = isinstance(value, (str, dict))
    else:
        ok = isinstance(value, bool)
    if not ok:
        raise ConfigError(f"{origin}: `{key}` must be {expected}")


def _table(path: str) -> dict[str, Any] | None:
    """The octoscript table of a config file, or None for a pyproject.toml without one."""
    try:
        data = read_named(path, MAX_CONFIG_FILE_BYTES)
        document = tomllib.loads(data.decode("utf-8"))
    except UnreadableInput as error:
        raise ConfigError(str(error).removeprefix("cannot read ")) from error
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from error
    if os.path.basename(path) != "pyproject.toml":
        return document  # octoscript.toml: the keys at the top level, as in ruff.toml
    tool = document.get("tool")
    table = tool.get("octoscript") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


def read_config(path: str) -> ProjectConfig | None:
    """The checked configuration in `path`; None for a pyproject.toml without a table."""
    table = _table(path)
    if table is None:
        return None
    origin = f"{path}: [tool.octoscript]" if path.endswith("pyproject.toml") else path
    for key, value in table.items():
        if key not in KEYS:
            near = closest_names(key, tuple(KEYS))
            hint = f"; did you mean `{near[0]}`?" if near else ""
            raise ConfigError(f"{origin}: unknown key `{key}`{hint}")
        _check_value(origin, key, value)
    return ProjectConfig(path, os.path.dirname(os.path.abspath(path)), table)


def named_config(path: str) -> ProjectConfig:
    """The configuration `--config` names, which must hold a table."""
    found = read_config(path)
    if found is None:
        raise ConfigError(f"{path}: no [tool.octoscript] table")
    return found


@dataclass
class ConfigFinder:
    """The nearest configuration of each directory, each directory asked once."""

    _by_directory: dict[str, ProjectConfig | None] = field(default_factory=dict)

    def own(self, directory: str) -> ProjectConfig | None:
        """The configuration a directory itself holds, if any."""
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                found = read_config(candidate)
                if found is not None:
                    return found
        return None

    def nearest(self, directory: str) -> ProjectConfig | None:
        directory = os.path.abspath(directory)
        if directory in self._by_directory:
            return self._by_directory[directory]
        found = self.own(directory)
        if found is None:
            parent = os.path.dirname(directory)
            found = self.nearest(parent) if parent != directory else None
        self._by_directory[directory] = found
        return found
