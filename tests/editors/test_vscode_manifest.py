"""The VS Code extension manifest in editors/vscode/package.json (no npm needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
CATALOG_SETTINGS = {
    "octoscript.toolCatalog": ["array", "null"],
    "octoscript.moduleCatalog": ["array", "null"],
    "octoscript.workflowDataCatalog": ["object", "null"],
    "octoscript.workflowDataStepContext": ["object", "null"],
}


@pytest.fixture(scope="module")
def manifest() -> dict:
    return json.loads((EXTENSION / "package.json").read_text())


def test_language_contribution(manifest: dict) -> None:
    languages = manifest["contributes"]["languages"]
    (language,) = [entry for entry in languages if entry["id"] == "octoscript"]
    assert language["extensions"] == [".octoscript", ".octo"]
    configuration = EXTENSION / language["configuration"]
    assert configuration.is_file()
    language_configuration = json.loads(configuration.read_text())
    assert language_configuration["comments"] == {
        "lineComment": "//",
        "blockComment": ["/*", "*/"],
    }
    assert ["{", "}"] in language_configuration["brackets"]
    assert "indentationRules" in language_configuration
    assert "onLanguage:octoscript" in manifest.get("activationEvents", ["onLanguage:octoscript"])


def test_grammar_contribution(manifest: dict) -> None:
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["language"] == "octoscript"
    assert grammar["scopeName"] == "source.octoscript"
    assert grammar["path"] == "./syntaxes/octoscript.tmLanguage.json"
    # syntaxes/ is generated from the repository grammar at package time.
    assert "sync-grammar" in manifest["scripts"]["compile"]
    assert "compile" in manifest["scripts"]["vscode:prepublish"]
    sync = (EXTENSION / "scripts" / "sync-grammar.js").read_text()
    assert "octoscript.tmLanguage.json" in sync
    assert (REPO / "grammar" / "octoscript.tmLanguage.json").is_file()


def test_settings_contribution(manifest: dict) -> None:
    properties = manifest["contributes"]["configuration"]["properties"]
    import jsonschema

    assert properties["octoscript.server.path"]["type"] == "string"
    # Empty: the bundled server (src/extension.ts chooseLaunch).
    assert properties["octoscript.server.path"]["default"] == ""
    assert properties["octoscript.interpreter"]["type"] == "string"
    files = properties["octoscript.catalogFiles"]
    assert files["default"] == []
    jsonschema.validate(["host.json", "~/catalogs/tools.json"], files)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("host.json", files)
    import jsonschema

    for key in CATALOG_SETTINGS:
        assert key in properties, key
        assert properties[key]["default"] is None, key
        # The setting accepts null (cleared) and rejects a plain string.
        jsonschema.validate(None, properties[key])
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate("not a catalog", properties[key])


def test_client_forwards_catalogs() -> None:
    source = "\n".join(path.read_text() for path in sorted((EXTENSION / "src").glob("*.ts")))
    for key in CATALOG_SETTINGS:
        assert f'"{key.split(".", 1)[1]}"' in source
    assert 'CATALOG_FILES = "catalogFiles"' in source
    assert "initializationOptions" in source
    assert "DidChangeConfigurationNotification" in source
    assert "vscode-languageclient/node" in source


def test_package_metadata(manifest: dict) -> None:
    assert manifest["license"] == "MIT"
    # No repository until the project has a public one (no placeholder URL).
    assert "repository" not in manifest
    packaging = (EXTENSION / "scripts" / "package.js").read_text()
    assert "--allow-missing-repository" in packaging


def test_server_path_scope_and_trust(manifest: dict) -> None:
    properties = manifest["contributes"]["configuration"]["properties"]
    # Window scope (the default): User settings apply in remote windows too,
    # which machine-overridable would drop (src/settings.ts, docs/editors.md).
    assert properties["octoscript.server.path"].get("scope", "window") == "window"
    untrusted = manifest["capabilities"]["untrustedWorkspaces"]
    assert untrusted["supported"] == "limited"
    # Each names something to run or to read.
    assert set(untrusted["restrictedConfigurations"]) == {
        "octoscript.server.path",
        "octoscript.server.args",
        "octoscript.interpreter",
        "octoscript.catalogFiles",
    }


def test_commands(manifest: dict) -> None:
    titles = {
        command["command"]: f"{command['category']}: {command['title']}"
        for command in manifest["contributes"]["commands"]
    }
    assert titles == {
        "octoscript.restartServer": "Octoscript: Restart Language Server",
        "octoscript.insertToolCall": "Octoscript: Insert Tool Call...",
        "octoscript.catalogs.reload": "Octoscript: Reload Catalogs",
        "octoscript.showCatalogStatus": "Octoscript: Show Catalog Status",
    }
    # Not the server's command id: vscode-languageclient registers that one.
    assert "octoscript.reloadCatalogs" not in titles


def test_package_is_a_bundle(manifest: dict) -> None:
    scripts = manifest["scripts"]
    assert manifest["main"] == "./out/extension.js"
    assert "esbuild" in scripts["bundle"] and "--external:vscode" in scripts["bundle"]
    # node_modules stay out of the .vsix; package.js bundles the server and
    # runs check-vsix.js (<= 20 own files, the bundled modules, < 10 MiB).
    assert scripts["package"] == "node scripts/package.js"
    assert scripts["package:all"] == "node scripts/package.js --all"
    packaging = (EXTENSION / "scripts" / "package.js").read_text()
    assert "--no-dependencies" in packaging and "check-vsix.js" in packaging
    assert "--target" in packaging and "bundle_server.py" in packaging
    ignore = (EXTENSION / ".vscodeignore").read_text().splitlines()
    assert "**" in ignore and "!out/extension.js" in ignore and "!bundled/libs/**" in ignore
    assert manifest["publisher"]
    assert manifest["engines"]["vscode"]
    assert manifest["main"] == "./out/extension.js"
    assert (EXTENSION / "package-lock.json").is_file()
    assert (EXTENSION / "LICENSE").is_file()
    scripts = manifest["scripts"]
    assert "vscode-tmgrammar-test" in scripts["test"]
    assert "npm run unit" in scripts["test"]
    assert "../../grammar/tests" in scripts["test"]


def test_catalog_settings_use_the_published_schema():
    import importlib.util

    script = REPO / "editors" / "vscode" / "scripts" / "sync_settings_schema.py"
    spec = importlib.util.spec_from_file_location("sync_settings_schema", script)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    manifest = json.loads((REPO / "editors" / "vscode" / "package.json").read_text())
    properties = manifest["contributes"]["configuration"]["properties"]
    for key, subschema in module.setting_schemas().items():
        setting = {
            name: value
            for name, value in properties[f"octoscript.{key}"].items()
            if name not in module.EDITOR_ONLY
        }
        assert setting == {k: v for k, v in subschema.items() if k not in module.EDITOR_ONLY}


def test_server_commands_are_left_to_the_language_client(manifest: dict) -> None:
    """vscode-languageclient registers every command of the server's
    executeCommandProvider (the lenses' `octoscript.showToolCall` among them)
    as a VS Code command; the extension registering or contributing one too
    would fail at start or offer it without its argument."""
    from octoscript_lsp.features.tool_calls import SHOW_TOOL_CALL_COMMAND
    from octoscript_lsp.server import server

    served = set(server.protocol.fm.commands)
    assert SHOW_TOOL_CALL_COMMAND in served
    sources = "\n".join(path.read_text() for path in sorted((EXTENSION / "src").glob("*.ts")))
    contributed = {entry["command"] for entry in manifest["contributes"]["commands"]}
    for command in served:
        assert f'registerCommand("{command}"' not in sources, command
        assert command not in contributed, command
