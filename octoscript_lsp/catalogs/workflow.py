"""`workflowDataCatalog` + `workflowDataStepContext`.

Catalog rules (any failure rejects the whole workflow projection):

- an object with required arrays ``inputFields`` and ``outputs``;
- ``outputs`` holds at most ``MAX_WORKFLOW_OUTPUTS`` objects, each with a
  required ``stepId`` (canonical identifier, at most ``MAX_WORKFLOW_NAME_BYTES``,
  unique) and a required ``fields`` array;
- a field is an object with a canonical-identifier ``name`` of at most
  ``MAX_WORKFLOW_NAME_BYTES`` (unique within its list), one of the eight
  ``type`` strings and an optional ``description`` string of at most
  ``MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES``; no ``required`` and no nesting
  (such properties are simply ignored);
- each list and the aggregate of all fields hold at most
  ``MAX_WORKFLOW_FIELDS``;
- retained bytes (per step ``len(stepId) + 1``, per field name + type text +
  description + 1) stay within ``MAX_WORKFLOW_CATALOG_BYTES``.

Context rules: an object with a required string ``currentStepId`` and a
required array ``completedOutputStepIds``; it needs a valid catalog; the
completed array must equal the first N catalog step ids in order and
``currentStepId`` must equal catalog output N (so N < number of outputs).
"""

from __future__ import annotations

from typing import Any

from octoscript_lsp.catalogs._checks import (
    ByteBudget,
    CountBudget,
    is_canonical_identifier,
    optional_str,
    reject,
    require_list,
    require_object,
    require_str,
    text_bytes,
    unique_named,
)
from octoscript_lsp.catalogs.model import (
    CONVERTER,
    FieldType,
    WorkflowDataCatalog,
    WorkflowStepContext,
)
from octoscript_lsp.limits import (
    MAX_WORKFLOW_CATALOG_BYTES,
    MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES,
    MAX_WORKFLOW_FIELDS,
    MAX_WORKFLOW_NAME_BYTES,
    MAX_WORKFLOW_OUTPUTS,
)

_FIELD_TYPES = frozenset(t.value for t in FieldType)


def is_workflow_name(value: str) -> bool:
    return len(value) <= MAX_WORKFLOW_NAME_BYTES and is_canonical_identifier(value)


def parse_workflow_data_catalog(value: object) -> WorkflowDataCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    obj = require_object(value, "workflowDataCatalog")
    budget = ByteBudget(MAX_WORKFLOW_CATALOG_BYTES, "workflowDataCatalog")
    counter = CountBudget(MAX_WORKFLOW_FIELDS, "workflowDataCatalog")
    if "inputFields" not in obj:
        reject("workflowDataCatalog.inputFields is missing")
    inputs = _parse_fields(obj["inputFields"], "workflowDataCatalog.inputFields", budget, counter)
    if "outputs" not in obj:
        reject("workflowDataCatalog.outputs is missing")
    entries = require_list(obj["outputs"], "workflowDataCatalog.outputs", MAX_WORKFLOW_OUTPUTS)
    seen: set[str] = set()
    outputs: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        output = _parse_output(entry, f"workflowDataCatalog.outputs[{index}]", budget, counter)
        if output["stepId"] in seen:
            reject(f"workflowDataCatalog.outputs[{index}].stepId duplicates an earlier step")
        seen.add(output["stepId"])
        outputs.append(output)
    return CONVERTER.structure({"inputFields": inputs, "outputs": outputs}, WorkflowDataCatalog)


def _parse_output(
    entry: object, where: str, budget: ByteBudget, counter: CountBudget
) -> dict[str, Any]:
    obj = require_object(entry, where)
    step_id = require_str(obj, "stepId", where)
    if not is_workflow_name(step_id):
        reject(f"{where}.stepId is not a canonical identifier of at most 128 bytes")
    budget.spend(len(step_id) + 1)
    if "fields" not in obj:
        reject(f"{where}.fields is missing")
    return {
        "stepId": step_id,
        "fields": _parse_fields(obj["fields"], f"{where}.fields", budget, counter),
    }


def _parse_fields(
    value: object, where: str, budget: ByteBudget, counter: CountBudget
) -> list[dict[str, Any]]:
    entries = require_list(value, where, MAX_WORKFLOW_FIELDS)
    return unique_named(entries, where, lambda entry, at: _parse_field(entry, at, budget, counter))


def _parse_field(
    entry: object, where: str, budget: ByteBudget, counter: CountBudget
) -> dict[str, Any]:
    obj = require_object(entry, where)
    name = require_str(obj, "name", where)
    field_type = require_str(obj, "type", where)
    if field_type not in _FIELD_TYPES:
        reject(f"{where}.type is not a supported field type")
    description = optional_str(obj, "description", where) or ""
    if not is_workflow_name(name):
        reject(f"{where}.name is not a canonical identifier of at most 128 bytes")
    size = text_bytes(description, MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES, f"{where}.description")
    counter.take()
    budget.spend(len(name) + len(field_type) + size + 1)
    return {"name": name, "type": field_type, "description": description}


def parse_workflow_step_context(
    value: object, catalog: WorkflowDataCatalog | None
) -> WorkflowStepContext:
    """Validate a step context against an already-valid catalog."""
    if catalog is None:
        reject("workflowDataStepContext needs a valid workflowDataCatalog")
    obj = require_object(value, "workflowDataStepContext")
    current = require_str(obj, "currentStepId", "workflowDataStepContext")
    if "completedOutputStepIds" not in obj:
        reject("workflowDataStepContext.completedOutputStepIds is missing")
    completed = obj["completedOutputStepIds"]
    if not isinstance(completed, list):
        reject("workflowDataStepContext.completedOutputStepIds is not an array")
    step_ids = [output.step_id for output in catalog.outputs]
    if len(completed) >= len(step_ids):
        reject("workflowDataStepContext has no catalog step after the completed prefix")
    if step_ids[len(completed)] != current:
        reject("workflowDataStepContext.currentStepId is not the next catalog step")
    if completed != step_ids[: len(completed)]:
        reject("workflowDataStepContext.completedOutputStepIds is not the catalog prefix")
    return WorkflowStepContext(
        current_step_id=current, completed_output_step_ids=tuple(step_ids[: len(completed)])
    )
