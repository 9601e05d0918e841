"""`catalog check FILE` and the server judge a catalog file alike.

A host checks the file it wrote with `octoscript catalog check FILE`, then
names the same file in `catalogFiles`. Both read it as `initializationOptions`
are read (a workflow catalog may come alone, `null` is malformed) and both
refuse a file over MAX_CATALOG_FILE_BYTES.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from octoscript_lsp.cli.catalog import load_catalogs
from octoscript_lsp.cli.inputs import UnreadableInput
from octoscript_lsp.limits import MAX_CATALOG_FILE_BYTES

WORKFLOW = {"inputFields": [], "outputs": [{"stepId": "a", "fields": []}]}
# A host's `catalog` output: few tools, large schemas (ignored, but counted in the size).
BIG_HOST_ARRAY = [
    {"name": f"t{index}", "format": "text", "inputSchema": {"description": "x" * 20_000}}
    for index in range(100)
]


def verdicts(folder: Path, content: dict | list) -> tuple[str, str]:
    """(state `catalog check FILE` gives, state the same file gives through catalogFiles)."""
    catalog = folder / "catalog.json"
    catalog.write_text(json.dumps(content), encoding="utf-8")
    settings = folder / "settings.json"
    settings.write_text(json.dumps({"catalogFiles": ["catalog.json"]}), encoding="utf-8")
    direct = load_catalogs(str(catalog)).status()
    named = load_catalogs(str(settings)).status()
    name = "workflowData" if "workflowDataCatalog" in content else "toolCatalog"
    return direct[name]["state"], named[name]["state"]


@pytest.mark.parametrize(
    ("content", "state"),
    [({"workflowDataCatalog": WORKFLOW}, "valid"), ({"toolCatalog": None}, "discarded")],
    ids=["workflow catalog alone", "null tool catalog"],
)
def test_catalog_check_judges_a_file_as_the_server_reads_it(tmp_path: Path, content, state):
    assert verdicts(tmp_path, content) == (state, state)


def test_both_refuse_a_file_over_the_bound(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps(BIG_HOST_ARRAY), encoding="utf-8")
    with pytest.raises(UnreadableInput, match=f"larger than {MAX_CATALOG_FILE_BYTES} bytes"):
        load_catalogs(str(catalog))
    reason = f"larger than {MAX_CATALOG_FILE_BYTES} bytes"
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"catalogFiles": ["catalog.json"]}), encoding="utf-8")
    [entry] = load_catalogs(str(settings)).status()["catalogFiles"]
    assert (entry["ok"], entry["reason"]) == (False, reason)
