"""Running ``emacs -Q --batch`` for the Emacs tests, and its client drivers.

test_emacs.py (eglot) and test_emacs_lsp_mode.py (lsp-mode) both run a
driver (emacs_e2e.el, emacs_lsp_mode_e2e.el, sharing emacs_e2e_harness.el)
against the real ``octoscript-lsp`` on one sample, and read the JSON result
it writes.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.editors.server_program import server_command

REPO = Path(__file__).resolve().parents[2]
MODE_DIR = REPO / "editors" / "emacs"
MODE_FILE = MODE_DIR / "octoscript-mode.el"
EMACS = shutil.which("emacs")
# Debian's Emacs 30 (bookworm-backports), which .ci/run unpacks beside the
# system's Emacs 28 and runs as `emacs-30`.
EMACS_30 = shutil.which("emacs-30")
TIMEOUT = 90

needs_emacs = pytest.mark.skipif(EMACS is None, reason="no emacs (apt-get install emacs-nox)")


@functools.cache
def emacs_major_version(emacs: str) -> int:
    done = subprocess.run(
        [emacs, "-Q", "--batch", "--eval", "(princ emacs-major-version)"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    return int(done.stdout) if done.returncode == 0 and done.stdout.isdigit() else 0


def emacsen() -> dict[str, str]:
    """The Emacsen to run the client tests in, by label (`emacs-28`, `emacs-30`)."""
    found: dict[str, str] = {}
    for emacs in (EMACS, EMACS_30):
        if emacs is not None and (major := emacs_major_version(emacs)):
            found.setdefault(f"emacs-{major}", emacs)
    return found


def treesit_emacs() -> str | None:
    """An Emacs with tree-sitter (29 and later), the newest one found."""
    candidates = [emacs for emacs in (EMACS_30, EMACS) if emacs is not None]
    for emacs in candidates:
        if emacs_major_version(emacs) >= 29:
            return emacs
    return None

LSP_SAMPLE = """use mod.tool
let greeting = "hi"
let out = tool.call("")
let again = greeting
"""
# Non-ASCII text before the code the client types into: an astral character
# (two UTF-16 units, four UTF-8 bytes) and an em dash (three bytes).
UNICODE_SAMPLE = """use mod.tool
let s = "é😀—中"; let x = 1
let y = x + 1
"""
# Appended to it: a warning whose range (the string) follows the same.
UNICODE_WARNING_LINE = 'let o = "😀—"; let r = tool.call("text.nope", "")'



def run_emacs(
    *args: str, cwd: Path, env: dict[str, str] | None = None, emacs: str | None = None
) -> subprocess.CompletedProcess[str]:
    program = emacs or EMACS
    assert program is not None
    return subprocess.run(
        [program, "-Q", "--batch", *args],
        cwd=cwd,
        env={**os.environ, "HOME": str(cwd), **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def elisp_string(text: str | Path) -> str:
    return json.dumps(str(text))  # a JSON string literal is a valid Lisp one here


def run_driver(driver: Path, work: Path, client: str, emacs: str | None = None) -> dict:
    """Run `driver` on a fresh copy of LSP_SAMPLE in `work`/project.

    Returns the driver's results with ``_diagnostics`` (its output and the
    tail of the client's event log) for assertion messages; skips when the
    driver found its client missing.
    """
    project = work / "project"
    project.mkdir()
    sample = project / "sample.octoscript"
    sample.write_text(LSP_SAMPLE, encoding="utf-8")
    unicode_sample = project / "unicode.octoscript"
    unicode_sample.write_text(UNICODE_SAMPLE, encoding="utf-8")
    result_path = work / "result.json"
    events_path = work / "events.log"
    done = run_emacs(
        "-l",
        str(driver),
        cwd=work,
        env={
            "OCTOSCRIPT_EMACS_MODE_DIR": str(MODE_DIR),
            "OCTOSCRIPT_LSP_CMD": str(server_command()),
            "OCTOSCRIPT_TEST_FILE": str(sample),
            "OCTOSCRIPT_TEST_UNICODE_FILE": str(unicode_sample),
            "OCTOSCRIPT_TEST_RESULT": str(result_path),
            "OCTOSCRIPT_TEST_EVENTS": str(events_path),
        },
        emacs=emacs,
    )
    if not result_path.exists():
        pytest.fail(
            f"batch Emacs wrote no result file\nexit code {done.returncode}\n"
            f"stdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
        )
    results = json.loads(result_path.read_text(encoding="utf-8"))
    if "skip" in results:
        pytest.skip(results["skip"])
    events = events_path.read_text(errors="replace") if events_path.exists() else ""
    results["_diagnostics"] = (
        f"server command: {server_command()}\nexit code {done.returncode}\n"
        f"checks:\n{done.stdout}\nstderr:\n{done.stderr[-2000:]}\n"
        f"{client} events (tail):\n{events[-4000:]}"
    )
    return results


def passed(run: dict, check: str) -> bool:
    return run.get(f"check-{check}") is True
