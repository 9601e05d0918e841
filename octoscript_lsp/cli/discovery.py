"""Which files a command reads: paths given, directories walked, excludes applied.

Like ruff: the default path is `.`; a directory is walked in sorted order
(a folder's files, then its sub-folders) for the `include` globs
(`*.octoscript`, `*.octo`); `exclude` (default: hidden names and
`node_modules`, replaced when given) and `extend-exclude` globs, relative to
the configuration's folder, prune files and folders; `.gitignore` and
`.ignore` files (of the folders walked and of their parents up to the Git
repository's root, or without one up to the working folder) are respected
through `pathspec`, the matcher black uses. A path named on the command line
is read whatever its name and whatever excludes it, unless `--force-exclude`.
A symbolic link to a folder is reported, not followed; repeated paths are
read once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import pathspec

from ..catalogs.files import CatalogFileError, read_catalog_bytes
from ..limits import MAX_IGNORE_FILE_BYTES
from .inputs import STDIN
from .project import DEFAULT_INCLUDE, ConfigFinder, ProjectConfig

DEFAULT_EXCLUDE = (".*", "node_modules")
IGNORE_FILES = (".gitignore", ".ignore")


@dataclass(frozen=True)
class Selection:
    """The command line's say in discovery; None leaves it to the configuration."""

    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    respect_gitignore: bool | None = None


@dataclass(frozen=True)
class Target:
    path: str
    config: ProjectConfig | None


def _spec(patterns: Iterable[str]) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


@dataclass
class _Filter:
    """A configuration's include and exclude globs, compiled once."""

    root: str
    include: pathspec.PathSpec | None  # None: the default suffixes
    exclude: pathspec.PathSpec | None  # None: the default names
    respect_gitignore: bool
    force_exclude: bool

    def _relative(self, path: str) -> str | None:
        relative = os.path.relpath(os.path.abspath(path), self.root)
        return None if relative.startswith("..") else relative.replace(os.sep, "/")

    def excluded(self, path: str, is_dir: bool) -> bool:
        if self.exclude is None:
            name = os.path.basename(os.path.normpath(path))
            return name.startswith(".") and name not in (".", "..") or name == "node_modules"
        relative = self._relative(path) or os.path.basename(os.path.normpath(path))
        return self.exclude.match_file(relative + "/" if is_dir else relative)

    def included(self, path: str) -> bool:
        if self.include is None:
            return path.endswith(DEFAULT_INCLUDE_SUFFIXES)
        relative = self._relative(path) or os.path.basename(path)
        return self.include.match_file(relative)


DEFAULT_INCLUDE_SUFFIXES = tuple(pattern.removeprefix("*") for pattern in DEFAULT_INCLUDE)


@dataclass
class _Ignores:
    """The .gitignore / .ignore specs in force in one folder, outermost first."""

    specs: list[tuple[str, pathspec.PathSpec]] = field(default_factory=list)

    def ignored(self, path: str, is_dir: bool) -> bool:
        decision = False
        for base, spec in self.specs:
            relative = os.path.relpath(path, base).replace(os.sep, "/")
            result = spec.check_file(relative + "/" if is_dir else relative)
            if result.include is not None:
                decision = result.include
        return decision

    def entering(self, directory: str, warn: Callable[[str], None]) -> _Ignores:
        added = [(directory, spec) for spec in _ignore_specs(directory, warn)]
        return _Ignores([*self.specs, *added]) if added else self


def _ignore_specs(directory: str, warn: Callable[[str], None]) -> list[pathspec.PathSpec]:
    """The folder's ignore files; like a catalog file, one is read only if it is a
    regular file within its bound (a FIFO is never waited on)."""
    specs = []
    for name in IGNORE_FILES:
        path = os.path.join(directory, name)
        if not os.path.lexists(path):
            continue
        try:
            data = read_catalog_bytes(path, MAX_IGNORE_FILE_BYTES)
        except CatalogFileError as error:
            warn(f"warning: {path} not read: {error.reason}")
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        specs.append(pathspec.GitIgnoreSpec.from_lines(lines))
    return specs


def _boundary(directory: str) -> str | None:
    """How far up ignore files count: the Git repository's root, else the working
    folder when `directory` is inside it, else nowhere above `directory`."""
    current = directory
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    cwd = os.getcwd()
    inside = directory == cwd or directory.startswith(cwd.rstrip(os.sep) + os.sep)
    return cwd if inside else None


def _ancestor_ignores(directory: str, with_self: bool, warn: Callable[[str], None]) -> _Ignores:
    """The ignore files of `directory`'s parents (and its own, `with_self`), outermost
    first, up to `_boundary`."""
    directory = os.path.abspath(directory)
    boundary = _boundary(directory)
    chain = [directory] if with_self else []
    current = directory
    while boundary is not None and current != boundary:
        current = os.path.dirname(current)
        chain.append(current)
    ignores = _Ignores()
    for folder in reversed(chain):
        ignores = ignores.entering(folder, warn)
    return ignores


@dataclass
class Discovery:
    finder: ConfigFinder | None  # None: `fixed` is every file's configuration
    fixed: ProjectConfig | None
    selection: Selection
    warn: Callable[[str], None]
    _filters: dict[str | None, _Filter] = field(default_factory=dict)

    def config_for(self, directory: str) -> ProjectConfig | None:
        if self.finder is None:
            return self.fixed
        return self.finder.nearest(directory)

    def filter_for(self, config: ProjectConfig | None) -> _Filter:
        key = config.path if config is not None else None
        if key not in self._filters:
            self._filters[key] = self._compile(config)
        return self._filters[key]

    def _compile(self, config: ProjectConfig | None) -> _Filter:
        values = config.values if config is not None else {}
        exclude = self.selection.exclude
        if exclude is None and "exclude" in values:
            exclude = tuple(values["exclude"])
        extend = (*values.get("extend-exclude", ()), *self.selection.extend_exclude)
        spec = None
        if exclude is not None or extend:
            spec = _spec([*(DEFAULT_EXCLUDE if exclude is None else exclude), *extend])
        include = values.get("include")
        return _Filter(
            root=config.root if config is not None else os.getcwd(),
            include=_spec(include) if include is not None else None,
            exclude=spec,
            respect_gitignore=_choose(
                self.selection.respect_gitignore, values.get("respect-gitignore"), True
            ),
            force_exclude=_choose(self.selection.force_exclude, values.get("force-exclude"), False),
        )

    def targets(self, paths: list[str], stdin_filename: str | None = None) -> list[Target]:
        """The files to read, each with its configuration; `-` takes the configuration
        of `stdin_filename` when one is given, else of the working folder."""
        out: list[Target] = []
        seen: set[str] = set()

        def add(path: str, config: ProjectConfig | None) -> None:
            key = path if path == STDIN else os.path.abspath(path)
            if key not in seen:
                seen.add(key)
                out.append(Target(path, config))

        for path in paths:
            if path == STDIN:
                named = os.path.dirname(os.path.abspath(stdin_filename or "-"))
                add(path, self.config_for(named))
            elif os.path.isdir(path):
                found = self._walk(path)
                if not found:
                    self.warn(f"warning: no *.octoscript or *.octo files in {path}")
                for target in found:
                    add(target.path, target.config)
            else:
                config = self.config_for(os.path.dirname(os.path.abspath(path)))
                if not self._forced_out(path, config):
                    add(path, config)
        return out

    def _forced_out(self, path: str, config: ProjectConfig | None) -> bool:
        rules = self.filter_for(config)
        if not rules.force_exclude:
            return False
        if rules.excluded(path, is_dir=False):
            return True
        if not rules.respect_gitignore:
            return False
        folder = os.path.dirname(os.path.abspath(path))
        ignores = _ancestor_ignores(folder, with_self=True, warn=self.warn)
        return ignores.ignored(os.path.abspath(path), False)

    def _walk(self, top: str) -> list[Target]:
        config = self.config_for(top)
        rules = self.filter_for(config)
        ignores = _Ignores()
        if rules.respect_gitignore:
            ignores = _ancestor_ignores(top, with_self=False, warn=self.warn)
        if rules.force_exclude and (
            rules.excluded(top, is_dir=True) or ignores.ignored(os.path.abspath(top), True)
        ):
            return []
        found: list[Target] = []
        self._walk_folder(top, ignores, found)
        return found

    def _walk_folder(self, folder: str, ignores: _Ignores, found: list[Target]) -> None:
        config = self.config_for(folder)
        rules = self.filter_for(config)
        if rules.respect_gitignore:
            ignores = ignores.entering(os.path.abspath(folder), self.warn)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as error:
            self.warn(f"warning: cannot list {folder}: {error.strerror or error}")
            return
        folders = []
        for entry in entries:
            path = os.path.normpath(entry.path)
            is_dir = _is_dir(entry)
            if rules.excluded(path, is_dir):
                continue
            if ignores.specs and ignores.ignored(os.path.abspath(path), is_dir):
                continue
            if is_dir and entry.is_symlink():
                self.warn(
                    f"warning: {path} is a symbolic link to a folder, not followed "
                    "(name it on the command line to check it)"
                )
            elif is_dir:
                folders.append(path)
            elif rules.included(path):
                found.append(Target(path, config))
        for path in folders:
            self._walk_folder(path, ignores, found)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _choose(flag: bool | None, configured: bool | None, default: bool) -> bool:
    if flag is not None:
        return flag
    return default if configured is None else configured
