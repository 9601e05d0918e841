"""The published settings schema as the structural check of every projection.

`settings.schema.json` is the one statement of the projections' structure
(types, required keys, enums, patterns, per-list and per-string limits).
Each parser validates its value against the matching ``$defs`` entry first,
then applies only the rules a schema cannot state (UTF-8 byte sizes,
retained totals, duplicates, aggregate counts, cross-entry rules).

Validation stops at the first error: jsonschema yields errors lazily in the
schema's keyword order, and every array states ``maxItems`` before
``items``, so an oversized list is refused before any entry is visited.
A reason names the location and the broken rule, never the offending value.

jsonschema (with its referencing and format-checking modules, about a tenth
of the server's start-up) is loaded and the validators are built when the
first projection is validated, not at import.
"""

from __future__ import annotations

import functools
import json
import pkgutil
from collections.abc import Sequence
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from ._checks import reject

SCHEMA_RESOURCE = "schemas/settings.schema.json"

# Schema keyword -> fixed phrase. Each phrase is schema-authored text, so a
# reason never carries client-supplied content.
_PHRASES: dict[str, str] = {
    "enum": "is not a supported value",
    "const": "is not a supported value",
    "pattern": "does not have the required form",
    "not": "carries a property that is not allowed here",
}


def _load_schema() -> dict[str, Any]:
    # pkgutil rather than importlib.resources, whose import (tempfile,
    # shutil and the compression modules) costs more than the read.
    data = pkgutil.get_data("octoscript_lsp", SCHEMA_RESOURCE)
    if data is None:
        raise FileNotFoundError(SCHEMA_RESOURCE)
    return json.loads(data.decode("utf-8"))


def _validator(schema: dict[str, Any], definition: str) -> Draft202012Validator:
    # A wrapper document keeps every `#/$defs/...` reference resolvable.
    wrapper = {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(wrapper)


# Read once at import, before any client message: the server reads no file
# while it serves (docs/security.md), its own schema included.
SETTINGS_SCHEMA: dict[str, Any] = _load_schema()
PROJECTION_DEFINITIONS = (
    "toolCatalog",
    "moduleCatalog",
    "workflowDataCatalog",
    "workflowDataStepContext",
)


@functools.cache
def _validators() -> dict[str, Draft202012Validator]:
    return {name: _validator(SETTINGS_SCHEMA, name) for name in PROJECTION_DEFINITIONS}


def validate_definition(value: object, definition: str, where: str) -> None:
    """Raise ``CatalogRejected`` when ``value`` breaks ``$defs/<definition>``."""
    error = next(_validators()[definition].iter_errors(value), None)
    if error is not None:
        reject(_reason(error, where))


def _location(where: str, path: Sequence[object]) -> str:
    out = where
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}"
    return out


def _reason(error: ValidationError, where: str) -> str:
    # Only schema-known property names and array indexes appear in the path:
    # the schema never descends into properties it does not name.
    at = _location(where, error.absolute_path)
    keyword = error.validator
    expected = error.validator_value
    if keyword == "type":
        return f"{at} is not of type {expected}"
    if keyword == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        missing = next((key for key in expected if key not in present), "?")
        return f"{at}.{missing} is missing"
    if keyword == "maxItems":
        return f"{at} has more than {expected} entries"
    if keyword == "maxLength":
        return f"{at} is longer than {expected} characters"
    if keyword == "dependentRequired":
        present = error.instance if isinstance(error.instance, dict) else {}
        for key, needs in expected.items():
            lacking = [need for need in needs if key in present and need not in present]
            if lacking:
                return f"{at}.{key} needs {lacking[0]}"
    return f"{at} {_PHRASES.get(str(keyword), f'breaks the schema rule {keyword}')}"
