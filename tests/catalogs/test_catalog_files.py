"""Catalog files: paths, the two file forms, bad files, and how files and settings combine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from octoscript_lsp.catalogs.files import (
    CatalogFile,
    CatalogFileError,
    catalog_file_entries,
    catalog_section,
    load_catalog_file,
    resolve_catalog_path,
    settings_section,
)
from octoscript_lsp.catalogs.keys import CATALOG_KEYS
from octoscript_lsp.catalogs.schema import SETTINGS_SCHEMA
from octoscript_lsp.catalogs.store import CatalogState, CatalogStore
from octoscript_lsp.limits import MAX_CATALOG_FILE_BYTES, MAX_CATALOG_FILES

ECHO = {"name": "text.echo", "format": "text", "description": "Echo."}
SHOUT = {"name": "text.shout", "format": "text"}
MODULES = [{"path": "mod.app", "description": "Application modules."}]


# ------------------------------------------------------------------ paths


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("/abs/tools.json", "/abs/tools.json"),
        ("/abs/../abs/./tools.json", "/abs/tools.json"),
        ("~/host/tools.json", "/home/me/host/tools.json"),
        ("host/tools.json", "/work/proj/host/tools.json"),
        ("../shared/tools.json", "/work/shared/tools.json"),
    ],
)
def test_paths_resolve_against_the_folder_or_home(entry: str, expected: str) -> None:
    assert resolve_catalog_path(entry, "/work/proj", "/home/me") == expected


@pytest.mark.parametrize(
    ("entry", "root", "home", "reason"),
    [
        ("tools.json", None, "/home/me", "needs a workspace folder"),
        ("~/tools.json", "/w", None, "needs a home directory"),
        ("~other/tools.json", "/w", "/home/me", "only ~/"),
        ("", "/w", "/home/me", "empty"),
        ("a\x00b", "/w", "/home/me", "NUL"),
    ],
)
def test_paths_that_cannot_resolve(entry: str, root, home, reason: str) -> None:
    with pytest.raises(CatalogFileError, match=reason):
        resolve_catalog_path(entry, root, home)


@pytest.mark.parametrize(
    "value", ["a.json", [1], [None], {"a": 1}, ["a"] * (MAX_CATALOG_FILES + 1)]
)
def test_the_setting_must_be_a_short_list_of_strings(value: object) -> None:
    with pytest.raises(CatalogFileError):
        catalog_file_entries(value)


def test_the_schema_states_the_same_file_count_limit() -> None:
    files = SETTINGS_SCHEMA["properties"]["catalogFiles"]["anyOf"][0]
    assert files["maxItems"] == MAX_CATALOG_FILES


# ------------------------------------------------------------------ forms


def test_a_bare_array_is_the_tool_catalog() -> None:
    assert catalog_section(json.dumps([ECHO]).encode()) == {"toolCatalog": [ECHO]}


def test_an_object_keeps_only_catalog_keys() -> None:
    data = {"toolCatalog": [ECHO], "moduleCatalog": MODULES, "completion": {}}
    assert catalog_section(json.dumps(data).encode()) == {
        "toolCatalog": [ECHO],
        "moduleCatalog": MODULES,
    }


def test_an_editor_settings_wrapper_is_read_as_the_object_inside() -> None:
    wrapped = {"octoscript": {"toolCatalog": [ECHO]}}
    assert catalog_section(json.dumps(wrapped).encode()) == {"toolCatalog": [ECHO]}


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff[]", "not valid UTF-8"),
        (b'{"toolCatalog": [}', "not valid JSON: Expecting value at line 1, column 18"),
        (b"[\n1,\n]", "at line 3, column 1"),
        (b"[" * 100_000, "nested too deeply"),
        (b'"tools"', "must hold a JSON object or a JSON array"),
        (b'{"toolCatalogs": []}', 'unknown key "toolCatalogs" (did you mean "toolCatalog"?)'),
        (b'{"zzz": []}', 'unknown key "zzz"'),
        (b'{"catalogFiles": ["x"]}', '"catalogFiles" is not read from a catalog file'),
    ],
)
def test_malformed_files_say_why(data: bytes, reason: str) -> None:
    with pytest.raises(CatalogFileError) as error:
        catalog_section(data)
    assert reason in error.value.reason


def test_the_did_you_mean_never_echoes_a_long_key() -> None:
    with pytest.raises(CatalogFileError) as error:
        settings_section({"k" * 5000: 1}, CATALOG_KEYS)
    assert len(error.value.reason) < 120


# --------------------------------------------------------------- reading


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([ECHO]))
    assert load_catalog_file(str(path)) == CatalogFile(str(path), {"toolCatalog": [ECHO]})


def test_a_file_at_the_bound_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    text = json.dumps([ECHO])
    path = tmp_path / "tools.json"
    path.write_text(text + " " * (MAX_CATALOG_FILE_BYTES - len(text)))
    assert load_catalog_file(str(path)).ok
    path.write_text(text + " " * (MAX_CATALOG_FILE_BYTES - len(text) + 1))
    assert load_catalog_file(str(path)).reason == f"larger than {MAX_CATALOG_FILE_BYTES} bytes"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    assert load_catalog_file(str(path)).reason == "not a regular file (a FIFO)"


@pytest.mark.parametrize(
    ("path", "reason"),
    [("/dev/zero", "a device"), ("/", "a directory"), ("/nonexistent/x.json", "No such file")],
)
def test_other_kinds_are_refused(path: str, reason: str) -> None:
    assert reason in (load_catalog_file(path).reason or "")


def test_a_symlink_to_a_regular_file_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text(json.dumps([ECHO]))
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    assert load_catalog_file(str(tmp_path / "link.json")).ok


# ----------------------------------------------------------------- store


class FakeDisk:
    """Catalog files in memory: path -> JSON value, or None for a missing file."""

    def __init__(self) -> None:
        self.files: dict[str, object] = {}
        self.reads: list[str] = []

    def read(self, path: str) -> CatalogFile:
        self.reads.append(path)
        if self.files.get(path) is None:
            return CatalogFile(path, None, "No such file or directory")
        try:
            return CatalogFile(path, catalog_section(json.dumps(self.files[path]).encode()))
        except CatalogFileError as error:
            return CatalogFile(path, None, error.reason)


def store_with(disk: FakeDisk, section: dict) -> CatalogStore:
    store = CatalogStore(read_file=disk.read)
    store.paths.root = "/w"
    store.apply_initialization_options({"octoscript": section})
    return store


def tool_names(store: CatalogStore) -> list[str]:
    catalog = store.tool_catalog
    return [] if catalog is None else [tool.name for tool in catalog.tools]


def test_files_are_read_when_first_needed_not_at_initialize() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json"]})
    assert store.watched_paths() == ("/w/a.json",)
    assert disk.reads == [] and store.unparsed
    assert tool_names(store) == ["text.echo"]
    assert disk.reads == ["/w/a.json"]


def test_the_last_file_wins_and_settings_win_over_files() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = {"toolCatalog": [ECHO], "moduleCatalog": MODULES}
    disk.files["/w/b.json"] = [SHOUT]
    store = store_with(disk, {"catalogFiles": ["a.json", "b.json"]})
    assert tool_names(store) == ["text.shout"]
    assert store.modules.source.path == "/w/a.json"
    store.apply_settings({"octoscript": {"toolCatalog": [ECHO]}})
    assert tool_names(store) == ["text.echo"]
    assert store.tools.source.kind == "settings"


def test_an_inline_null_falls_back_to_the_files() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json"], "toolCatalog": [SHOUT]})
    assert tool_names(store) == ["text.shout"]
    store.apply_settings({"octoscript": {"toolCatalog": None}})
    assert tool_names(store) == ["text.echo"]
    assert store.tools.source.path == "/w/a.json"
    store.apply_settings({"octoscript": {"catalogFiles": None}})
    assert store.tools.state is CatalogState.CLEARED


def test_an_inline_catalog_discarded_is_not_replaced_by_a_file() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json"], "toolCatalog": [SHOUT, SHOUT]})
    assert store.tools.state is CatalogState.DISCARDED
    assert store.tools.source.kind == "settings"


def test_generations_grow_when_a_reload_changes_something_only() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json"]})
    assert store.tools.generation == 1
    store.reload_files()
    assert store.tools.generation == 1
    disk.files["/w/a.json"] = [ECHO, SHOUT]
    store.reload_files()
    assert (store.tools.generation, tool_names(store)) == (2, ["text.echo", "text.shout"])


def test_a_file_that_disappears_discards_what_it_gave_not_falls_back() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [SHOUT]
    disk.files["/w/b.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json", "b.json"]})
    assert tool_names(store) == ["text.echo"]
    disk.files["/w/b.json"] = None
    store.reload_files()
    assert store.tools.state is CatalogState.DISCARDED
    assert store.tools.reason == "catalog file not read: No such file or directory"
    assert store.tools.source.path == "/w/b.json"


def test_a_file_that_never_read_gives_nothing() -> None:
    disk = FakeDisk()
    store = store_with(disk, {"catalogFiles": ["a.json"]})
    assert store.tools.state is CatalogState.ABSENT
    assert store.files_status() == [
        {"path": "/w/a.json", "ok": False, "reason": "No such file or directory", "projections": []}
    ]


def test_a_file_is_read_as_initialization_options_are() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = {"toolCatalog": None}  # null is malformed there
    store = store_with(disk, {"catalogFiles": ["a.json"]})
    assert store.tools.state is CatalogState.DISCARDED


def test_only_named_files_changing_read_again() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    store = store_with(disk, {"catalogFiles": ["a.json"]})
    assert tool_names(store) == ["text.echo"]
    assert store.files_changed(["/w/other.json"]) is False
    assert disk.reads == ["/w/a.json"]
    assert store.files_changed(["/w/./a.json"]) is False  # read again, the same
    assert disk.reads == ["/w/a.json", "/w/a.json"]
    disk.files["/w/a.json"] = [SHOUT]
    assert store.files_changed(["/w/a.json"]) is True


def test_a_watched_change_reads_only_the_files_it_names() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [SHOUT]
    disk.files["/w/b.json"] = {"moduleCatalog": [{"path": "mod.app"}]}
    store = store_with(disk, {"catalogFiles": ["a.json", "b.json", "a.json"]})
    assert tool_names(store) == ["text.shout"]
    assert disk.reads == ["/w/a.json", "/w/b.json"]  # a name given twice is read once
    disk.files["/w/a.json"] = [ECHO]
    assert store.files_changed(["/w/a.json"]) is True
    assert disk.reads[2:] == ["/w/a.json"]
    assert tool_names(store) == ["text.echo"]
    assert store.modules.source.path == "/w/b.json"  # b's catalog kept, not read again
    disk.files["/w/b.json"] = None
    assert store.files_changed(["/w/b.json"]) is True
    assert disk.reads[3:] == ["/w/b.json"]
    assert store.modules.state is CatalogState.DISCARDED
    assert tool_names(store) == ["text.echo"]
    store.reload_files()  # the command reads every file
    assert disk.reads[4:] == ["/w/a.json", "/w/b.json"]


def test_a_bad_setting_names_no_files_and_says_why() -> None:
    disk = FakeDisk()
    store = store_with(disk, {"catalogFiles": "a.json"})
    assert store.watched_paths() == ()
    assert store.status()["catalogFiles"] == [
        {
            "path": None,
            "ok": False,
            "reason": "catalogFiles must be a list of path strings",
            "projections": [],
        }
    ]


def test_changes_are_reported_once_each() -> None:
    disk = FakeDisk()
    disk.files["/w/a.json"] = [ECHO]
    calls: list[int] = []
    store = CatalogStore(read_file=disk.read, on_change=lambda: calls.append(1))
    store.paths.root = "/w"
    store.apply_initialization_options({"octoscript": {"catalogFiles": ["a.json"]}})
    store.status()
    assert len(calls) == 1
    store.reload_files()
    assert len(calls) == 1
    disk.files["/w/a.json"] = None
    store.reload_files()
    assert len(calls) == 2
