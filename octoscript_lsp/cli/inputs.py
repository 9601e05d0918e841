"""What the command line reads and writes: source files, settings files.

The CLI reads only the paths it is given (directories are walked for
`*.octoscript` / `*.octo`, hidden directories skipped) and writes only the
files `format` rewrites, atomically and never over a file that changed on
disk since it was read.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalogs.files import (
    SETTINGS_KEYS,
    CatalogFileError,
    decode_json,
    read_catalog_bytes,
    settings_section,
)
from ..limits import MAX_CATALOG_FILE_BYTES, MAX_SOURCE_BYTES, READ_CHUNK_BYTES

EXIT_OK = 0
EXIT_FINDINGS = 1  # an error (or, with --strict, a warning) was found; a file would change
EXIT_USAGE = 2  # bad arguments, unreadable input, invalid source for `format`

STDIN = "-"


class UnreadableInput(Exception):
    """A path that cannot be read as the CLI needs it; the message names it."""


class OversizedInput(UnreadableInput):
    """A source over MAX_SOURCE_BYTES: `check` reports it as `source-too-large`."""

    def __init__(self, message: str, size: int) -> None:
        super().__init__(message)
        self.size = size


Identity = tuple[int, int, int]  # (inode, size, mtime_ns): a file unchanged keeps it


@dataclass(frozen=True)
class SourceFile:
    """One input as read: its text, the exact bytes, and its identity on disk."""

    path: str
    text: str
    data: bytes
    signature: Identity | None  # None for stdin


def _identity(info: os.stat_result) -> Identity:
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def identity(path: str) -> Identity | None:
    """The identity of the file at `path` now; None when there is none."""
    try:
        return _identity(os.stat(path))
    except OSError:
        return None


def _unreadable(path: str, error: OSError) -> UnreadableInput:
    return UnreadableInput(f"cannot read {path}: {error.strerror or error}")


def _bounded(path: str, data: bytes, limit: int) -> bytes:
    if len(data) > limit:
        raise OversizedInput(f"cannot read {path}: input exceeds {limit} bytes", len(data))
    return data


def _read_stdin(limit: int) -> bytes:
    """At most `limit` bytes of standard input (plus one, to detect excess)."""
    try:
        data = sys.stdin.buffer.read(limit + 1)
    except OSError as error:
        raise _unreadable(STDIN, error) from error
    return _bounded(STDIN, data, limit)


def read_named(path: str, limit: int) -> bytes:
    """A settings or configuration file named on the command line or in a
    configuration: regular files only, read as catalog files are
    (catalogs/files.py), so a FIFO or a device is refused, never waited on
    or drained. `-` is standard input."""
    if path == STDIN:
        return _read_stdin(limit)
    try:
        return read_catalog_bytes(path, limit)
    except CatalogFileError as error:
        raise UnreadableInput(f"cannot read {path}: {error.reason}") from error


def _read_file(path: str, limit: int) -> tuple[bytes, Identity]:
    """At most `limit` bytes of a file, with the identity of what was opened (one
    path lookup per file: this runs for every file a command reads)."""
    try:
        with open(path, "rb") as handle:
            signature = _identity(os.fstat(handle.fileno()))
            data = handle.read(limit + 1)
    except OSError as error:
        raise _unreadable(path, error) from error
    try:
        return _bounded(path, data, limit), signature
    except OversizedInput as error:
        raise OversizedInput(str(error), max(signature[1], error.size)) from None


def _stdin_size(read: int) -> int:
    """The whole size of standard input, `read` bytes of it already taken (the rest
    is read in chunks and dropped)."""
    try:
        while chunk := sys.stdin.buffer.read(READ_CHUNK_BYTES):
            read += len(chunk)
    except OSError:
        pass
    return read


def read_source(path: str) -> SourceFile:
    """Read a source file (or stdin) within the source budget, as UTF-8."""
    signature = None
    if path == STDIN:
        try:
            data = _read_stdin(MAX_SOURCE_BYTES)
        except OversizedInput as error:
            raise OversizedInput(str(error), _stdin_size(error.size)) from None
    else:
        data, signature = _read_file(path, MAX_SOURCE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableInput(f"cannot read {path}: input is not valid UTF-8") from error
    return SourceFile(path, text, data, signature)


def read_stdin() -> SourceFile | UnreadableInput:
    """Standard input read once, up front, or why it cannot be used."""
    try:
        return read_source(STDIN)
    except UnreadableInput as error:
        return error


def read_input(path: str, stdin: SourceFile | UnreadableInput | None) -> SourceFile:
    """A file, or `-` as `read_stdin` found it."""
    if path != STDIN or stdin is None:
        return read_source(path)
    if isinstance(stdin, UnreadableInput):
        raise stdin
    return stdin


def read_settings(path: str) -> dict[str, Any]:
    """The settings object a `--settings` / `catalog check` file stands for.

    The file holds the `settings.octoscript` object (or the editor's whole
    ``{"octoscript": {...}}``), or a bare array: a host's tool catalog. The
    forms and their errors are the server's own (catalogs/files.py).
    """
    data = read_named(path, MAX_CATALOG_FILE_BYTES)
    try:
        return settings_section(decode_json(data), SETTINGS_KEYS)
    except CatalogFileError as error:
        raise UnreadableInput(f"cannot read {path}: {error.reason}") from error


class ChangedOnDisk(Exception):
    """The file is not what was read any more; it was left alone."""


class UnwritableOutput(OSError):
    """The new text could not be written (no space, a read-only directory, ...);
    the file was left as it was and no temporary file remains."""


def _keep_identity(descriptor: int, info: os.stat_result) -> None:
    """Give the new file the old one's permission bits and, where allowed, owner.

    A rename replaces the inode, so without this a file formatted by another
    user (root, say) would change hands; an ordinary user cannot give a file
    away, and then the owner is left as created.
    """
    os.fchmod(descriptor, stat.S_IMODE(info.st_mode))
    if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.fchown(descriptor, info.st_uid, info.st_gid)
        except PermissionError:
            pass


def write_atomically(source: SourceFile, text: str) -> None:
    """Replace a file's contents by `text` unless it changed since `source` was read.

    A temporary file in the same directory takes the new text and the old
    mode and owner, then is renamed over the target, so a reader sees the old or the new
    file, never half of one. A symlink is followed: its target is rewritten.
    """
    target = os.path.realpath(source.path)
    try:
        info = os.stat(target)
        unchanged = _identity(info) == source.signature and Path(target).read_bytes() == source.data
    except OSError as error:
        raise _unreadable(source.path, error) from error
    if not unchanged:
        raise ChangedOnDisk(f"{source.path} changed on disk while formatting; left unchanged")
    directory, name = os.path.split(target)
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise UnwritableOutput(f"cannot write {source.path}: {error.strerror or error}") from error
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8"))
            stream.flush()
            _keep_identity(stream.fileno(), info)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            message = f"cannot write {source.path}: {error.strerror or error}"
            raise UnwritableOutput(message) from error
        raise
