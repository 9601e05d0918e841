"""`octoscript mcp`: the tools and reference resources, on the MCP SDK's `MCPServer`.

Each tool is a few lines: refresh the workspace (a changed named file is
read again), answer with answers.py, turn a `Refusal` into the SDK's
`ToolError`, whose message is the only error text the SDK passes on to the
model. Tools are coroutines, so calls run one at a time on the event loop
and never race on the catalog store; an analysis takes milliseconds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp_types import ToolAnnotations
from pydantic import Field

from .. import __version__
from .. import reference as language
from ..cli.inputs import EXIT_OK, EXIT_USAGE, UnreadableInput
from ..cli.project import ConfigError
from ..cli.rules import UnknownRule
from ..limits import (
    MAX_DESCRIBE_ID_BYTES,
    MAX_DESCRIBE_IDS,
    MAX_SCRIPT_PATH_BYTES,
    MAX_SEARCH_HITS,
    MAX_SEARCH_QUERY_BYTES,
    MAX_SECTION_NAME_BYTES,
    MAX_SOURCE_BYTES,
)
from . import answers
from .models import (
    CheckResult,
    DescribeResult,
    FormatResult,
    ReferenceResult,
    ReviewResult,
    SearchResult,
    StatusResult,
)
from .workspace import Origin, Workspace

NAME = "octoscript"
INSTRUCTIONS = """\
Octoscript is a small, bounded scripting language for capability-first workflows. \
These tools look up the host's catalog and check, format and review scripts; none \
runs a script or grants a tool (the host's lease does).

Work in this loop:
1. search: search_tools with a few keywords gives exact ids of catalog tools and \
module members.
2. describe: describe_tools with up to 8 of those ids gives a tool's format, a module \
member's call mode and its input and output fields.
3. write the script; language_reference (also the octoscript://reference/ resources) \
has the statements, std modules, mod.tool methods and grammar.
4. check: check_script gives each problem's code, 1-based position, did-you-mean names \
and fixes.
5. fix: apply the fixes' text edits yourself (nothing is applied for you) and check \
again until no error or warning is left; format_script gives the canonical layout.
6. review: review_tool_calls lists each tool call and how the catalog lists it, for \
the operator's review.

A search or describe answer names any catalog it could not use (`unavailable`, \
`unread_files`); catalog_status says where each came from.
"""

READ_ONLY = ToolAnnotations(
    read_only_hint=True,
    destructive_hint=False,
    idempotent_hint=True,
    open_world_hint=False,
)

Source = Annotated[
    str,
    Field(
        description=f"Octoscript source, at most {MAX_SOURCE_BYTES} bytes of UTF-8",
        json_schema_extra={"maxLength": MAX_SOURCE_BYTES},
    ),
]
Query = Annotated[
    str,
    Field(
        description="keywords; an entry matches when each occurs in its id or description",
        json_schema_extra={"maxLength": MAX_SEARCH_QUERY_BYTES},
    ),
]
Limit = Annotated[int | None, Field(ge=1, le=MAX_SEARCH_HITS, description="most hits wanted")]
Ids = Annotated[
    list[Annotated[str, Field(json_schema_extra={"maxLength": MAX_DESCRIBE_ID_BYTES})]],
    Field(
        description="exact ids from search_tools",
        json_schema_extra={"minItems": 1, "maxItems": MAX_DESCRIBE_IDS},
    ),
]
ScriptPath = Annotated[
    str | None,
    Field(
        description="a name for the script in the answer (never opened)",
        json_schema_extra={"maxLength": MAX_SCRIPT_PATH_BYTES},
    ),
]
Section = Annotated[
    str | None,
    Field(
        description="a section name; omit it for the list of sections",
        json_schema_extra={"maxLength": MAX_SECTION_NAME_BYTES},
    ),
]


def _answer(workspace: Workspace, build: Callable[[], dict[str, Any]]) -> Any:
    """`build`'s answer (the SDK checks it against the tool's model) after a refresh."""
    workspace.refresh()
    try:
        return build()
    except answers.Refusal as refusal:
        raise ToolError(str(refusal)) from refusal


def _add_tools(server: MCPServer, workspace: Workspace) -> None:
    def tool(description: str) -> Callable[[Any], Any]:
        return server.tool(description=description, annotations=READ_ONLY, structured_output=True)

    @tool(
        f"Find catalog tools and module members by keywords: at most {MAX_SEARCH_HITS} hits, "
        "best first, each an exact id with its format or call mode and a short summary "
        "(never a schema). A discarded catalog or unread file is named (unavailable, "
        "unread_files), never searched; "
        "refused when neither the tool nor the module catalog is valid."
    )
    async def search_tools(query: Query, limit: Limit = None) -> SearchResult:
        return _answer(workspace, lambda: answers.search(workspace, query, limit))

    @tool(
        f"What the catalog holds for up to {MAX_DESCRIBE_IDS} exact ids: a tool's format and "
        "description; a module member's call mode, call shape, input and output fields. "
        "An unknown id is listed under not_found with up to three did-you-mean ids, or under "
        "unresolved when a discarded catalog (named under unavailable) might list it."
    )
    async def describe_tools(ids: Ids) -> DescribeResult:
        return _answer(workspace, lambda: answers.describe(workspace, ids))

    @tool(
        "Check Octoscript source as `octoscript check` does: each diagnostic's code, "
        "severity, message, 1-based line and column with their ends, did-you-mean names and "
        "fixes as text edits (not applied), against the configured catalogs."
    )
    async def check_script(source: Source, path: ScriptPath = None) -> CheckResult:
        return _answer(workspace, lambda: answers.check(workspace, source, path))

    @tool(
        "Format Octoscript source in canonical layout (what `octoscript format -` prints); "
        "refused, naming the first syntax error, when the source is not valid."
    )
    async def format_script(source: Source) -> FormatResult:
        return _answer(workspace, lambda: answers.format_source(source))

    @tool(
        "List the tool calls a script makes (the `octoscript tool-calls` review), each with "
        "its catalog standing: listed, unlisted, format-mismatch, dynamic or unknown (no "
        "catalog). Advisory: it grants nothing."
    )
    async def review_tool_calls(source: Source) -> ReviewResult:
        return _answer(workspace, lambda: answers.review(workspace, source))

    @tool(
        "Each catalog projection's state (valid, discarded, cleared, absent), source file, "
        "entries, fingerprint and reason, and the catalog files read."
    )
    async def catalog_status() -> StatusResult:
        return _answer(workspace, lambda: answers.status(workspace))

    @tool(
        "The Octoscript language reference: without a section, the list of sections; with "
        "one, that section's text (statements, std modules, tool methods, grammar, limits)."
    )
    async def language_reference(section: Section = None) -> ReferenceResult:
        return _answer(workspace, lambda: answers.reference(section))


def _add_reference(server: MCPServer) -> None:
    for name in language.section_names():

        async def read(name: str = name) -> str:
            return language.section(name) or ""

        server.add_resource(
            FunctionResource(
                uri=f"{language.REFERENCE_URI_PREFIX}{name}",
                name=name,
                title=f"Octoscript reference: {name}",
                mime_type="text/markdown",
                fn=read,
            )
        )


def build_server(workspace: Workspace) -> MCPServer:
    server: MCPServer = MCPServer(
        NAME,
        title="Octoscript",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    _add_tools(server, workspace)
    _add_reference(server)
    return server


def serve(origin: Origin) -> int:
    """Load the workspace (reporting what `check` would) and serve on stdio."""
    workspace = Workspace(origin)
    try:
        workspace.load()
    except (ConfigError, UnreadableInput, UnknownRule) as error:
        sys.stderr.write(f"octoscript: {error}\n")
        return EXIT_USAGE
    build_server(workspace).run("stdio")
    return EXIT_OK
