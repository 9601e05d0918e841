"""eglot runs the fix-all action on save as docs/editors.md shows, in a real Emacs.

`emacs_fix_all.el` defines `octoscript-fix-all` as the docs give it, hangs it
on `before-save-hook`, edits and saves: the file on disk is then what
`octoscript check --fix` writes; a second edit and save, with nothing left
to fix, still saves.
Runs in each Emacs found (`emacs`, and `emacs-30` where CI unpacks it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_end_to_end import run
from tests.editors.emacs_batch import MODE_DIR, emacsen, needs_emacs, run_emacs
from tests.editors.server_program import server_command

DRIVER = Path(__file__).resolve().parent / "emacs_fix_all.el"
SOURCE = "use mod.tool\nvar greeting = 'hello'\nlet r = tool.call(\"text.ecko\", greeting,)\n"
SETTINGS = {"toolCatalog": [{"name": "text.echo", "format": "text", "description": "Echo."}]}

pytestmark = needs_emacs


@pytest.mark.parametrize("label", sorted(emacsen()))
def test_fix_all_on_save_with_eglot(tmp_path: Path, label: str) -> None:
    (tmp_path / "host.json").write_text(json.dumps(SETTINGS))
    # What the file holds at the first save: the sample and the driver's first line.
    (tmp_path / "checked.octoscript").write_text(SOURCE + "let more = 1\n")
    run("check", "--settings", "host.json", "--fix", "checked.octoscript", cwd=tmp_path)
    expected = (tmp_path / "checked.octoscript").read_text()
    assert expected != SOURCE
    project = tmp_path / "project"
    project.mkdir()
    sample = project / "sample.octoscript"
    sample.write_text(SOURCE)
    result_path = tmp_path / "result.json"
    done = run_emacs(
        "-l",
        str(DRIVER),
        cwd=tmp_path,
        env={
            "OCTOSCRIPT_EMACS_MODE_DIR": str(MODE_DIR),
            "OCTOSCRIPT_LSP_CMD": str(server_command()),
            "OCTOSCRIPT_TEST_FILE": str(sample),
            "OCTOSCRIPT_TEST_RESULT": str(result_path),
            "OCTOSCRIPT_TEST_EVENTS": str(tmp_path / "events.log"),
        },
        emacs=emacsen()[label],
    )
    assert result_path.exists(), done.stderr[-3000:]
    results = json.loads(result_path.read_text())
    if "skip" in results:
        pytest.skip(results["skip"])
    detail = f"{done.stdout}\n{done.stderr[-3000:]}"
    assert results.get("driver-error") is None, detail
    assert results["saved"] == expected, detail
    assert results["check-save-fixes"] is True and results["check-save-clean"] is True, detail
    assert results["final"] == expected + "let again = 2\n"
