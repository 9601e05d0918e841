"""Catalog files: the host's own JSON files, named by the `catalogFiles` setting.

A catalog file holds either the settings object (any of `toolCatalog`,
`moduleCatalog`, `workflowDataCatalog`, `workflowDataStepContext`), or a
bare JSON array: the host's tool catalog as its `catalog` command prints it,
taken as `toolCatalog`. A settings object copied from an editor, wrapped as
``{"octoscript": {...}}``, is read as the object inside.

This is the only place that opens a catalog file, for the server and the
command line alike. It opens exactly the path it is given, after checking
that it names a regular file (a FIFO, a device or a directory is refused
before it is opened, so nothing can block or stream forever), reads at most
a bound plus one byte, and never globs, walks or follows a path found inside
a file. Reasons name the problem and a location, never the file's content.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence

import attrs

from ..limits import MAX_CATALOG_FILE_BYTES, MAX_CATALOG_FILES, MAX_QUOTED_KEY_CHARS
from .keys import CATALOG_KEYS, SETTINGS_KEY, TOOL_KEY
from .schema import SETTINGS_SCHEMA
from .suggest import closest_names

# Every key of the published settings object (the schema is the one list).
SETTINGS_KEYS: tuple[str, ...] = tuple(SETTINGS_SCHEMA["properties"])


class CatalogFileError(Exception):
    """A catalog file could not be used; ``reason`` says why, in a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@attrs.frozen
class CatalogFile:
    """One named file as last read: its catalog keys, or why it gave none."""

    path: str
    section: dict[str, object] | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.section is not None

    def keys(self) -> tuple[str, ...]:
        return tuple(key for key in CATALOG_KEYS if self.section and key in self.section)


def resolve_catalog_path(entry: str, root: str | None, home: str | None) -> str:
    """The absolute, normalised path a `catalogFiles` entry names.

    Absolute paths stay; ``~/`` is the user's home directory; anything else is
    relative to the first workspace folder. Nothing is read from the disk here.
    """
    if not entry or "\x00" in entry:
        raise CatalogFileError("the path is empty or holds a NUL character")
    if entry == "~" or entry.startswith(("~/", "~" + os.sep)):
        if not home:
            raise CatalogFileError("a ~/ path needs a home directory, and none is known")
        return os.path.normpath(os.path.join(home, entry[2:]))
    if entry.startswith("~"):
        raise CatalogFileError("only ~/ (the user's own home) is expanded")
    if os.path.isabs(entry):
        return os.path.normpath(entry)
    if root is None:
        raise CatalogFileError("a relative path needs a workspace folder, and the client sent none")
    return os.path.normpath(os.path.join(root, entry))


def catalog_file_entries(value: object) -> list[str]:
    """The `catalogFiles` setting as a list of strings, or why it is not one."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CatalogFileError("catalogFiles must be a list of path strings")
    if len(value) > MAX_CATALOG_FILES:
        raise CatalogFileError(f"catalogFiles names more than {MAX_CATALOG_FILES} files")
    return list(value)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse_irregular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise CatalogFileError(f"not a regular file ({_kind(mode)})")


def read_catalog_bytes(path: str, limit: int = MAX_CATALOG_FILE_BYTES) -> bytes:
    """At most `limit` bytes of the regular file at `path`.

    The type is checked before opening (opening a FIFO for reading would
    wait for a writer) and again on the open descriptor, which is opened
    non-blocking in case the path was swapped in between.
    """
    try:
        _refuse_irregular(os.stat(path).st_mode)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise CatalogFileError(error.strerror or type(error).__name__) from error
    try:
        _refuse_irregular(os.fstat(descriptor).st_mode)
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise CatalogFileError(error.strerror or type(error).__name__) from error
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise CatalogFileError(f"larger than {limit} bytes")
    return data


def decode_json(data: bytes) -> object:
    """The JSON value of a file's bytes; the error gives line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogFileError("not valid UTF-8") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise CatalogFileError(f"not valid JSON: {error.msg} at {where}") from error
    except RecursionError as error:
        raise CatalogFileError("not valid JSON: nested too deeply") from error
    except ValueError as error:
        # Python refuses to convert an integer of thousands of digits.
        raise CatalogFileError("not valid JSON: a number has too many digits") from error


def unknown_key_reason(key: str, known: Iterable[str]) -> str:
    """`unknown key "x"` with the closest known keys, for a file a person wrote."""
    shown = key if len(key) <= MAX_QUOTED_KEY_CHARS else key[: MAX_QUOTED_KEY_CHARS - 3] + "..."
    reason = f"unknown key {json.dumps(shown)}"
    close = closest_names(key, known)
    if close:
        reason += " (did you mean " + " or ".join(json.dumps(name) for name in close) + "?)"
    return reason


def settings_section(value: object, allowed: Sequence[str]) -> dict[str, object]:
    """The settings object a file's JSON value stands for.

    A bare array is a tool catalog; ``{"octoscript": {...}}`` is unwrapped;
    any other object must use only `allowed` keys.
    """
    if isinstance(value, list):
        return {TOOL_KEY: value}
    if not isinstance(value, dict):
        raise CatalogFileError("must hold a JSON object or a JSON array (a tool catalog)")
    if list(value) == [SETTINGS_KEY] and isinstance(value[SETTINGS_KEY], dict):
        value = value[SETTINGS_KEY]
    for key in value:
        if key not in allowed:
            if key in SETTINGS_KEYS:
                raise CatalogFileError(f"{json.dumps(key)} is not read from a catalog file")
            raise CatalogFileError(unknown_key_reason(key, allowed))
    return dict(value)


def catalog_section(data: bytes) -> dict[str, object]:
    """The catalog keys a catalog file's bytes give (`completion` is ignored)."""
    section = settings_section(decode_json(data), (*CATALOG_KEYS, "completion"))
    return {key: section[key] for key in CATALOG_KEYS if key in section}


def load_catalog_file(path: str) -> CatalogFile:
    """Read and decode one catalog file; never raises for a bad file."""
    try:
        return CatalogFile(path, catalog_section(read_catalog_bytes(path)))
    except CatalogFileError as error:
        return CatalogFile(path, None, error.reason)
