"""`workflowDataCatalog` + `workflowDataStepContext`.

Their structure is ``$defs/workflowDataCatalog`` and
``$defs/workflowDataStepContext`` in the settings schema. Rules the schema
cannot state, checked here (any failure rejects the whole workflow projection):

- all fields (inputs and every output) total at most ``MAX_WORKFLOW_FIELDS``,
  counted before the schema runs;
- descriptions within ``MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES`` UTF-8 bytes;
- field names unique within their list, step ids unique;
- retained bytes (per step ``len(stepId) + 1``, per field name + type text +
  description + 1) stay within ``MAX_WORKFLOW_CATALOG_BYTES``;
- the context needs a valid catalog; the completed array must equal the
  first N catalog step ids in order and ``currentStepId`` must equal catalog
  output N (so N < number of outputs).
"""

from __future__ import annotations

from typing import Any, cast

from octoscript_lsp.catalogs._checks import (
    ByteBudget,
    named_field,
    reject,
    unique_named,
)
from octoscript_lsp.catalogs.model import CONVERTER, WorkflowDataCatalog, WorkflowStepContext
from octoscript_lsp.catalogs.schema import validate_definition
from octoscript_lsp.limits import (
    MAX_WORKFLOW_CATALOG_BYTES,
    MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES,
    MAX_WORKFLOW_FIELDS,
    MAX_WORKFLOW_OUTPUTS,
)


def parse_workflow_data_catalog(value: object) -> WorkflowDataCatalog:
    """Validate and normalize; raises ``CatalogRejected`` on any violation."""
    _check_field_total(value)
    validate_definition(value, "workflowDataCatalog", "workflowDataCatalog")
    obj = cast(dict[str, Any], value)
    budget = ByteBudget(MAX_WORKFLOW_CATALOG_BYTES, "workflowDataCatalog")
    inputs = _parse_fields(obj["inputFields"], "workflowDataCatalog.inputFields", budget)
    outputs = unique_named(
        obj["outputs"],
        "workflowDataCatalog.outputs",
        lambda entry, at: _parse_output(entry, at, budget),
        key="stepId",
        noun="step",
        sort=False,  # host order: the step context depends on it
    )
    return CONVERTER.structure({"inputFields": inputs, "outputs": outputs}, WorkflowDataCatalog)


def _check_field_total(value: object) -> None:
    """Inputs plus every output's fields, looking only at list lengths."""
    if not isinstance(value, dict):
        return  # the schema reports it
    lists = [value.get("inputFields")]
    outputs = value.get("outputs")
    if isinstance(outputs, list) and len(outputs) <= MAX_WORKFLOW_OUTPUTS:
        lists.extend(output.get("fields") for output in outputs if isinstance(output, dict))
    total = sum(len(fields) for fields in lists if isinstance(fields, list))
    if total > MAX_WORKFLOW_FIELDS:
        reject(f"workflowDataCatalog exceeds {MAX_WORKFLOW_FIELDS} fields")


def _parse_output(entry: dict[str, Any], where: str, budget: ByteBudget) -> dict[str, Any]:
    step_id = entry["stepId"]
    budget.spend(len(step_id) + 1)
    return {"stepId": step_id, "fields": _parse_fields(entry["fields"], f"{where}.fields", budget)}


def _parse_fields(
    fields: list[dict[str, Any]], where: str, budget: ByteBudget
) -> list[dict[str, Any]]:
    limit = MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES
    return unique_named(fields, where, lambda entry, at: named_field(entry, at, budget, limit))


def parse_workflow_step_context(
    value: object, catalog: WorkflowDataCatalog | None
) -> WorkflowStepContext:
    """Validate a step context against an already-valid catalog."""
    if catalog is None:
        reject("workflowDataStepContext needs a valid workflowDataCatalog")
    validate_definition(value, "workflowDataStepContext", "workflowDataStepContext")
    obj = cast(dict[str, Any], value)
    current, completed = obj["currentStepId"], obj["completedOutputStepIds"]
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
