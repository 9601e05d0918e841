"""docs/agents.md's example session is what the server answers: each call
is replayed against `octoscript mcp` started in examples/project, each
answer shown must equal the server's (with the fields the text says it left
out), and the fixed script is the draft with the check's edits applied.
Each client's set-up runs the `octoscript mcp` command with options it takes."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from octoscript_lsp import limits
from octoscript_lsp.cli.main import build_parser

from .helpers import call, connected, workspace

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
SESSION = DOC[DOC.index("## An example session\n") : DOC.index("## What it never does\n")]

_CALL = re.compile(
    r"`(\w+)` with\n\n```json\n(.*?)```\n\nanswers(?:; fields left out: ([^\n]+))?\n\n"
    r"```json\n(.*?)```",
    re.DOTALL,
)
SCRIPTS = re.findall(r"^```octoscript\n(.*?)^```$", SESSION, re.DOTALL | re.MULTILINE)


def _calls() -> list[tuple[str, dict[str, Any], set[str], dict[str, Any]]]:
    return [
        (name, json.loads(arguments), set(re.findall(r"`(\w+)`", left or "")), json.loads(answer))
        for name, arguments, left, answer in _CALL.findall(SESSION)
    ]


def _apply(source: str, edits: list[dict[str, Any]]) -> str:
    """Edits at 1-based line and column (code points), applied last first."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = sorted(
        (
            (offset(e["line"], e["column"]), offset(e["end_line"], e["end_column"]), e["new_text"])
            for e in edits
        ),
        reverse=True,
    )
    for start, end, text in spans:
        source = source[:start] + text + source[end:]
    return source


def test_the_session_is_search_describe_check_fix_review() -> None:
    assert [name for name, *_ in _calls()] == [
        "search_tools",
        "describe_tools",
        "check_script",
        "check_script",
        "review_tool_calls",
    ]
    steps = re.findall(r"^### \d\. (\w+)$", SESSION, re.MULTILINE)
    assert steps == ["Search", "Describe", "Write", "Check", "Fix", "Review"]
    assert len(SCRIPTS) == 2


async def test_every_answer_shown_is_the_server_s() -> None:
    space = workspace(directory=ROOT / "examples" / "project")
    async with connected(space) as client:
        for name, arguments, left_out, shown in _calls():
            answer = await call(client, name, **arguments)
            assert set(shown) | left_out == set(answer), name
            assert not set(shown) & left_out
            assert {key: answer[key] for key in shown} == shown, name


def test_the_fixed_script_is_the_draft_with_the_check_s_edits() -> None:
    draft, fixed = SCRIPTS
    (_, first, _, checked), (_, second, _, rechecked), (_, reviewed, _, review) = _calls()[2:]
    assert first["source"] == draft and second["source"] == fixed == reviewed["source"]
    edits = [edit for item in checked["diagnostics"] for edit in item["fixes"][0]["edits"]]
    assert len(checked["diagnostics"]) == 3
    assert _apply(draft, edits) == fixed
    assert rechecked["diagnostics"] == []
    assert [site["standing"] for site in review["tool_calls"]] == ["listed", "listed"]


SET_UP = DOC[DOC.index("## Set up\n") : DOC.index("## Tools\n")]
SCRIPTS_TABLE = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def _commands() -> list[list[str]]:
    """Each command line the set-up gives a client, as the client runs it."""
    (claude,) = re.findall(r"^claude mcp add octoscript -- (.+)$", SET_UP, re.MULTILINE)
    configurations = [
        json.loads(block) for block in re.findall(r"^```json\n(.*?)^```$", SET_UP, re.DOTALL | re.M)
    ]
    assert [sorted(config) for config in configurations] == [["servers"], ["mcpServers"]]
    servers = [config.get("servers") or config["mcpServers"] for config in configurations]
    assert servers[0]["octoscript"].pop("type") == "stdio"
    return [claude.split()] + [
        [server["octoscript"]["command"], *server["octoscript"]["args"]] for server in servers
    ]


def test_every_client_set_up_runs_octoscript_mcp_with_options_it_takes() -> None:
    commands = _commands()
    assert len(commands) == 3
    for command, *arguments in commands:
        assert SCRIPTS_TABLE[command] == "octoscript_lsp.cli:main"
        folder = [argument.replace("${workspaceFolder}", "/project") for argument in arguments]
        parsed = build_parser().parse_args(folder)
        assert parsed.command == "mcp"
    assert commands[1][1:] == ["mcp", "--config", "${workspaceFolder}/pyproject.toml"]


def test_the_bounds_named_are_the_limits() -> None:
    for phrase in (
        f"at most {limits.MAX_SEARCH_HITS} hits and {limits.MAX_SEARCH_RESULT_BYTES // 1024} KiB",
        f"`ids` (up to {limits.MAX_DESCRIBE_IDS})",
        f"with up to {limits.MAX_SUGGESTIONS} did-you-mean ids",
        f"a source\nover {limits.MAX_SOURCE_BYTES // 1024} KiB",
        f"longer than {limits.MAX_REFERENCE_SECTION_BYTES // 1024} KiB",
    ):
        assert phrase in DOC, phrase
