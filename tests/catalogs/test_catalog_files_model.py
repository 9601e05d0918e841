"""A model test of `CatalogStore` with catalog files (review of issue 24).

Hypothesis drives a store, backed by an in-memory disk, through random
sequences of initialization options, settings updates (inline catalogs,
`null`, `catalogFiles` lists), file rewrites (valid, invalid, missing, bare
arrays, wrappers), watched-file changes, reloads and observations. A small
oracle, written from docs/catalogs.md alone, computes what each projection
must be and when its generation must grow:

- settings first: an inline projection that is valid or discarded wins;
- else the last listed file that gives it (a file that cannot be read
  discards what it gave at its last good read);
- else the inline state (absent, or cleared after a `null`);
- files are read when first needed, when `catalogFiles` is given, and on a
  reload or a change to a named file; never otherwise;
- the generation grows by one whenever the chosen snapshot changes: every
  settings update that is not a keep (while settings win), and every read
  that changes the file outcome a projection shows.

Contents are labelled by construction (valid or not), so the oracle never
asks the code under test whether a catalog is valid.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.catalogs.files import CatalogFile, CatalogFileError, catalog_section
from octoscript_lsp.catalogs.store import MODULES, PROJECTIONS, TOOLS, WORKFLOW, CatalogStore

ROOT = "/w"
HOME = "/h"

# ----------------------------------------------------------------- contents


def tools(*names: str) -> list[dict[str, str]]:
    return [{"name": name, "format": "text", "description": name} for name in names]


def modules(*paths: str) -> list[dict[str, str]]:
    return [{"path": path} for path in paths]


def workflow(*steps: str) -> dict[str, Any]:
    return {"inputFields": [], "outputs": [{"stepId": step, "fields": []} for step in steps]}


# A projection's value with its expected outcome: ("valid", names) or ("discarded", why).
# `why` stands for the reason: a file discarding for a new reason is a new snapshot.
TOOL_VALUES = [
    (tools("text.echo"), ("valid", ("text.echo",))),
    (tools("text.echo", "text.shout"), ("valid", ("text.echo", "text.shout"))),
    ([], ("valid", ())),
    (tools("dup", "dup"), ("discarded", "duplicate tool")),
]
MODULE_VALUES = [
    (modules("mod.app"), ("valid", ("mod.app",))),
    (modules("mod.app", "mod.b"), ("valid", ("mod.app", "mod.b"))),
    (modules("mod.a", "mod.a"), ("discarded", "duplicate path")),
]
# Workflow (catalog, context or MISSING) with the outcome read as a file / initial options.
MISSING = object()
CONTEXT = {"currentStepId": "b", "completedOutputStepIds": ["a"]}
WORKFLOW_VALUES = [
    (workflow("a"), MISSING, ("valid", ("a",))),
    (workflow("a", "b"), CONTEXT, ("valid", ("a", "b"))),
    (MISSING, CONTEXT, ("discarded", "context alone")),
    (workflow("a", "a"), MISSING, ("discarded", "duplicate step")),
]


@dataclass(frozen=True)
class Content:
    """A file's bytes (None: missing) and what it gives: projection -> outcome, or a failure."""

    label: str
    data: bytes | None
    gives: tuple[tuple[str, tuple], ...] = ()
    failure: str | None = None


def _object_content(draw: st.DrawFn) -> Content:
    section: dict[str, Any] = {}
    gives: dict[str, tuple] = {}
    labels = []
    if draw(st.booleans()):
        index = draw(st.integers(0, len(TOOL_VALUES) - 1))
        value, outcome = TOOL_VALUES[index]
        section["toolCatalog"], gives[TOOLS] = value, outcome
        labels.append(f"t{index}")
    if draw(st.booleans()):
        index = draw(st.integers(0, len(MODULE_VALUES) - 1))
        value, outcome = MODULE_VALUES[index]
        section["moduleCatalog"], gives[MODULES] = value, outcome
        labels.append(f"m{index}")
    if draw(st.booleans()):
        index = draw(st.integers(0, len(WORKFLOW_VALUES) - 1))
        catalog, context, outcome = WORKFLOW_VALUES[index]
        if catalog is not MISSING:
            section["workflowDataCatalog"] = catalog
        if context is not MISSING:
            section["workflowDataStepContext"] = context
        gives[WORKFLOW] = outcome
        labels.append(f"w{index}")
    if draw(st.booleans()):
        section["completion"] = {"anything": True}  # allowed and ignored
    if draw(st.booleans()):
        section = {"octoscript": section}
        labels.append("wrapped")
    label = "object(" + ",".join(labels) + ")"
    return Content(label, json.dumps(section).encode(), tuple(sorted(gives.items())))


BAD_FILES = [
    Content("missing", None, failure="missing"),
    Content("not json", b"{not json", failure="json"),
    Content("not utf8", b'["\xff"]', failure="utf8"),
    Content("a number", b"42", failure="form"),
    Content("unknown key", b'{"toolCatalogs": []}', failure="unknown"),
    Content("names files", b'{"catalogFiles": ["x.json"]}', failure="nested"),
]


@st.composite
def contents(draw: st.DrawFn) -> Content:
    kind = draw(st.sampled_from(["bad", "array", "object", "null tool"]))
    if kind == "bad":
        return draw(st.sampled_from(BAD_FILES))
    if kind == "array":
        index = draw(st.integers(0, len(TOOL_VALUES) - 1))
        value, outcome = TOOL_VALUES[index]
        return Content(f"array{index}", json.dumps(value).encode(), ((TOOLS, outcome),))
    if kind == "null tool":
        # Read as initializationOptions are: `null` there is malformed.
        return Content("null tool", b'{"toolCatalog": null}', ((TOOLS, ("discarded", "null")),))
    return _object_content(draw)


class Disk:
    """The in-memory disk behind the store's reader; counts every read."""

    def __init__(self) -> None:
        self.contents: dict[str, Content] = {}
        self.reads: list[str] = []

    def read(self, path: str) -> CatalogFile:
        self.reads.append(path)
        content = self.contents.get(path)
        if content is None or content.data is None:
            return CatalogFile(path, None, "No such file or directory")
        try:
            return CatalogFile(path, catalog_section(content.data))
        except CatalogFileError as error:
            return CatalogFile(path, None, error.reason)


# ------------------------------------------------------------------ settings

# (entry, resolved path or None when it cannot resolve)
ENTRIES = [
    ("a.json", "/w/a.json"),
    ("/w/a.json", "/w/a.json"),
    ("sub/../a.json", "/w/a.json"),
    ("~/b.json", "/h/b.json"),
    ("/c.json", "/c.json"),
    ("~other/d.json", None),
    ("", None),
]
DISK_PATHS = ["/w/a.json", "/h/b.json", "/c.json"]
KEEP = object()


@st.composite
def single_values(draw: st.DrawFn, table: list) -> tuple[object, tuple | None]:
    """(value or KEEP, inline outcome: ("valid", names), ("discarded",), ("cleared",) or None)."""
    choice = draw(st.integers(-2, len(table) - 1))
    if choice == -2:
        return KEEP, None
    if choice == -1:
        return None, ("cleared",)
    value, outcome = table[choice]
    return value, outcome


@st.composite
def workflow_updates(draw: st.DrawFn) -> tuple[dict[str, object], tuple | None]:
    """The workflow keys of a settings update and the refresh outcome."""
    choice = draw(st.sampled_from(["keep", "null", "valid", "invalid", "one key"]))
    if choice == "keep":
        return {}, None
    if choice == "null":
        return {"workflowDataCatalog": None, "workflowDataStepContext": None}, ("cleared",)
    if choice == "valid":
        return {"workflowDataCatalog": workflow("a", "b"), "workflowDataStepContext": CONTEXT}, (
            "valid",
            ("a", "b"),
        )
    if choice == "invalid":
        return {
            "workflowDataCatalog": workflow("a", "a"),
            "workflowDataStepContext": CONTEXT,
        }, ("discarded",)
    return {"workflowDataCatalog": workflow("a")}, ("discarded",)


@st.composite
def file_lists(draw: st.DrawFn) -> tuple[object, list[str] | None, bool]:
    """(catalogFiles value, the entries it names, whether it is a bad value)."""
    choice = draw(st.sampled_from(["list", "list", "list", "list", "null", "empty", "bad"]))
    if choice == "null":
        return None, [], False
    if choice == "empty":
        return [], [], False
    if choice == "bad":
        return draw(st.sampled_from([5, "a.json", [1]])), [], True
    entries = draw(
        st.lists(st.sampled_from([entry for entry, _ in ENTRIES]), min_size=1, max_size=4)
    )
    return entries, entries, False


@st.composite
def sections(draw: st.DrawFn) -> dict[str, Any]:
    """An `octoscript` settings object with its expected effects under '__expect__'."""
    section: dict[str, Any] = {}
    expect: dict[str, tuple | None] = {}
    value, expect[TOOLS] = draw(single_values(TOOL_VALUES))
    if value is not KEEP:
        section["toolCatalog"] = value
    value, expect[MODULES] = draw(single_values(MODULE_VALUES))
    if value is not KEEP:
        section["moduleCatalog"] = value
    keys, expect[WORKFLOW] = draw(workflow_updates())
    section.update(keys)
    files = None
    if draw(st.integers(0, 3)):  # most updates name files
        value, entries, bad = draw(file_lists())
        section["catalogFiles"] = value
        files = (entries, bad)
    return {"section": section, "expect": expect, "files": files}


operations = st.one_of(
    st.tuples(st.just("settings"), sections()),
    st.tuples(st.just("not an object"), st.sampled_from([None, 5, {"octoscript": 3}])),
    st.tuples(st.just("write"), st.tuples(st.sampled_from(DISK_PATHS), contents())),
    st.tuples(st.just("write"), st.tuples(st.sampled_from(DISK_PATHS), contents())),
    st.tuples(st.just("reload"), st.none()),
    st.tuples(st.just("reload"), st.none()),
    st.tuples(st.just("changed"), st.sampled_from([*DISK_PATHS, "/w/other.json"])),
    st.tuples(st.just("observe"), st.none()),
)


# -------------------------------------------------------------------- oracle


def resolve(entry: str) -> str | None:
    return dict(ENTRIES)[entry]


@dataclass
class Oracle:
    """docs/catalogs.md, computed from scratch at each step."""

    disk: dict[str, Content] = field(default_factory=dict)
    # projection -> (state tuple, serial); serial distinguishes settings updates.
    inline: dict[str, tuple[tuple, int]] = field(default_factory=dict)
    serial: int = 0
    entries: list[str] = field(default_factory=list)
    files_read: list[tuple[str | None, Content | None]] = field(default_factory=list)
    last_gave: dict[str, tuple[str, ...]] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    stale: bool = False
    chosen: dict[str, tuple] = field(default_factory=dict)
    generation: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    # The changed paths a watched-file event asks to read again (None: all).
    only: frozenset[str] | None = None
    by_entry: dict[str, tuple[str | None, Content | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in PROJECTIONS:
            self.inline[name] = (("absent",), 0)
            self.chosen[name] = ("settings", ("absent",), 0)
            self.generation[name] = 0

    # -- sources
    def set_inline(self, name: str, outcome: tuple | None) -> None:
        if outcome is None:
            return
        self.serial += 1
        self.inline[name] = (outcome, self.serial)

    def take_entries(self, entries: list[str]) -> None:
        self.entries = list(entries)
        self.stale = True

    def read(self) -> None:
        """Each distinct entry once; after a watched-file event only the changed files."""
        self.stale = False
        only, self.only = self.only, None
        earlier, self.by_entry = self.by_entry, {}
        out: list[tuple[str | None, Content | None]] = []
        for entry in self.entries:
            if entry not in self.by_entry:
                last = earlier.get(entry)
                keep = last is not None and only is not None and last[0] not in only
                self.by_entry[entry] = last if keep else self.read_entry(entry)
            out.append(self.by_entry[entry])
        self.files_read = out

    def read_entry(self, entry: str) -> tuple[str | None, Content | None]:
        path = resolve(entry)
        if path is None:
            return (None, None)
        self.reads += 1
        content = self.disk.get(path, BAD_FILES[0])
        if content.failure is None:
            self.last_gave[path] = tuple(name for name, _ in content.gives)
        return (path, content)

    def from_files(self) -> dict[str, tuple]:
        found: dict[str, tuple] = {}
        for path, content in self.files_read:
            if path is None or content is None:
                continue
            if content.failure is None:
                for name, outcome in content.gives:
                    found[name] = ("file", outcome, path)
                continue
            for name in self.last_gave.get(path, ()):
                found[name] = ("file", ("discarded", "not read", content.failure), path)
        return found

    def choose(self) -> None:
        files = self.from_files()
        for name in PROJECTIONS:
            outcome, serial = self.inline[name]
            picked: tuple = ("settings", outcome, serial)
            if outcome[0] in ("absent", "cleared") and name in files:
                picked = files[name]
            if picked != self.chosen[name]:
                self.chosen[name] = picked
                self.generation[name] += 1

    # -- operations, in the order the store takes them
    def settle(self) -> None:
        if self.pending is None and not self.stale:
            return
        options, self.pending = self.pending, None
        if options is not None:
            self.initial(options)
        if self.stale:
            self.read()
        self.choose()

    def initial(self, section: object) -> None:
        if not isinstance(section, dict):
            for name in PROJECTIONS:
                self.set_inline(name, ("discarded",))
            return
        expect = section["__expect_initial__"]
        for name in PROJECTIONS:
            self.set_inline(name, expect[name])

    def settings(self, op: dict[str, Any]) -> None:
        self.settle()
        for name in PROJECTIONS:
            self.set_inline(name, op["expect"][name])
        if op["files"] is not None:
            self.take_entries(op["files"][0])
        self.settle()
        self.choose()

    def not_an_object(self) -> None:
        """Settings gone as a whole: inline catalogs cleared, no file named."""
        self.settle()
        for name in PROJECTIONS:
            self.set_inline(name, ("cleared",))
        self.take_entries([])
        self.settle()
        self.choose()

    def reload(self, only: frozenset[str] | None = None) -> None:
        self.settle()
        self.stale = bool(self.entries) or bool(self.files_read)
        self.only = only
        self.settle()

    def changed(self, path: str) -> None:
        named = {resolve(entry) for entry in self.entries} - {None}
        if path in named:
            self.reload(frozenset([path]))


def initial_outcomes(section: dict[str, Any]) -> dict[str, tuple | None]:
    """What `initializationOptions` give: a present key is parsed, `null` is malformed."""
    out: dict[str, tuple | None] = {}
    for name, key, table in (
        (TOOLS, "toolCatalog", TOOL_VALUES),
        (MODULES, "moduleCatalog", MODULE_VALUES),
    ):
        if key not in section:
            out[name] = None
        elif section[key] is None:
            out[name] = ("discarded",)
        else:
            out[name] = next(outcome for value, outcome in table if value == section[key])
    has_catalog = "workflowDataCatalog" in section
    has_context = "workflowDataStepContext" in section
    if not has_catalog and not has_context:
        out[WORKFLOW] = None
    elif not has_catalog or section["workflowDataCatalog"] is None:
        out[WORKFLOW] = ("discarded",)
    elif section["workflowDataCatalog"] == workflow("a", "a"):
        out[WORKFLOW] = ("discarded",)
    elif has_context and section["workflowDataStepContext"] is None:
        out[WORKFLOW] = ("discarded",)
    elif has_context and section["workflowDataCatalog"] == workflow("a"):
        out[WORKFLOW] = ("discarded",)  # the context names step b, which it lacks
    else:
        names = tuple(output["stepId"] for output in section["workflowDataCatalog"]["outputs"])
        out[WORKFLOW] = ("valid", names)
    return out


# --------------------------------------------------------------- observing


def visible(store: CatalogStore, name: str) -> tuple:
    projection = store.projections()[name]
    state = projection.state.value
    source = projection.source
    where = None if source is None else (source.kind, source.path)
    if state != "valid":
        return (state, where)
    value = projection.value
    if name == TOOLS:
        names = tuple(tool.name for tool in value.tools)
    elif name == MODULES:
        names = tuple(descriptor.dotted for descriptor in value.descriptors)
    else:
        names = tuple(output.step_id for output in value.catalog.outputs)
    return (state, names, where)


def expected(oracle: Oracle, name: str) -> tuple:
    picked = oracle.chosen[name]
    if picked[0] == "settings":
        outcome = picked[1]
        where = None if outcome[0] == "absent" else ("settings", None)
        if outcome[0] == "valid":
            return ("valid", outcome[1], where)
        return (outcome[0], where)
    _, outcome, path = picked
    if outcome[0] == "valid":
        return ("valid", outcome[1], ("file", path))
    return ("discarded", ("file", path))


def check(store: CatalogStore, oracle: Oracle, disk: Disk, history: list) -> None:
    for name in PROJECTIONS:
        got = visible(store, name)
        want = expected(oracle, name)
        assert got == want, (name, history)
        projection = store.projections()[name]
        assert projection.generation == oracle.generation[name], (name, history)
        if projection.state.value == "discarded":
            assert projection.reason, (name, history)
    assert len(disk.reads) == oracle.reads, history
    # No file is read that `catalogFiles` did not name.
    named = {path for _, path in ENTRIES if path is not None}
    assert set(disk.reads) <= named


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    initial=st.one_of(st.none(), sections()),
    writes=st.lists(st.tuples(st.sampled_from(DISK_PATHS), contents()), max_size=3),
    steps=st.lists(operations, max_size=24),
)
def test_the_store_follows_the_documented_precedence(initial, writes, steps) -> None:
    disk = Disk()
    oracle = Oracle()
    for path, content in writes:
        disk.contents[path] = content
        oracle.disk[path] = content
    calls: list[int] = []
    store = CatalogStore(read_file=disk.read, on_change=lambda: calls.append(1))
    store.paths.root, store.paths.home = ROOT, HOME
    last_status = store.status()
    calls.clear()
    history: list = [("initial", initial and initial["section"]), ("writes", writes)]
    if initial is not None:
        section = initial["section"]
        store.apply_initialization_options({"octoscript": section})
        oracle.pending = {**section, "__expect_initial__": initial_outcomes(section)}
        if initial["files"] is not None:
            oracle.take_entries(initial["files"][0])
    for kind, argument in steps:
        history.append((kind, argument if kind != "settings" else argument["section"]))
        if kind == "settings":
            store.apply_settings({"octoscript": argument["section"]})
            oracle.settings(argument)
        elif kind == "not an object":
            store.apply_settings(argument)
            oracle.not_an_object()
        elif kind == "write":
            path, content = argument
            disk.contents[path] = content
            oracle.disk[path] = content
        elif kind == "reload":
            store.reload_files()
            oracle.reload()
        elif kind == "changed":
            # Whether the change mattered is what the status checks below see.
            store.files_changed([argument])
            oracle.changed(argument)
        else:
            oracle.settle()
            check(store, oracle, disk, history)
            last_status = heard_of(store, last_status, calls, history)
    oracle.settle()
    check(store, oracle, disk, history)
    heard_of(store, last_status, calls, history)


def heard_of(store: CatalogStore, last: dict, calls: list[int], history: list) -> dict:
    """A status that differs from the last one observed was announced through `on_change`."""
    now = store.status()
    if now != last:
        assert calls, history
    calls.clear()
    return now
