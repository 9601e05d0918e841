"""lsp-mode with the client editors/emacs/octoscript-mode.el registers, in a real Emacs.

Debian 12's Emacs 28.2 and ``elpa-lsp-mode`` (lsp-mode 8.0.0; ``.ci/run``
installs both) in ``emacs -Q --batch``; skipped without ``emacs`` on PATH or
without lsp-mode:

- the mode byte-compiles with warnings as errors with lsp-mode and eglot
  loaded (test_emacs.py compiles it without them);
- loading lsp-mode registers the client, whether the file was required
  before or only its package autoloads were read;
- one Emacs session (``emacs_lsp_mode_e2e.el``) opens the sample, starts
  lsp-mode with no client definition of its own and checks start-up,
  diagnostics (Flymake and lsp-mode's store), completion, hover,
  ``lsp-format-buffer``, ``lsp-rename``, catalogs from ``octoscript-catalogs``
  and from lsp-mode's custom settings, ``octoscript-send-settings``, a
  catalog file, ``octoscript-reload-catalogs`` and lsp-mode's watching of
  the file; each test below judges one of them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from octoscript_lsp.syntax.check import format_source
from tests.editors.emacs_batch import (
    MODE_FILE,
    elisp_string,
    needs_emacs,
    passed,
    run_driver,
    run_emacs,
)

DRIVER = Path(__file__).resolve().parent / "emacs_lsp_mode_e2e.el"
ELPA = Path("/usr/share/emacs/site-lisp/elpa")

# Drives a real editor: run by `pytest -m editors` (tests/conftest.py).
pytestmark = [pytest.mark.editors, needs_emacs]

WITH_CLIENTS_LOADED = """(progn
  (dolist (dir (file-expand-wildcards "{elpa}/*"))
    (add-to-list 'load-path dir))
  (unless (require 'lsp-mode nil t)
    (princ "no lsp-mode")
    (kill-emacs 0))
  (require 'eglot nil t)
  (setq byte-compile-error-on-warn t))"""


def test_byte_compiles_without_warnings_with_lsp_mode_loaded(tmp_path: Path) -> None:
    shutil.copy(MODE_FILE, tmp_path)
    done = run_emacs(
        "-L",
        ".",
        "--eval",
        WITH_CLIENTS_LOADED.format(elpa=ELPA),
        "-f",
        "batch-byte-compile",
        MODE_FILE.name,
        cwd=tmp_path,
    )
    if done.stdout == "no lsp-mode":
        pytest.skip("lsp-mode is not installed (apt-get install elpa-lsp-mode)")
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "Error" not in done.stderr, done.stderr
    assert (tmp_path / "octoscript-mode.elc").stat().st_size > 0


REGISTRATION = """(progn
  (dolist (dir (file-expand-wildcards "{elpa}/*"))
    (add-to-list 'load-path dir))
  (add-to-list 'load-path {mode_dir})
  {load_mode}
  (princ (format "before: %S\\n" (featurep 'octoscript-mode)))
  (unless (require 'lsp-mode nil t)
    (princ "no lsp-mode")
    (kill-emacs 0))
  (princ (format "client: %S\\n" (and (gethash 'octoscript-lsp lsp-clients) t)))
  (dolist (mode '(octoscript-mode octoscript-ts-mode))
    (princ (format "%S\\n" (assq mode lsp-language-id-configuration)))))"""

LOAD_MODE = {
    # As a package: only the generated autoloads are read at start-up.
    "autoloads": "(progn (make-directory-autoloads default-directory "
    '"octoscript-mode-autoloads.el") (load (expand-file-name "octoscript-mode-autoloads.el")))',
    # As in the README: the file is required before lsp-mode loads.
    "required": "(require 'octoscript-mode)",
}


@pytest.mark.parametrize(("how", "loaded_before"), [("autoloads", "nil"), ("required", "t")])
def test_loading_lsp_mode_registers_the_client(
    tmp_path: Path, how: str, loaded_before: str
) -> None:
    shutil.copy(MODE_FILE, tmp_path)
    program = REGISTRATION.format(
        elpa=ELPA, mode_dir=elisp_string(tmp_path), load_mode=LOAD_MODE[how]
    )
    done = run_emacs("--eval", program, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    if done.stdout.endswith("no lsp-mode"):
        pytest.skip("lsp-mode is not installed (apt-get install elpa-lsp-mode)")
    assert done.stdout.splitlines() == [
        f"before: {loaded_before}",
        "client: t",
        '(octoscript-mode . "octoscript")',
        '(octoscript-ts-mode . "octoscript")',
    ], done.stderr


@pytest.fixture(scope="module")
def lsp_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return run_driver(DRIVER, tmp_path_factory.mktemp("emacs-lsp-mode"), "lsp-mode")


def test_opening_a_file_starts_the_registered_client(lsp_run: dict) -> None:
    assert lsp_run["major-mode"] == "octoscript-mode", lsp_run["_diagnostics"]
    assert passed(lsp_run, "lsp-initialized"), lsp_run["_diagnostics"]
    assert lsp_run["server-id"] == "octoscript-lsp"
    assert lsp_run["language-id"] == "octoscript"
    # The root came from project.el (lsp-auto-guess-root), not a prompt.
    assert Path(lsp_run["root"]).name == "project"


def test_flymake_and_lsp_mode_show_the_syntax_error_once(lsp_run: dict) -> None:
    assert lsp_run.get("initial-diagnostics") == [], lsp_run["_diagnostics"]
    line = lsp_run.get("error-line")
    diagnostics = lsp_run.get("diagnostics-after-edit")
    assert diagnostics is not None and len(diagnostics) == 1, lsp_run["_diagnostics"]
    found_line, kind, message = diagnostics[0]
    assert (found_line, kind) == (line, ":error")
    assert message == "expected a newline or `;` after a statement"
    # lsp-mode's own store holds the same single error (severity 1).
    assert lsp_run.get("stored-diagnostics") == [[line, 1, message]]
    assert passed(lsp_run, "flymake-syntax-error-once")
    assert lsp_run.get("diagnostics-after-fix") == [], lsp_run["_diagnostics"]


def test_completion_at_point_offers_the_binding(lsp_run: dict) -> None:
    assert lsp_run.get("binding-completions") == ["greeting"], lsp_run["_diagnostics"]
    assert lsp_run.get("completed-line") == "let copy = greeting"
    assert passed(lsp_run, "binding-completion")


def test_catalog_from_custom_settings_completes_tool_names(lsp_run: dict) -> None:
    # Registered with `lsp-register-custom-settings' as octoscript.toolCatalog
    # and sent by the client's :initialized-fn.
    assert lsp_run.get("tool-completions") == ["text.echo"], lsp_run["_diagnostics"]
    assert passed(lsp_run, "catalog-tool-completion")


def test_catalog_from_octoscript_catalogs_reaches_initialization_options(
    lsp_run: dict,
) -> None:
    # Only `octoscript-catalogs' has a module catalog.
    assert lsp_run.get("module-completions") == ["weather"], lsp_run["_diagnostics"]
    assert passed(lsp_run, "init-options-module-completion")


def test_describe_thing_at_point_shows_hover_text(lsp_run: dict) -> None:
    assert lsp_run.get("hover") == "(binding) greeting", lsp_run["_diagnostics"]
    assert passed(lsp_run, "hover")


def test_lsp_format_buffer_formats(lsp_run: dict) -> None:
    before = lsp_run.get("before-format")
    assert before is not None and "fn   twice(n){\nreturn n*2\n}" in before
    assert lsp_run.get("after-format") == format_source(before), lsp_run["_diagnostics"]
    assert passed(lsp_run, "format-buffer")


def test_lsp_rename_renames(lsp_run: dict) -> None:
    after = lsp_run.get("after-rename")
    assert after is not None, lsp_run["_diagnostics"]
    assert after == format_source(lsp_run["before-format"]).replace("greeting", "salutation")
    assert after.count("salutation") == 3
    assert passed(lsp_run, "rename")


def test_send_settings_delivers_a_changed_catalog(lsp_run: dict) -> None:
    assert lsp_run.get("sent-completions") == ["text.sent"], lsp_run["_diagnostics"]
    assert passed(lsp_run, "send-settings")


def test_a_catalog_file_from_the_settings_is_read_and_reloaded(lsp_run: dict) -> None:
    assert passed(lsp_run, "restarted"), lsp_run["_diagnostics"]
    assert lsp_run.get("file-completions") == ["text.file"], lsp_run["_diagnostics"]
    assert sorted(lsp_run.get("reloaded-completions") or []) == ["text.file", "text.later"]
    assert passed(lsp_run, "catalog-file") and passed(lsp_run, "catalog-file-reload")


def test_lsp_mode_watches_the_catalog_file_for_the_server(lsp_run: dict) -> None:
    # The file is rewritten after the reload; only a watch notification
    # can have brought the new tool.
    assert lsp_run.get("watched-completions") == ["text.watched"], lsp_run["_diagnostics"]
    assert passed(lsp_run, "catalog-file-watched")


def test_every_check_passed(lsp_run: dict) -> None:
    assert lsp_run.get("failures") == 0, lsp_run["_diagnostics"]
    assert "driver-error" not in lsp_run, lsp_run["_diagnostics"]
