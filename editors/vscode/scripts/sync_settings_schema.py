"""Copy the published settings schema into the extension's settings.

VS Code's settings editor does not follow `$ref`, so each catalog setting
gets its subschema with every reference inlined. Run after changing
octoscript_lsp/schemas/settings.schema.json; a test checks they agree.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "octoscript_lsp" / "schemas" / "settings.schema.json"
MANIFEST = ROOT / "editors" / "vscode" / "package.json"
KEYS = (
    "toolCatalog",
    "moduleCatalog",
    "workflowDataCatalog",
    "workflowDataStepContext",
    "catalogFiles",
)
# Preferences VS Code shows as one setting per leaf: `octoscript.<dotted path>`.
LEAF_KEYS = ("completion.prefillRequiredFields",)
# Keys VS Code adds for its settings editor; not part of the data schema.
EDITOR_ONLY = ("default", "markdownDescription", "description", "scope", "order")


def inline(value, definitions: dict):
    if isinstance(value, dict):
        if "$ref" in value:
            name = value["$ref"].rsplit("/", 1)[-1]
            merged = {**inline(definitions[name], definitions)}
            merged.update({k: inline(v, definitions) for k, v in value.items() if k != "$ref"})
            return merged
        return {key: inline(item, definitions) for key, item in value.items()}
    if isinstance(value, list):
        return [inline(item, definitions) for item in value]
    return value


def leaf_schema(schema: dict, dotted: str) -> dict:
    """The subschema of `a.b`: properties.a, then its object branch's properties.b."""
    head, _, rest = dotted.partition(".")
    node = schema["properties"][head]
    if not rest:
        return node
    branch = next(option for option in node.get("anyOf", [node]) if option.get("type") == "object")
    return leaf_schema(branch, rest)


def setting_schemas() -> dict[str, dict]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    definitions = schema.get("$defs", {})
    keys = {key: schema["properties"][key] for key in KEYS}
    keys.update({key: leaf_schema(schema, key) for key in LEAF_KEYS})
    return {key: inline(value, definitions) for key, value in keys.items()}


def main() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    properties = manifest["contributes"]["configuration"]["properties"]
    for key, subschema in setting_schemas().items():
        current = properties.get(f"octoscript.{key}", {})
        kept = {name: current[name] for name in EDITOR_ONLY if name in current}
        properties[f"octoscript.{key}"] = {**subschema, **kept}
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
