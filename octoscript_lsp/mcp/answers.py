"""What each `octoscript mcp` tool answers, as plain JSON-ready data (no SDK here).

Every answer comes from code the editor and `octoscript check` already use:
catalog search (catalogs/search.py), the check's findings and rules
(cli/findings.py, cli/rules.py), the fixes `check --fix` applies
(analysis/fix_all.py over analysis/fixes.py), the formatter `octoscript format`
runs (cli/formatting.py) and the tool-call review (features/review_json.py).
A request this cannot answer raises `Refusal`, whose message says why and
what to do instead; server.py hands it to the model as a tool error.

Positions are 1-based lines and columns counted in code points on
LF-ended lines, as every CLI report counts them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import reference as language
from ..analysis.document import DocumentAnalysis
from ..analysis.fix_all import repaired
from ..analysis.fixes import fixes
from ..analysis.problems import CODE_TOO_MANY_DIAGNOSTICS
from ..analysis.tool_call_review import module_call_status
from ..catalogs.fingerprint import canonical_json
from ..catalogs.model import ModuleDescriptor, ModuleField, ToolEntry
from ..catalogs.modules import parse_module_path
from ..catalogs.search import InvalidSearchQuery, search_tools
from ..catalogs.store import MODULES, TOOLS, CatalogState, CatalogStore
from ..catalogs.suggest import closest_names
from ..catalogs.tools import is_valid_tool_name
from ..cli.findings import FileFindings, ReportedFinding, findings_of, syntax_findings
from ..cli.formatting import NotFormattable, canonical_text
from ..cli.inputs import STDIN, SourceFile
from ..cli.reports import tool_calls_report
from ..limits import (
    MAX_DESCRIBE_ID_BYTES,
    MAX_DESCRIBE_IDS,
    MAX_DESCRIBE_RESULT_BYTES,
    MAX_DESCRIBED_FIELDS,
    MAX_SCRIPT_PATH_BYTES,
    MAX_SECTION_NAME_BYTES,
    MAX_SOURCE_BYTES,
)
from ..syntax.check import analyze_syntax
from ..syntax.diagnostics import LineIndex
from .workspace import Workspace

SCRIPT = "script.octoscript"  # what a script without a `path` is called
LOOKUP_PROJECTIONS = (TOOLS, MODULES)  # what search and describe answer from


class Refusal(Exception):
    """A request the server will not answer; the message says why and what to do."""


def checked_source(source: str) -> str:
    """`source` when it is text within the language's size bound."""
    try:
        size = len(source.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise Refusal("source is not valid Unicode text (it holds a lone surrogate)") from error
    if size > MAX_SOURCE_BYTES:
        raise Refusal(
            f"source is {size} bytes of UTF-8; Octoscript source is at most "
            f"{MAX_SOURCE_BYTES} bytes: split the script or send a smaller part"
        )
    return source


def _checked_name(value: str, limit: int, what: str) -> str:
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise Refusal(f"{what} is not valid Unicode text") from error
    if size > limit:
        raise Refusal(f"{what} is {size} bytes; at most {limit} are accepted")
    return value


@dataclass(frozen=True)
class Lookup:
    """The store search and describe answer from, and the lookup projections
    they cannot use (discarded or cleared), named in every answer."""

    store: CatalogStore
    unavailable: list[dict[str, Any]]
    unread: list[dict[str, Any]]  # catalog files read for nothing: what they hold is unknown

    def refused(self) -> set[str]:
        """The lookup catalogs an answer cannot rule out: the refused ones, and
        both while a catalog file could not be read."""
        if self.unread:
            return set(LOOKUP_PROJECTIONS)
        return {item["name"] for item in self.unavailable}

    def json(self) -> dict[str, Any]:
        projections = self.store.projections()
        return {
            "fingerprints": {name: projections[name].fingerprint for name in LOOKUP_PROJECTIONS},
            "unavailable": self.unavailable,
            "unread_files": self.unread,
        }


def _lookup_catalogs(workspace: Workspace) -> Lookup:
    """What search and describe may answer from: refused unless the tool or
    the module catalog is valid, so no answer is ever made from a refused one."""
    if workspace.error is not None:
        raise Refusal(f"the catalogs cannot be read: {workspace.error}")
    store = workspace.catalogs
    if store is None:
        raise Refusal(
            "no catalog is configured: start the server with `--settings FILE`, or name "
            "`catalogFiles` in the project's [tool.octoscript]; call catalog_status for details"
        )
    projections = store.projections()
    unavailable = [
        {"name": name, "state": projections[name].state.value, "reason": projections[name].reason}
        for name in LOOKUP_PROJECTIONS
        if projections[name].state.unavailable
    ]
    unread = [
        {"path": file["path"], "reason": file["reason"]}
        for file in store.files_status()
        if not file["ok"] and not file["projections"]
    ]
    if any(projections[name].state is CatalogState.VALID for name in LOOKUP_PROJECTIONS):
        return Lookup(store, unavailable, unread)
    if unavailable:
        why = "; ".join(
            f"the {item['name']} was {item['state']} ({item['reason']})" for item in unavailable
        )
        raise Refusal(
            f"{why}, so no tool or module is known; fix the catalog (catalog_status says "
            "where it came from)"
        )
    unread = [file["reason"] for file in store.files_status() if not file["ok"]]
    why = f" ({'; '.join(unread)})" if unread else ""
    raise Refusal(f"the configuration gives no tool or module catalog{why}")


def search(workspace: Workspace, query: str, limit: int | None) -> dict[str, Any]:
    lookup = _lookup_catalogs(workspace)
    try:
        found = search_tools(lookup.store, query, limit)
    except InvalidSearchQuery as error:
        raise Refusal(f"{error}: send one to a few keywords") from error
    return {
        "hits": found["tools"],
        "truncated": found["truncated"],
        "generation": found["generation"],
        **lookup.json(),
    }


def _field_json(field: ModuleField) -> dict[str, Any]:
    """Every key the answer's schema gives a field, so its size here is its size sent."""
    children = None if field.fields is None else [_field_json(item) for item in field.fields]
    return {
        "name": field.name,
        "type": field.type.value,
        "required": field.required,
        "description": field.description,
        "fields": children,
    }


def _fields(
    fields: tuple[ModuleField, ...] | None, budget: list[int]
) -> tuple[list[dict[str, Any]] | None, bool]:
    """The fields within the remaining node budget (`budget[0]`), and whether some were cut."""
    if fields is None:
        return None, False
    out = []
    for item in fields:
        cost = 1 + len(item.fields or ())
        if cost > budget[0]:
            return out, True
        budget[0] -= cost
        out.append(_field_json(item))
    return out, False


def _tool_entry(tool: ToolEntry) -> dict[str, Any]:
    return {
        "id": tool.name,
        "kind": "tool",
        "description": tool.description,
        "format": tool.format.value,
        "callMode": None,
        "callShape": None,
        "inputFields": None,
        "outputFields": None,
        "truncated": False,
    }


def _module_entry(module: ModuleDescriptor, with_fields: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": module.dotted, "kind": "module"}
    entry["description"] = module.description
    entry["format"] = None
    entry["callMode"] = None if module.call_mode is None else module.call_mode.value
    entry["callShape"] = None if module.call_shape is None else module.call_shape.value
    cut = False
    if with_fields:
        budget = [MAX_DESCRIBED_FIELDS]
        entry["inputFields"], cut_in = _fields(module.input_fields, budget)
        entry["outputFields"], cut_out = _fields(module.output_fields, budget)
        cut = cut_in or cut_out
    else:
        cut = module.input_fields is not None or module.output_fields is not None
        entry["inputFields"] = entry["outputFields"] = None
    entry["truncated"] = cut
    return entry


def _size(value: Any) -> int:
    return len(canonical_json(value)) + 1  # and its comma


def _fit(
    candidates: list[tuple[dict[str, Any], dict[str, Any]]], budget: int
) -> tuple[list, list[str]]:
    """Full entries while the rest still fit bare, else bare ones, else omitted ids."""
    bare_sizes = [_size(bare) for _, bare in candidates]
    kept: list[dict[str, Any]] = []
    omitted: list[str] = []
    for index, (full, bare) in enumerate(candidates):
        reserve = sum(bare_sizes[index + 1 :])
        if _size(full) + reserve <= budget:
            chosen = full
        elif bare_sizes[index] + reserve <= budget:
            chosen = bare
        else:
            omitted.append(full["id"])
            continue
        budget -= _size(chosen)
        kept.append(chosen)
    return kept, omitted


def _wanted_ids(ids: list[str]) -> list[str]:
    if not ids:
        raise Refusal("ids is empty: pass one to eight exact ids from search_tools")
    if len(ids) > MAX_DESCRIBE_IDS:
        raise Refusal(
            f"{len(ids)} ids given; at most {MAX_DESCRIBE_IDS} a call: split them over several"
        )
    return list(dict.fromkeys(_checked_name(item, MAX_DESCRIBE_ID_BYTES, "an id") for item in ids))


def _could_be_in(ident: str, unavailable: set[str]) -> bool:
    """Whether a catalog the answer cannot see might list `ident`: a tool name
    while the tool catalog is refused, a module path while the module catalog is."""
    if TOOLS in unavailable and is_valid_tool_name(ident):
        return True
    return MODULES in unavailable and parse_module_path(ident) is not None


def describe(workspace: Workspace, ids: list[str]) -> dict[str, Any]:
    wanted = _wanted_ids(ids)
    lookup = _lookup_catalogs(workspace)
    tools = lookup.store.tool_catalog
    modules = lookup.store.module_catalog
    candidates: list[tuple[dict[str, Any], dict[str, Any]]] = []
    missing = []
    for ident in wanted:
        tool = tools.get(ident) if tools is not None else None
        module = modules.descriptor(ident) if modules is not None else None
        if tool is not None:
            entry = _tool_entry(tool)
            candidates.append((entry, entry))
        if module is not None:
            candidates.append((_module_entry(module, True), _module_entry(module, False)))
        if tool is None and module is None:
            missing.append(ident)
    known = [tool.name for tool in tools.tools] if tools is not None else []
    known += [module.dotted for module in modules.descriptors] if modules is not None else []
    refused = lookup.refused()
    unknown = [
        {"id": ident, "did_you_mean": closest_names(ident, tuple(known))} for ident in missing
    ]
    rest = {
        "not_found": [item for item in unknown if not _could_be_in(item["id"], refused)],
        "unresolved": [item for item in unknown if _could_be_in(item["id"], refused)],
        "truncated": False,
        **lookup.json(),
    }
    # The whole answer within the bound: what is not an entry, and every id
    # as if omitted, come off the entries' budget first.
    reserve = _size(rest) + sum(_size(full["id"]) for full, _ in candidates)
    kept, omitted = _fit(candidates, MAX_DESCRIBE_RESULT_BYTES - reserve)
    rest["truncated"] = bool(omitted) or any(entry.get("truncated") for entry in kept)
    return {
        "found": kept,
        "not_found": rest.pop("not_found"),
        "unresolved": rest.pop("unresolved"),
        "omitted": omitted,
        **rest,
    }


def _edit(lines: LineIndex, start: int, end: int, text: str) -> dict[str, Any]:
    line, column = lines.line_column(start)
    end_line, end_column = lines.line_column(end)
    return {
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "new_text": text,
    }


def _fixes_by_finding(
    analysis: DocumentAnalysis, catalogs: CatalogStore | None
) -> dict[tuple[int, int, str], list[dict[str, Any]]]:
    """The fixes `check --fix` would apply, by the (line, column, code) they repair."""
    syntax = analysis.syntax
    assert syntax is not None
    out: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for fix in fixes(analysis, 0, len(analysis.source), catalogs):
        about = repaired(fix, analysis)
        if about is None:
            continue
        line, column = syntax.lines.line_column(about[0])
        start, end, text = fix.edit
        edit = _edit(syntax.lines, start, end, text)
        out.setdefault((line, column, about[1]), []).append({"title": fix.title, "edits": [edit]})
    return out


def _diagnostic(item: ReportedFinding, fixed: dict[tuple[int, int, str], list]) -> dict[str, Any]:
    out = item.json()
    out["code"] = item.code
    out["did_you_mean"] = list(item.did_you_mean)
    out["fixes"] = fixed.get((item.line, item.column, item.code or ""), [])
    return out


def applied_catalogs(workspace: Workspace) -> list[dict[str, Any]]:
    """Each projection the check used (valid) or could not (with its reason)."""
    store = workspace.catalogs
    if store is None:
        return []
    return [
        {
            "name": name,
            "state": projection.state.value,
            "fingerprint": projection.fingerprint,
            "reason": projection.reason,
        }
        for name, projection in store.projections().items()
    ]


def check(workspace: Workspace, source: str, path: str | None) -> dict[str, Any]:
    name = SCRIPT if path is None else _checked_name(path, MAX_SCRIPT_PATH_BYTES, "path")
    text = checked_source(source)
    analysis = DocumentAnalysis(text)
    catalogs = workspace.catalogs
    found: FileFindings = findings_of(name, analysis, catalogs, workspace.profile.rules)
    advice_cut = found.advice_cut
    fixed = _fixes_by_finding(analysis, catalogs) if found.all else {}
    listed = [item for item in found.all if item.code != CODE_TOO_MANY_DIAGNOSTICS]
    return {
        "path": name,
        "valid": found.valid,
        "diagnostics": [_diagnostic(item, fixed) for item in listed],
        "truncated": found.truncated or advice_cut,
        "catalogs": applied_catalogs(workspace),
        "catalog_error": workspace.error,
    }


def first_error(text: str) -> str:
    """`line L, column C: message [code]` of the first syntax error."""
    items = syntax_findings(analyze_syntax(text))
    if not items:
        return "the formatted text would exceed the output bound"
    item = items[0]
    return f"line {item.line}, column {item.column}: {item.message} [{item.code}]"


def format_source(source: str) -> dict[str, Any]:
    text = checked_source(source)
    try:
        formatted = canonical_text(SourceFile(STDIN, text, b"", None))
    except NotFormattable as error:
        raise Refusal(
            f"not formatted, the source is not valid Octoscript: {first_error(text)} "
            "(check_script lists every error and its fixes)"
        ) from error
    return {"formatted": formatted, "changed": formatted != text}


def review(workspace: Workspace, source: str) -> dict[str, Any]:
    text = checked_source(source)
    catalogs = workspace.catalogs
    report = tool_calls_report(catalogs)(SCRIPT, analyze_syntax(text))
    del report["path"]
    for call in report["tool_calls"]:
        dynamic = call["name"]["kind"] == "dynamic"
        call["standing"] = "dynamic" if dynamic else call["catalog"]
    for call in report["imported_module_calls"]:
        call["standing"] = module_call_status(tuple(call["module_path"]), call["method"], catalogs)
    report["truncated"] = (
        report["diagnostics_truncated"]
        or report["tool_calls_truncated"]
        or report["imported_module_calls_truncated"]
    )
    report["catalogs"] = applied_catalogs(workspace)
    return report


def status(workspace: Workspace) -> dict[str, Any]:
    store = workspace.catalogs
    configuration = workspace.config.path if workspace.config is not None else None
    projections: dict[str, Any] = {} if store is None else store.status()
    files = projections.pop("catalogFiles", [])
    return {
        "configuration": configuration,
        "settings": workspace.settings_path,
        "error": workspace.error,
        "projections": projections,
        "catalogFiles": files,
    }


def reference(name: str | None) -> dict[str, Any]:
    """The section list, or one section's text (the reference bounds it)."""
    names = language.section_names()
    wanted = text = None
    if name is not None:
        wanted = _checked_name(name, MAX_SECTION_NAME_BYTES, "section")
        text = language.section(wanted)
        if text is None:
            near = closest_names(wanted, tuple(names))
            hint = f"; did you mean `{near[0]}`?" if near else ""
            raise Refusal(f"no section `{wanted}`{hint} (the sections: {', '.join(names)})")
    return {
        "sections": names,
        "uri_prefix": language.REFERENCE_URI_PREFIX,
        "section": wanted,
        "text": text,
        "truncated": wanted is not None and language.is_cut(wanted),
    }
