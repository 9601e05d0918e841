"""Random module catalogs and record literals through quick fixes and prefill.

A random catalog (module paths, methods, required and optional fields of
every type) is applied as initialization options; a random document calls
one of its methods with a record literal written in a random style (one
line or several, CRLF, comments, commas or line breaks between members,
misspelt keys and methods). Every offered quick fix must have an in-order
range inside the document, and applied to valid source must leave it
valid; a prefilled completion, its snippet placeholders taken as their
defaults, must likewise leave a valid `svc.` + call valid.

Used by `tests/robustness/test_catalog_fuzz.py` and `benchmarks/fuzz_authoring.py`.
"""

from __future__ import annotations

import random
import re

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.catalogs.store import CatalogStore
from octoscript_lsp.features import code_actions, hover, inlay_hints
from octoscript_lsp.features.positions import PositionMap
from octoscript_lsp.syntax.check import check_source
from tests.features.helpers import complete
from tests.robustness.authoring_fuzz import URI, Divergence, _applied

TYPES = ["string", "number", "integer", "boolean", "object", "array", "null", "any"]
VALUES = ['"v"', "1", "2.5", "true", "nil", "{}", "[]", '{k: "x"}', "[1, 2]"]
LETTERS = "abcdefghijklmnopqrstuvwxyz_"


def _name(rng: random.Random) -> str:
    name = "".join(rng.choice(LETTERS) for _ in range(rng.randrange(1, 9)))
    return name if name not in ("if", "in", "is", "do", "fn", "me", "ok", "or") else name + "x"


def _typo(rng: random.Random, name: str) -> str:
    if len(name) > 1 and rng.random() < 0.5:
        index = rng.randrange(len(name))
        return name[:index] + name[index + 1 :] or name
    index = rng.randrange(len(name) + 1)
    return name[:index] + rng.choice(LETTERS) + name[index:]


def random_catalog(rng: random.Random) -> tuple[list[dict], dict[str, list[dict]]]:
    """Module descriptors for `mod.app.svc` and its methods -> their fields."""
    methods: dict[str, list[dict]] = {}
    for _ in range(rng.randrange(1, 5)):
        fields, names = [], set()
        for _ in range(rng.randrange(0, 6)):
            name = _name(rng)
            if name in names:
                continue
            names.add(name)
            fields.append({"name": name, "type": rng.choice(TYPES), "required": rng.random() < 0.7})
        methods[_name(rng)] = fields
    descriptors = [{"path": "mod.app"}, {"path": "mod.app.svc"}]
    for method, fields in methods.items():
        descriptors.append(
            {
                "path": f"mod.app.svc.{method}",
                "callMode": rng.choice(["deferred", "synchronous"]),
                "callShape": "single_json",
                "inputFields": fields,
            }
        )
    return descriptors, methods


def _record(rng: random.Random, fields: list[dict], newline: str) -> str:
    members = []
    for field in fields:
        if rng.random() < 0.5:
            key = field["name"] if rng.random() < 0.8 else _typo(rng, field["name"])
            members.append(f"{key}: {rng.choice(VALUES)}")
    if rng.random() < 0.2:
        members.append(f"{_name(rng)}: 1")
    style = rng.randrange(4)
    comment = rng.choice(["", " // note", " /* c */"])
    indent = rng.choice(["", "  ", "    ", "\t"])
    if style == 0 or not members:
        inner = ", ".join(members)
        return "{" + rng.choice(["", " "]) + inner + rng.choice(["", " "]) + "}"
    if style == 1:
        body = "".join(f"{newline}{indent}    {m}" + rng.choice([",", ""]) for m in members)
        body = body.rstrip(",")
        return "{" + body + comment + newline + indent + "}"
    if style == 2:
        return "{" + f",{newline}    ".join(members) + comment + "}"
    return "{" + members[0] + "," + newline + "    " + ", ".join(members[1:]) + newline + "}"


def random_document(rng: random.Random, methods: dict[str, list[dict]]) -> str:
    newline = "\r\n" if rng.random() < 0.3 else "\n"
    lines = ["use mod.app.svc"]
    for _ in range(rng.randrange(1, 4)):
        method = rng.choice(list(methods))
        called = method if rng.random() < 0.7 else _typo(rng, method)
        record = _record(rng, methods[method], newline)
        call = f"svc.{called}({record})" + rng.choice(["", ".await()"])
        statement = rng.choice([call, f"let r{len(lines)} = {call}"])
        if rng.random() < 0.3:
            statement = f"fn g{len(lines)}() {{{newline}    {statement}{newline}}}"
        lines.append(statement)
    return newline.join(lines) + rng.choice([newline, ""])


def _snippet_default(snippet: str) -> str:
    """The text a snippet inserts when every placeholder keeps its default."""
    text = re.sub(r"\$\{\d+:((?:\\.|[^\\}])*)\}", r"\1", snippet)
    text = re.sub(r"\$\d+", "", text)
    return re.sub(r"\\(.)", r"\1", text)


def check_catalog_document(store: CatalogStore, source: str, rng: random.Random) -> None:
    analysis = DocumentAnalysis(source)
    positions = PositionMap(source)
    valid = check_source(source).valid
    size = len(source)
    ranges = [(0, size), *((rng.randrange(size + 1),) * 2 for _ in range(3))]
    for start, end in ranges:
        for action in code_actions.code_actions(analysis, positions, URI, start, end, store):
            after = _applied(source, positions, action.edit.changes[URI])
            if valid and not check_source(after).valid:
                raise Divergence(f"fix {action.title!r} breaks {source!r}: {after!r}")
        inlay_hints.inlay_hints(analysis, positions, start, end, store)
    for offset in [rng.randrange(size + 1) for _ in range(3)]:
        hover.hover(analysis, positions, offset, store)
    # Prefill: complete right after `svc.` at the start of a new last line.
    base = source if source.endswith("\n") else source + "\n"
    completed = base + "svc."
    analysis = DocumentAnalysis(completed)
    positions = PositionMap(completed)
    answer = complete(analysis, positions, len(completed), store, True)
    for item in answer.items:
        edit = item.text_edit
        text = _snippet_default(edit.new_text) if item.insert_text_format == 2 else edit.new_text
        after = _applied(completed, positions, [type(edit)(range=edit.range, new_text=text)])
        if valid and not check_source(after).valid:
            raise Divergence(f"prefill {item.label!r} of {completed!r} gives {after!r}")


def run_catalog_case(rng: random.Random) -> None:
    descriptors, methods = random_catalog(rng)
    store = CatalogStore()
    store.apply_initialization_options({"octoscript": {"moduleCatalog": descriptors}})
    if store.module_catalog is None:
        return
    for _ in range(3):
        check_catalog_document(store, random_document(rng, methods), rng)
