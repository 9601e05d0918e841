"""`mcp/answers.py` and `mcp/workspace.py` load neither the MCP SDK nor the LSP's modules."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_answers_import_no_sdk_and_no_protocol():
    code = (
        "import json, sys\n"
        "import octoscript_lsp.mcp.answers, octoscript_lsp.mcp.workspace\n"
        "print(json.dumps(sorted(n for n in ('mcp', 'pydantic', 'lsprotocol', 'pygls')"
        " if n in sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, check=True
    )
    assert json.loads(result.stdout) == []
