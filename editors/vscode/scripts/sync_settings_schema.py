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
KEYS = ("toolCatalog", "moduleCatalog", "workflowDataCatalog", "workflowDataStepContext")
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


def setting_schemas() -> dict[str, dict]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    definitions = schema.get("$defs", {})
    return {key: inline(schema["properties"][key], definitions) for key in KEYS}


def main() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    properties = manifest["contributes"]["configuration"]["properties"]
    for key, subschema in setting_schemas().items():
        current = properties[f"octoscript.{key}"]
        kept = {name: current[name] for name in EDITOR_ONLY if name in current}
        properties[f"octoscript.{key}"] = {**subschema, **kept}
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
