#!/usr/bin/env bash
# `octoscript mcp` through a client nobody here wrote: the MCP Inspector's
# command line, from the npm registry (pinned). In examples/project, so the
# server takes the project's catalogs; it lists the tools, then checks
# flows/typo.octoscript and searches the catalog. Exits non-zero when an
# answer is not the expected one. OCTOSCRIPT names the program (default:
# the one on PATH).
set -euo pipefail
cd "$(dirname "$0")/../examples/project"
INSPECTOR="@modelcontextprotocol/inspector@2.12.0"
OCTOSCRIPT="${OCTOSCRIPT:-octoscript}"
PYTHON="${PYTHON:-python3}"

inspect() {
    npx --yes --loglevel=error "$INSPECTOR" --cli "$OCTOSCRIPT" mcp "$@"
}

listed=$(inspect --method tools/list)
"$PYTHON" -c '
import json, sys
names = {tool["name"] for tool in json.loads(sys.argv[1])["tools"]}
want = {"search_tools", "describe_tools", "check_script", "format_script",
        "review_tool_calls", "catalog_status", "language_reference"}
assert names == want, names
' "$listed"

checked=$(inspect --method tools/call --tool-name check_script \
    --tool-arg "source=$(cat flows/typo.octoscript)")
"$PYTHON" -c '
import json, sys
(found,) = json.loads(sys.argv[1])["structuredContent"]["diagnostics"]
assert found["code"] == "unlisted-tool" and found["did_you_mean"] == ["text.echo"], found
assert found["fixes"][0]["edits"][0]["new_text"] == "\"text.echo\"", found
' "$checked"

searched=$(inspect --method tools/call --tool-name search_tools --tool-arg query=weather)
"$PYTHON" -c '
import json, sys
hits = json.loads(sys.argv[1])["structuredContent"]["hits"]
assert [hit["id"] for hit in hits] == ["mod.app.weather", "mod.app.weather.current"], hits
' "$searched"
echo "mcp-inspector: tools/list and tools/call answered as expected"
