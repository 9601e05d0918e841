"""The output schemas of `octoscript mcp`'s tools (pydantic models the SDK publishes).

Each model mirrors the data answers.py builds; the SDK validates every answer
against its tool's model before it is sent, so the two cannot drift apart
unnoticed. Key names are the CLI's JSON keys (`end_line`, `did_you_mean`)
and the catalogs' own (`callMode`, `toolCatalog`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

Severity = Literal["error", "warning", "info", "hint"]
Standing = Literal["listed", "unlisted", "format-mismatch", "dynamic", "unknown"]


class Fingerprints(BaseModel):
    """The fingerprint of each catalog answered from (null: not given)."""

    toolCatalog: str | None
    moduleCatalog: str | None


class Unavailable(BaseModel):
    """A lookup catalog that was refused: nothing it lists is in the answer."""

    name: Literal["toolCatalog", "moduleCatalog"]
    state: Literal["discarded", "cleared"]
    reason: str | None


class UnreadFile(BaseModel):
    """A catalog file that could not be read: what it holds is not in the answer."""

    path: str | None
    reason: str | None


class SearchHit(BaseModel):
    """A hit as catalog search sizes it: a key it has no value for is left out."""

    id: str = Field(description="exact id: a tool name or a module member's dotted path")
    kind: Literal["tool", "module"]
    format: str | None = Field(None, description="a tool's format: text or json")
    callMode: str | None = Field(None, description="a module member's call mode")
    summary: str = Field(description="the description, collapsed and cut short")

    @model_serializer(mode="wrap")
    def _without_nulls(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {key: value for key, value in handler(self).items() if value is not None}


class SearchResult(BaseModel):
    hits: list[SearchHit] = Field(description="best first, in a stable order")
    truncated: bool = Field(description="more entries matched than are listed")
    generation: int
    fingerprints: Fingerprints
    unavailable: list[Unavailable] = Field(
        description="catalogs not searched because they were refused (discarded or cleared)"
    )
    unread_files: list[UnreadFile] = Field(description="catalog files that could not be read")


class CatalogField(BaseModel):
    name: str
    type: str
    required: bool
    description: str = ""
    fields: list[CatalogField] | None = None


class Described(BaseModel):
    id: str
    kind: Literal["tool", "module"]
    description: str
    format: str | None = Field(None, description="a tool's format: text or json")
    callMode: str | None = Field(None, description="synchronous, or deferred (call .await())")
    callShape: str | None = Field(None, description="single_json: one record or array argument")
    inputFields: list[CatalogField] | None = None
    outputFields: list[CatalogField] | None = None
    truncated: bool = Field(False, description="some fields were left out")


class NotFound(BaseModel):
    id: str
    did_you_mean: list[str] = Field(description="up to three listed ids close to this one")


class DescribeResult(BaseModel):
    found: list[Described]
    not_found: list[NotFound] = Field(description="ids no catalog lists")
    unresolved: list[NotFound] = Field(
        description="ids the valid catalogs do not list that a refused catalog (under "
        "unavailable) or an unread file might: fix it, then ask again"
    )
    omitted: list[str] = Field(description="known ids left out for the size bound: ask again")
    truncated: bool
    fingerprints: Fingerprints
    unavailable: list[Unavailable] = Field(description="catalogs refused, so not looked in")
    unread_files: list[UnreadFile] = Field(description="catalog files that could not be read")


class TextEdit(BaseModel):
    """Replace [line:column, end_line:end_column) (1-based, code points) by new_text."""

    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


class ScriptFix(BaseModel):
    title: str
    edits: list[TextEdit]


class ScriptDiagnostic(BaseModel):
    """A `check_script` finding (the review's syntax-only ones are `SyntaxDiagnostic`)."""

    code: str | None
    severity: Severity
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    did_you_mean: list[str]
    fixes: list[ScriptFix] = Field(description="the edits `octoscript check --fix` applies")


class AppliedCatalog(BaseModel):
    name: str
    state: str
    fingerprint: str | None
    reason: str | None


class CheckResult(BaseModel):
    path: str
    valid: bool = Field(description="no syntax error")
    diagnostics: list[ScriptDiagnostic]
    truncated: bool = Field(description="more diagnostics were found than are listed")
    catalogs: list[AppliedCatalog] = Field(description="the catalogs checked against")
    catalog_error: str | None = Field(description="why no catalog could be read, if so")


class FormatResult(BaseModel):
    formatted: str = Field(description="the same text `octoscript format -` prints")
    changed: bool


class Callee(BaseModel):
    line: int
    column: int
    start_byte: int
    end_byte: int


class ToolName(BaseModel):
    """As `tool-calls` gives it: `{"kind": "dynamic"}`, or a literal with its span and
    `value` (null for a name that is not a valid catalog tool name)."""

    kind: Literal["literal", "dynamic"]
    value: str | None = None
    start_byte: int | None = None
    end_byte: int | None = None

    @model_serializer(mode="wrap")
    def _as_reported(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {"kind": "dynamic"} if self.kind == "dynamic" else handler(self)


class ToolCall(BaseModel):
    callee: Callee
    kind: str = Field(description="the mod.tool method: call, start, call_json, start_json")
    name: ToolName
    label: str
    catalog: str
    standing: Standing


class ModuleCall(BaseModel):
    callee: Callee
    module_path: list[str]
    method: str
    label: str
    standing: Literal["built-in", "listed", "unlisted", "unknown"]


class SyntaxDiagnostic(BaseModel):
    line: int
    column: int
    end_line: int
    end_column: int
    severity: Severity
    message: str
    code: str


class ReviewResult(BaseModel):
    valid: bool
    diagnostics: list[SyntaxDiagnostic]
    diagnostics_truncated: bool
    tool_calls: list[ToolCall]
    tool_calls_truncated: bool
    imported_module_calls: list[ModuleCall]
    imported_module_calls_truncated: bool
    truncated: bool = Field(description="any list above was cut")
    catalogs: list[AppliedCatalog]


class ProjectionSource(BaseModel):
    """Where a projection came from (`catalogs.store.Source` as status JSON)."""

    kind: str
    path: str | None = None


class ProjectionStatus(BaseModel):
    state: str
    generation: int
    entries: int
    fingerprint: str | None
    reason: str | None
    source: ProjectionSource | None


class CatalogFileStatus(BaseModel):
    path: str | None
    ok: bool
    reason: str | None
    projections: list[str]


class StatusResult(BaseModel):
    configuration: str | None = Field(description="the project configuration file read")
    settings: str | None = Field(description="the settings file read")
    error: str | None = Field(description="why the configuration cannot be read now")
    projections: dict[str, ProjectionStatus]
    catalogFiles: list[CatalogFileStatus]


class ReferenceResult(BaseModel):
    sections: list[str]
    uri_prefix: str = Field(description="each section is also the resource <uri_prefix><name>")
    section: str | None
    text: str | None
    truncated: bool = Field(description="the section's text was cut to the size bound")
