"""The Helix configuration in editors/helix/languages.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

LANGUAGES_TOML = Path(__file__).resolve().parents[2] / "editors" / "helix" / "languages.toml"


@pytest.fixture(scope="module")
def config() -> dict:
    with LANGUAGES_TOML.open("rb") as handle:
        return tomllib.load(handle)


def test_language_server_entry(config: dict) -> None:
    server = config["language-server"]["octoscript"]
    assert server["command"] == "octoscript-lsp"
    assert server.get("args", []) == []
    octoscript = server["config"]["octoscript"]
    assert isinstance(octoscript, dict)
    assert set(octoscript) <= {
        "toolCatalog",
        "moduleCatalog",
        "workflowDataCatalog",
        "workflowDataStepContext",
    }
    for tool in octoscript.get("toolCatalog", []):
        assert set(tool) <= {"name", "format", "description"}
        assert isinstance(tool["name"], str) and tool["name"]
        assert tool["format"] in {"text", "json"}


def test_language_entry(config: dict) -> None:
    languages = [entry for entry in config["language"] if entry["name"] == "octoscript"]
    assert len(languages) == 1
    language = languages[0]
    assert language["scope"] == "source.octoscript"
    assert language["file-types"] == ["octoscript", "octo"]
    assert language["comment-token"] == "//"
    assert language["block-comment-tokens"] == {"start": "/*", "end": "*/"}
    assert language["indent"] == {"tab-width": 4, "unit": "    "}
    assert language["roots"] == []
    assert language["language-servers"] == ["octoscript"]


def test_server_referenced_by_language_is_defined(config: dict) -> None:
    defined = set(config["language-server"])
    for language in config["language"]:
        for server in language.get("language-servers", []):
            name = server if isinstance(server, str) else server["name"]
            assert name in defined


def test_grammar_entry(config: dict) -> None:
    language = next(entry for entry in config["language"] if entry["name"] == "octoscript")
    grammars = [entry for entry in config["grammar"] if entry["name"] == language["grammar"]]
    assert len(grammars) == 1
    source = grammars[0]["source"]
    # No published repository URL: the grammar builds from the user's checkout.
    assert set(source) == {"path"}
    prefix = "/path/to/octoscript-lsp/"
    assert source["path"].startswith(prefix)
    subpath = Path(__file__).resolve().parents[2] / source["path"].removeprefix(prefix)
    # What `hx --grammar build` compiles: the committed generated parser.
    assert (subpath / "src" / "parser.c").is_file()
    assert (subpath / "queries" / "highlights.scm").is_file()
