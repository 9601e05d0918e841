"""Builders for catalog test inputs."""

from __future__ import annotations

import copy
from typing import Any


def tool(name: str = "text.echo", fmt: str = "text", description: str = "Echo.") -> dict[str, Any]:
    return {"name": name, "format": fmt, "description": description}


def field(
    name: str = "location", type_: str = "string", required: bool = True, **extra: Any
) -> dict[str, Any]:
    return {"name": name, "type": type_, "required": required, **extra}


def shaped(path: str = "mod.app.weather.current", **extra: Any) -> dict[str, Any]:
    return {
        "path": path,
        "description": "Current forecast.",
        "callMode": "deferred",
        "callShape": "single_json",
        **extra,
    }


WEATHER: list[dict[str, Any]] = [
    {"path": "mod.app", "description": "Application modules."},
    {"path": "mod.app.weather", "description": "Host weather module."},
    shaped(
        inputFields=[
            field("location", description="Where."),
            field("units", required=False),
            field(
                "filters",
                "object",
                False,
                fields=[field("station", required=False), field("radius", "number", False)],
            ),
        ],
        outputFields=[
            field(
                "summary",
                "object",
                True,
                fields=[field("temperature", "number"), field("wind", "number", False)],
            ),
            field("station", required=False),
        ],
    ),
    {"path": "mod.app.weather.ping", "callMode": "synchronous"},
    {"path": "mod.arithmetic.add", "callMode": "synchronous", "callShape": "single_json"},
]


def weather() -> list[dict[str, Any]]:
    return copy.deepcopy(WEATHER)


def wf_field(name: str, type_: str = "integer", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **extra}


def workflow_catalog() -> dict[str, Any]:
    return {
        "inputFields": [wf_field("left", description="Left."), wf_field("right")],
        "outputs": [
            {"stepId": "prepare", "fields": [wf_field("total", description="Sum.")]},
            {"stepId": "calculate", "fields": [wf_field("sum")]},
        ],
    }


def workflow_context(current: str = "calculate", completed: list[Any] | None = None) -> dict:
    return {
        "currentStepId": current,
        "completedOutputStepIds": ["prepare"] if completed is None else completed,
    }
