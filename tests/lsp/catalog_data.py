"""Catalogs for the authoring-help tests: the issue's tools, the benchmark's
weather module, and a report module with one required field of each type."""

from __future__ import annotations

TOOLS = [{"name": "text.echo", "format": "text"}, {"name": "svc.lookup", "format": "json"}]


def _field(name: str, kind: str, required: bool = True) -> dict:
    return {"name": name, "type": kind, "required": required}


MODULES = [
    {"path": "mod.app"},
    {"path": "mod.app.weather"},
    {
        "path": "mod.app.weather.current",
        "callMode": "deferred",
        "callShape": "single_json",
        "inputFields": [_field("location", "string"), _field("units", "string", False)],
        "outputFields": [
            {
                "name": "summary",
                "type": "object",
                "required": True,
                "fields": [_field("temperature", "number")],
            }
        ],
    },
    {"path": "mod.app.report"},
    {
        "path": "mod.app.report.build",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [
            _field("title", "string"),
            _field("count", "integer"),
            _field("draft", "boolean"),
            _field("meta", "object"),
            _field("tags", "array"),
            _field("extra", "any"),
            _field("note", "string", False),
        ],
    },
]
