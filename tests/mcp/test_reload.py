"""A named file that changes on disk is read again before the next call answers."""

from __future__ import annotations

import os

from .helpers import TOOLS, call, connected, refused, settings_file, workspace, write_json


def _rewrite(path, value) -> None:
    """A new file in place of the old (as editors and hosts save), so its identity changes."""
    fresh = path.with_suffix(".new")
    write_json(fresh, value)
    os.replace(fresh, path)


async def test_a_rewritten_catalog_file_is_read_again(tmp_path):
    settings = settings_file(tmp_path, tools=TOOLS, modules=None)
    catalog = tmp_path / "catalog.json"
    async with connected(workspace(settings)) as client:
        before = await call(client, "search_tools", query="weather")
        assert before["hits"] == []
        added = [*TOOLS, {"name": "weather.now", "format": "json", "description": "Weather."}]
        _rewrite(catalog, {"toolCatalog": added})
        after = await call(client, "search_tools", query="weather")
        assert [hit["id"] for hit in after["hits"]] == ["weather.now"]
        assert after["fingerprints"]["toolCatalog"] != before["fingerprints"]["toolCatalog"]
        assert after["generation"] == before["generation"] + 1
        checked = await call(client, "check_script", source='tool.call_json("weather.now", {})\n')
        assert checked["diagnostics"] == []
        # Broken on disk: refused with its reason, never the old catalog.
        catalog.write_text("{not json", encoding="utf-8")
        message = await refused(client, "search_tools", query="weather")
        assert "toolCatalog was discarded" in message
        _rewrite(catalog, {"toolCatalog": TOOLS})
        assert (await call(client, "search_tools", query="weather"))["hits"] == []


async def test_an_unchanged_file_is_not_read_again(tmp_path):
    settings = settings_file(tmp_path, tools=TOOLS, modules=None)
    space = workspace(settings)
    async with connected(space) as client:
        first = await call(client, "catalog_status")
        revision = space.catalogs.revision
        second = await call(client, "catalog_status")
    assert first == second and space.catalogs.revision == revision


async def test_a_rewritten_settings_file_is_read_again(tmp_path):
    settings = settings_file(tmp_path, tools=TOOLS, modules=None)
    write_json(tmp_path / "other.json", {"toolCatalog": [{"name": "other.tool", "format": "text"}]})
    async with connected(workspace(settings)) as client:
        _rewrite(settings, {"catalogFiles": ["other.json"]})
        found = await call(client, "search_tools", query="tool")
        assert [hit["id"] for hit in found["hits"]] == ["other.tool"]
        settings.unlink()
        message = await refused(client, "search_tools", query="tool")
        assert message.startswith("Error executing tool search_tools: the catalogs cannot be read")
        assert (await call(client, "catalog_status"))["error"].startswith("cannot read")
        _rewrite(settings, {"catalogFiles": ["catalog.json"]})
        found = await call(client, "search_tools", query="echo")
        assert [hit["id"] for hit in found["hits"]] == ["text.echo"]


async def test_a_rewritten_project_configuration_is_read_again(tmp_path):
    settings_file(tmp_path, tools=TOOLS, modules=None)
    write_json(tmp_path / "other.json", {"toolCatalog": [{"name": "other.tool", "format": "text"}]})
    config = tmp_path / "octoscript.toml"
    config.write_text('catalogFiles = ["catalog.json"]\n', encoding="utf-8")
    async with connected(workspace(directory=tmp_path)) as client:
        assert (await call(client, "search_tools", query="echo"))["hits"]
        fresh = tmp_path / "new.toml"
        fresh.write_text('catalogFiles = ["other.json"]\nignore = ["unlisted"]\n', encoding="utf-8")
        os.replace(fresh, config)
        assert (await call(client, "search_tools", query="echo"))["hits"] == []
        checked = await call(client, "check_script", source='tool.call("text.echo", "x")\n')
        assert checked["diagnostics"] == []  # `ignore` from the new configuration
        status = await call(client, "catalog_status")
        assert status["configuration"] == str(config)


async def test_a_found_configuration_that_goes_and_comes_back_is_read_again(tmp_path):
    settings_file(tmp_path, tools=TOOLS, modules=None)
    config = tmp_path / "octoscript.toml"
    config.write_text('catalogFiles = ["catalog.json"]\n', encoding="utf-8")
    async with connected(workspace(directory=tmp_path)) as client:
        assert (await call(client, "search_tools", query="echo"))["hits"]
        config.unlink()
        config.mkdir()  # no longer a configuration: as `check` finds none, none applies
        assert "no catalog is configured" in await refused(client, "search_tools", query="echo")
        assert (await call(client, "catalog_status"))["configuration"] is None
        config.rmdir()
        config.write_text("catalogFiles = [\n", encoding="utf-8")
        status = await call(client, "catalog_status")
        assert status["error"].startswith(f"{config}:")
        config.write_text('catalogFiles = ["catalog.json"]\n', encoding="utf-8")
        found = await call(client, "search_tools", query="echo")
        assert [hit["id"] for hit in found["hits"]] == ["text.echo"]


async def test_a_settings_file_swapped_for_a_fifo_is_refused_not_waited_on(tmp_path):
    settings = settings_file(tmp_path, tools=TOOLS, modules=None)
    async with connected(workspace(settings)) as client:
        assert (await call(client, "search_tools", query="echo"))["hits"]
        settings.unlink()
        os.mkfifo(settings)
        message = await refused(client, "search_tools", query="echo")
        assert message.endswith(f"cannot read {settings}: not a regular file (a FIFO)")
        settings.unlink()
        _rewrite(settings, {"catalogFiles": ["catalog.json"]})
        assert (await call(client, "search_tools", query="echo"))["hits"]
