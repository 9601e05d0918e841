"""The Claude Code plugin in editors/claude-code/: its manifest and marketplace
are valid JSON of the plugin format, and the servers it declares are this
package's console scripts, which start and answer the handshake as declared."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from octoscript_lsp.cli.discovery import DEFAULT_INCLUDE_SUFFIXES
from octoscript_lsp.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editors" / "claude-code"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# The manifest's fields and a server's fields, as the plugin format defines
# them; Claude Code refuses a manifest with any other key.
MANIFEST_FIELDS = {
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "lspServers",
    "outputStyles",
}
LSP_SERVER_FIELDS = {
    "command",
    "args",
    "extensionToLanguage",
    "transport",
    "env",
    "initializationOptions",
    "settings",
    "workspaceFolder",
    "startupTimeout",
    "shutdownTimeout",
    "restartOnCrash",
    "maxRestarts",
}
MCP_SERVER_FIELDS = {"type", "command", "args", "env", "cwd"}


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def manifest() -> dict:
    return _json(PLUGIN / ".claude-plugin" / "plugin.json")


def test_the_manifest_names_the_plugin_and_its_version(manifest: dict) -> None:
    assert set(manifest) <= MANIFEST_FIELDS
    assert manifest["name"] == "octoscript"
    assert manifest["version"] == PROJECT["version"]
    assert manifest["license"] == PROJECT["license"]
    assert set(manifest["author"]) == {"name"}
    # only the manifest sits in .claude-plugin/ (and the marketplace beside it)
    assert sorted(p.name for p in (PLUGIN / ".claude-plugin").iterdir()) == [
        "marketplace.json",
        "plugin.json",
    ]


def test_the_language_server_is_the_console_script_for_both_extensions(manifest: dict) -> None:
    ((name, server),) = manifest["lspServers"].items()
    assert name == "octoscript"
    assert set(server) <= LSP_SERVER_FIELDS
    assert server["command"] in PROJECT["scripts"]
    assert PROJECT["scripts"][server["command"]] == "octoscript_lsp.launch:main"
    assert server.get("args", []) == []
    assert server["extensionToLanguage"] == {
        suffix: "octoscript" for suffix in DEFAULT_INCLUDE_SUFFIXES
    }
    assert sorted(server["extensionToLanguage"]) == [".octo", ".octoscript"]


def test_the_mcp_server_is_the_cli_command_mcp(manifest: dict) -> None:
    ((name, server),) = manifest["mcpServers"].items()
    assert name == "octoscript"
    assert set(server) <= MCP_SERVER_FIELDS
    assert server["command"] in PROJECT["scripts"]
    assert PROJECT["scripts"][server["command"]] == "octoscript_lsp.cli:main"
    assert server["args"] == ["mcp"]


def test_the_marketplace_offers_this_plugin(manifest: dict) -> None:
    market = _json(PLUGIN / ".claude-plugin" / "marketplace.json")
    assert set(market) == {"name", "owner", "description", "plugins"}
    assert set(market["owner"]) == {"name"}
    (entry,) = market["plugins"]
    assert entry == {
        "name": manifest["name"],
        "source": "./",
        "description": entry["description"],
    }
    assert isinstance(entry["description"], str) and entry["description"]


def _script(name: str) -> str:
    """The console script as a client would find it: beside this Python first."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def _lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def test_the_declared_language_server_starts_and_initializes(manifest: dict, tmp_path) -> None:
    server = manifest["lspServers"]["octoscript"]
    command = [_script(server["command"]), *server.get("args", [])]
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"processId": None, "rootUri": None, "capabilities": {}},
    }
    requests = [
        initialize,
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    completed = subprocess.run(
        command,
        input=b"".join(map(_lsp_message, requests)),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr.decode()
    header, _, rest = completed.stdout.partition(b"\r\n\r\n")
    fields = dict(line.split(b": ", 1) for line in header.split(b"\r\n"))
    length = int(fields[b"Content-Length"])
    answer = json.loads(rest[:length])
    assert answer["id"] == 1
    assert answer["result"]["serverInfo"]["name"] == "octoscript-lsp"
    assert answer["result"]["capabilities"]["hoverProvider"] is True


def test_the_mcp_server_s_first_argument_is_the_cli_s_mcp_command(manifest: dict) -> None:
    parser = build_parser()
    (commands,) = [action for action in parser._actions if action.dest == "command"]
    assert manifest["mcpServers"]["octoscript"]["args"][0] in commands.choices


async def test_the_declared_mcp_server_starts_and_lists_its_tools(manifest: dict, tmp_path) -> None:
    pytest.importorskip("mcp")
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    server = manifest["mcpServers"]["octoscript"]
    # The SDK's stdio client waits for each answer: a server fed all its
    # input at once may see the end of stdin before it answers the last one.
    declared = StdioServerParameters(
        command=_script(server["command"]), args=list(server["args"]), cwd=str(tmp_path)
    )
    async with Client(declared, read_timeout_seconds=60) as client:
        assert client.server_info.name == "octoscript"
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert names == {
        "search_tools",
        "describe_tools",
        "check_script",
        "format_script",
        "review_tool_calls",
        "catalog_status",
        "language_reference",
    }
