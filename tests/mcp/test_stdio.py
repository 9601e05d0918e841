"""`octoscript mcp` as a host starts it: a subprocess, through the SDK's stdio client."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from octoscript_lsp.mcp.server import INSTRUCTIONS
from tests.cli.invoke import run as invoke

from .helpers import settings_file

ROOT = Path(__file__).resolve().parents[2]


def _program(*args: str) -> list[str]:
    return [sys.executable, "-m", "octoscript_lsp.cli", "mcp", *args]


async def test_octoscript_mcp_over_stdio(tmp_path):
    settings = settings_file(tmp_path)
    command, *args = _program("--isolated", "--settings", str(settings))
    server = StdioServerParameters(command=command, args=args, cwd=str(tmp_path))
    async with Client(server, read_timeout_seconds=60) as client:
        assert client.server_info.name == "octoscript"
        assert client.instructions == INSTRUCTIONS
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"search_tools", "check_script", "language_reference"} <= names
        found = await client.call_tool("search_tools", {"query": "echo"})
        assert found.structured_content["hits"][0]["id"] == "text.echo"
        checked = await client.call_tool(
            "check_script", {"source": 'use mod.tool\nlet r = tool.call("text.ecko", "x")\n'}
        )
        (diagnostic,) = checked.structured_content["diagnostics"]
        assert (diagnostic["code"], diagnostic["did_you_mean"]) == ("unlisted-tool", ["text.echo"])
        bad = await client.call_tool("describe_tools", {"ids": []})
        assert bad.is_error and "ids is empty" in bad.content[0].text
        formatted = await client.call_tool("format_script", {"source": "let   x=1"})
        assert formatted.structured_content == {"formatted": "let x = 1\n", "changed": True}


def _run_without_the_sdk(*args: str):
    """`octoscript mcp ARGS` in a subprocess whose `mcp` package cannot be imported."""
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from octoscript_lsp.cli import main\n"
        "sys.exit(main(['mcp', *sys.argv[1:]]))\n"
    )
    command = [sys.executable, "-c", code, *args]
    return subprocess.run(command, input=b"", capture_output=True, timeout=60, check=False)


def test_without_the_sdk_it_says_how_to_install_it_and_exits_2():
    # As when the extra is not installed.
    result = _run_without_the_sdk("--isolated")
    assert result.returncode == 2
    assert "pip install 'octoscript-lsp[mcp]'" in result.stderr.decode("utf-8")
    assert result.stdout == b""


def test_usage_errors_exit_2(tmp_path):
    # Refused before the server starts, so in this process (tests/cli/invoke.py).
    clash = invoke("mcp", "--config", "x.toml", "--isolated")
    assert clash.returncode == 2 and "do not go together" in clash.stderr.decode()
    missing = invoke("mcp", "--settings", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr.decode()
    (tmp_path / "octoscript.toml").write_text("colour = 1\n", encoding="utf-8")
    invalid = invoke("mcp", cwd=tmp_path)
    assert invalid.returncode == 2 and "unknown key `colour`" in invalid.stderr.decode()
    assert (clash.stdout, missing.stdout, invalid.stdout) == (b"", b"", b"")


def test_the_command_is_in_the_help():
    result = subprocess.run(
        [sys.executable, "-m", "octoscript_lsp.cli", "mcp", "--help"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and b"--settings FILE" in result.stdout
