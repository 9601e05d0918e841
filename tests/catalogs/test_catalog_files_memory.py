"""Review of issue 24: what the store keeps of a catalog file after reading it.

A host's `catalog` output carries dispatch data and schemas the server
ignores (docs/catalogs.md: "they still count towards the file's size").
The store must keep what each file gives, not its decoded JSON: 16 files near
the 1 MiB bound of small JSON values would otherwise hold hundreds of
megabytes although the projections they give are a few kilobytes.
"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

from octoscript_lsp.catalogs.store import CatalogState, CatalogStore
from octoscript_lsp.limits import MAX_CATALOG_FILE_BYTES, MAX_CATALOG_FILES

# What the projections need is tiny; allow generous slack for the parsed catalogs.
RETAINED_BOUND_BYTES = 16 * 1024 * 1024
# A quarter of the files the setting may name keeps the test quick; 16 hold ~360 MB.
FILES = MAX_CATALOG_FILES // 4


def host_catalog(size: int) -> str:
    """One tool whose ignored `dispatch` is as many empty arrays as fit in `size` bytes."""
    head, tail = '[{"name": "text.echo", "format": "text", "dispatch": [', "]}]"
    count = (size - len(head) - len(tail)) // 3
    return head + ",".join(["[]"] * count) + tail


def test_the_store_keeps_the_projections_not_the_files_json(tmp_path: Path):
    text = host_catalog(MAX_CATALOG_FILE_BYTES - 16)
    assert len(text) <= MAX_CATALOG_FILE_BYTES
    names = [f"host{index}.json" for index in range(FILES)]
    for name in names:
        (tmp_path / name).write_text(text, encoding="utf-8")
    store = CatalogStore()
    store.paths.root = str(tmp_path)
    gc.collect()
    tracemalloc.start()
    try:
        store.apply_settings({"octoscript": {"catalogFiles": names}})
        assert store.tools.state is CatalogState.VALID
        gc.collect()
        retained, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert retained < RETAINED_BOUND_BYTES, f"{retained / 1e6:.0f} MB retained"
