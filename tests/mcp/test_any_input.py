"""Any text: each source tool answers or refuses with a reason, never crashes."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octoscript_lsp.mcp import answers

from .helpers import settings_file, workspace

PIECES = st.sampled_from(
    [
        "let ",
        "fn ",
        "use mod.tool\n",
        "use mod.app.weather\n",
        "tool.call(",
        "tool.call_json(",
        '"text.echo"',
        '"text.ecko"',
        "weather.current({",
        "location: ",
        "}",
        ")",
        "{",
        "[",
        "]",
        ",",
        "\n",
        "'",
        '"',
        "var ",
        "x",
        " = ",
        "1",
        ".await()",
        "try {",
        "} catch {",
        "|a| a",
        "\ud800",
        "\u00e9",
        "\r\n",
        "// octoscript: ignore\n",
        "\x00",
    ]
)
TEXT = st.lists(PIECES, max_size=40).map("".join) | st.text(max_size=200)
SPACE = workspace(settings_file(Path(tempfile.mkdtemp())))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_source_tools_answer_or_refuse(text):
    for tool in (
        lambda: answers.check(SPACE, text, None),
        lambda: answers.format_source(text),
        lambda: answers.review(SPACE, text),
    ):
        try:
            answer = tool()
        except answers.Refusal as refusal:
            assert str(refusal)
        else:
            assert isinstance(answer, dict)
