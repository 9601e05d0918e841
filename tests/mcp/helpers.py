"""An in-process `octoscript mcp` server and the SDK's own client, for the tests."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client

from octoscript_lsp.mcp.server import build_server
from octoscript_lsp.mcp.workspace import Origin, Workspace

TOOLS = [
    {"name": "text.echo", "format": "text", "description": "Returns the input text unchanged."},
    {"name": "math.add", "format": "json", "description": "Adds two integers."},
    {"name": "orders.lookup", "format": "json", "description": "Looks an order up by id."},
]
MODULES = [
    {"path": "mod.app", "description": "Application modules."},
    {
        "path": "mod.app.weather.current",
        "description": "Current forecast for a place.",
        "callMode": "synchronous",
        "callShape": "single_json",
        "inputFields": [
            {"name": "location", "type": "string", "required": True, "description": "City."},
            {"name": "units", "type": "string", "required": False},
        ],
        "outputFields": [{"name": "temperature", "type": "number", "required": True}],
    },
]


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def settings_file(folder: Path, tools: Any = TOOLS, modules: Any = MODULES) -> Path:
    """A settings file naming one catalog file that holds both catalogs."""
    catalog: dict[str, Any] = {}
    if tools is not None:
        catalog["toolCatalog"] = tools
    if modules is not None:
        catalog["moduleCatalog"] = modules
    write_json(folder / "catalog.json", catalog)
    return write_json(folder / "settings.json", {"catalogFiles": ["catalog.json"]})


def workspace(settings: Path | None = None, directory: Path | None = None) -> Workspace:
    origin = Origin(
        settings=str(settings) if settings is not None else None,
        isolated=directory is None,
        directory=str(directory) if directory is not None else ".",
    )
    found = Workspace(origin)
    found.load()
    return found


@asynccontextmanager
async def connected(space: Workspace) -> AsyncIterator[Client]:
    async with Client(build_server(space), raise_exceptions=False) as client:
        yield client


async def call(client: Client, name: str, **arguments: Any) -> dict[str, Any]:
    """A tool's structured answer; the call must succeed."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refused(client: Client, name: str, **arguments: Any) -> str:
    """A refused call's message, as the model reads it."""
    result = await client.call_tool(name, arguments)
    assert result.is_error
    assert result.structured_content is None
    return result.content[0].text
