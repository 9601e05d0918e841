"""The Emacs mode in editors/emacs, checked in a real Emacs.

Everything runs ``emacs -Q --batch`` (Debian 12's Emacs 28.2; ``.ci/run``
installs ``emacs-nox`` and ``elpa-eglot``) and is skipped when there is no
``emacs`` on PATH:

- the file byte-compiles with warnings as errors, and checkdoc finds nothing;
- font-lock gives known faces at known places of a sample;
- indenting a flattened file gives the formatter's indentation;
- one Emacs session (``emacs_e2e.el``) drives eglot against the real
  ``octoscript-lsp`` next to the running interpreter and checks start-up,
  Flymake, completion, eldoc hover, formatting, renaming, a catalog from
  ``eglot-workspace-configuration`` and one from ``octoscript-catalogs``;
  each test below judges one of them.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from octoscript_lsp.syntax.check import format_source
from tests.editors.emacs_batch import (
    MODE_DIR,
    MODE_FILE,
    UNICODE_SAMPLE,
    UNICODE_WARNING_LINE,
    elisp_string,
    emacsen,
    needs_emacs,
    passed,
    run_driver,
    run_emacs,
)

DRIVER = Path(__file__).resolve().parent / "emacs_e2e.el"

# Drives a real editor: run by `pytest -m editors` (tests/conftest.py).
pytestmark = [pytest.mark.editors, needs_emacs]


# Byte compilation and checkdoc ------------------------------------------------


def test_byte_compiles_without_warnings(tmp_path: Path) -> None:
    shutil.copy(MODE_FILE, tmp_path)
    done = run_emacs(
        "-L",
        ".",
        "--eval",
        "(setq byte-compile-error-on-warn t)",
        "-f",
        "batch-byte-compile",
        MODE_FILE.name,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "Error" not in done.stderr, done.stderr
    assert (tmp_path / "octoscript-mode.elc").stat().st_size > 0


CHECKDOC = """(progn
  (require 'checkdoc)
  (setq checkdoc-diagnostic-buffer "*checkdoc*")
  (checkdoc-file {file})
  (when (get-buffer "*checkdoc*")
    (with-current-buffer "*checkdoc*" (princ (buffer-string)))))"""


def _checkdoc(tmp_path: Path, source: Path) -> str:
    done = run_emacs("--eval", CHECKDOC.format(file=elisp_string(source)), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_checkdoc_clean(tmp_path: Path) -> None:
    shutil.copy(MODE_FILE, tmp_path)
    found = re.findall(
        r"octoscript-mode\.el:\d+: .*", _checkdoc(tmp_path, tmp_path / MODE_FILE.name)
    )
    assert found == []


def test_checkdoc_reports_a_problem_it_is_shown(tmp_path: Path) -> None:
    # The harness above must see checkdoc's complaints: a docstring-less
    # defun is one.
    bad = tmp_path / "bad.el"
    bad.write_text(
        ";;; bad.el --- Bad -*- lexical-binding: t -*-\n;;; Commentary:\n;;; Code:\n"
        "(defun bad-fn () 1)\n(provide 'bad)\n;;; bad.el ends here\n"
    )
    assert re.search(r"bad\.el:4: .*documentation", _checkdoc(tmp_path, bad))


# Font-lock -------------------------------------------------------------------

FONT_LOCK_SAMPLE = """use mod.std.assert
// a comment with if
fn add(a, b) {
    let text = "if \\n" /* block */
    return a + b == 1.5e3
}
let inc = |x| x + 1
let plain = 42
let t = tool.call("text.echo", "hi").await()
assert(add(1, 2) == 3 && true)
var old = nil
"""

FACES = """(progn
  (require 'json)
  (require 'octoscript-mode)
  (with-temp-buffer
    (insert-file-contents {file})
    ({mode})
    (princ (format "%s %s\\n" major-mode (if (octoscript-ts-grammar-ready-p) "ts" "regexp")))
    (font-lock-ensure)
    (let (runs)
      (goto-char (point-min))
      (while (not (eobp))
        (let ((start (point)) (face (get-text-property (point) 'face)))
          (goto-char (or (next-single-property-change (point) 'face) (point-max)))
          (when face
            (push (vector (1- start) (buffer-substring-no-properties start (point))
                          (format "%s" face))
                  runs))))
      (princ (json-encode (nreverse runs))))))"""


@pytest.fixture(scope="module", params=["octoscript-mode", "octoscript-ts-mode"])
def face_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[int, tuple[str, str]]:
    """Face runs by start offset, in `octoscript-mode` and in `octoscript-ts-mode`
    without a tree-sitter grammar (Emacs 28), which falls back to the regexps."""
    mode = request.param
    work = tmp_path_factory.mktemp("emacs-font-lock")
    sample = work / "sample.octoscript"
    sample.write_text(FONT_LOCK_SAMPLE)
    program = FACES.format(file=elisp_string(sample), mode=mode)
    done = run_emacs("-L", str(MODE_DIR), "--eval", program, cwd=work)
    assert done.returncode == 0, done.stderr
    header, runs = done.stdout.split("\n", 1)
    major_mode, highlighting = header.split()
    assert major_mode == mode
    if highlighting == "ts":
        pytest.skip("tree-sitter highlighting: see tests/grammar/test_emacs_queries.py")
    return {start: (text, face) for start, text, face in json.loads(runs)}


def _face_at(runs: dict[int, tuple[str, str]], needle: str, offset: int = 0) -> tuple[str, str]:
    """The face run that starts at `needle` (plus `offset`) in the sample."""
    start = FONT_LOCK_SAMPLE.index(needle) + offset
    return runs.get(start, ("", "no face starts here"))


@pytest.mark.parametrize(
    ("needle", "offset", "text", "face"),
    [
        ("use", 0, "use", "font-lock-keyword-face"),
        ("mod.std.assert", 0, "mod.std.assert", "font-lock-constant-face"),
        ("// a comment", 0, "// ", "font-lock-comment-delimiter-face"),
        ("a comment with if", 0, "a comment with if\n", "font-lock-comment-face"),
        ("fn add", 0, "fn", "font-lock-keyword-face"),
        ("add(a", 0, "add", "font-lock-function-name-face"),
        ("a, b)", 0, "a", "font-lock-variable-name-face"),
        ("b) {", 0, "b", "font-lock-variable-name-face"),
        ("let text", 4, "text", "font-lock-variable-name-face"),
        ('"if \\n"', 0, '"if \\n"', "font-lock-string-face"),
        ("/* block */", 0, "/* ", "font-lock-comment-delimiter-face"),
        ("return", 0, "return", "font-lock-keyword-face"),
        ("1.5e3", 0, "1.5e3", "font-lock-constant-face"),
        ("inc", 0, "inc", "font-lock-function-name-face"),
        ("|x|", 1, "x", "font-lock-variable-name-face"),
        ("plain", 0, "plain", "font-lock-variable-name-face"),
        ("42", 0, "42", "font-lock-constant-face"),
        ("tool.call", 0, "tool", "font-lock-builtin-face"),
        ("call(", 0, "call", "octoscript-function-call"),
        ("await", 0, "await", "font-lock-keyword-face"),
        ("assert(add", 0, "assert", "octoscript-function-call"),
        ("true)", 0, "true", "font-lock-constant-face"),
        ("var", 0, "var", "font-lock-warning-face"),
        ("nil", 0, "nil", "font-lock-constant-face"),
    ],
)
def test_face(
    face_runs: dict[int, tuple[str, str]], needle: str, offset: int, text: str, face: str
) -> None:
    assert _face_at(face_runs, needle, offset) == (text, face)


def test_plain_code_has_no_face(face_runs: dict[int, tuple[str, str]]) -> None:
    # Operators, uses of bindings and the `1` of `x + 1` stay unhighlighted,
    # and nothing inside the string or comments is coloured as code.
    for needle, offset in (("+ b", 0), ("x + 1", 0), ("== 3", 0), ("if \\n", 0), ("with if", 5)):
        assert FONT_LOCK_SAMPLE.index(needle) + offset not in face_runs, needle


# Indentation -----------------------------------------------------------------

INDENT_SAMPLE = """// top
use mod.std.assert
fn greet(name, items) {
let greeting = "hello, {" + name
if greeting == "" {
return nil
} elif items == [] { return 1; } else {
// inside
for k, v in items {
if k == 1 { continue; }
}
}
/* a block
comment */
let r = {a: 1, b: {
c: 2
}}
let call = foo(|x| {
x + 1
}, [1, 2])
return try {
greet("w")
} catch {
nil
}
}
let out = loop { break; }
"""

INDENT = """(progn
  (require 'octoscript-mode)
  (with-temp-buffer
    (insert-file-contents {file})
    (octoscript-mode)
    (indent-region (point-min) (point-max))
    (princ (buffer-string))))"""


def _indentation(text: str) -> list[int]:
    return [len(line) - len(line.lstrip(" ")) for line in text.splitlines()]


def test_indentation_matches_the_formatter(tmp_path: Path) -> None:
    sample = tmp_path / "flat.octoscript"
    sample.write_text(INDENT_SAMPLE)
    done = run_emacs(
        "-L", str(MODE_DIR), "--eval", INDENT.format(file=elisp_string(sample)), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    formatted = format_source(INDENT_SAMPLE)
    assert max(_indentation(formatted)) == 12  # the sample nests three deep
    assert _indentation(done.stdout) == _indentation(formatted), done.stdout


# The client commands without a client ----------------------------------------

NO_CLIENT = """(progn
  (require 'octoscript-mode)
  (with-temp-buffer
    (octoscript-mode)
    (dolist (command '(octoscript-reload-catalogs octoscript-send-settings))
      (princ (format "%s: %S\\n" command
                     (condition-case err (call-interactively command) (error err)))))))"""


def test_client_commands_say_there_is_no_server(tmp_path: Path) -> None:
    done = run_emacs("-L", str(MODE_DIR), "--eval", NO_CLIENT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    refusal = (
        '(user-error "No Octoscript language server in this buffer (start eglot or lsp-mode)")'
    )
    assert done.stdout.splitlines() == [
        f"octoscript-reload-catalogs: {refusal}",
        f"octoscript-send-settings: {refusal}",
    ]


# eglot against the real server ----------------------------------------------


@pytest.fixture(scope="module", params=["emacs-28", "emacs-30"])
def eglot_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One eglot session in each Emacs: Debian's 28 (elpa-eglot 1.9) and 30."""
    emacs = emacsen().get(request.param)
    if emacs is None:
        pytest.skip(f"no {request.param} (.ci/run installs both)")
    run = run_driver(DRIVER, tmp_path_factory.mktemp("emacs-eglot"), "eglot", emacs)
    run["_emacs"] = request.param
    return run


def test_opening_a_file_starts_eglot(eglot_run: dict) -> None:
    assert eglot_run["major-mode"] == "octoscript-mode", eglot_run["_diagnostics"]
    assert passed(eglot_run, "eglot-connected"), eglot_run["_diagnostics"]
    assert eglot_run["server-name"] == "octoscript-lsp"
    assert eglot_run["language-id"] == "octoscript"


def test_flymake_shows_the_syntax_error_once(eglot_run: dict) -> None:
    assert eglot_run.get("initial-diagnostics") == [], eglot_run["_diagnostics"]
    diagnostics = eglot_run.get("diagnostics-after-edit")
    line = eglot_run.get("error-line")
    assert diagnostics is not None and len(diagnostics) == 1, eglot_run["_diagnostics"]
    found_line, kind, message = diagnostics[0]
    assert (found_line, kind) == (line, "eglot-error")
    assert message.startswith("octoscript [missing-statement-end]:"), message
    assert passed(eglot_run, "flymake-syntax-error-once")
    # Removing the bad line clears Flymake again.
    assert eglot_run.get("diagnostics-after-fix") == [], eglot_run["_diagnostics"]


def test_completion_at_point_offers_the_binding(eglot_run: dict) -> None:
    assert "greeting" in (eglot_run.get("binding-completions") or []), eglot_run["_diagnostics"]
    assert eglot_run.get("completed-line") == "let copy = greeting"
    assert passed(eglot_run, "binding-completion")


def test_catalog_from_workspace_configuration_completes_tool_names(eglot_run: dict) -> None:
    assert eglot_run.get("tool-completions") == ["text.echo"], eglot_run["_diagnostics"]
    assert passed(eglot_run, "catalog-tool-completion")


def test_catalog_from_octoscript_catalogs_reaches_initialization_options(
    eglot_run: dict,
) -> None:
    # `octoscript-catalogs' holds a module catalog only; the workspace
    # configuration has no modules, so `weather' came through
    # initializationOptions.
    assert eglot_run.get("module-completions") == ["weather"], eglot_run["_diagnostics"]
    assert passed(eglot_run, "init-options-module-completion")


def test_eldoc_shows_hover_text(eglot_run: dict) -> None:
    assert eglot_run.get("hover") == "(binding) greeting", eglot_run["_diagnostics"]
    assert passed(eglot_run, "eldoc-hover")


def test_eglot_format_buffer_formats(eglot_run: dict) -> None:
    before = eglot_run.get("before-format")
    assert before is not None and "fn   twice(n){\nreturn n*2\n}" in before
    assert eglot_run.get("after-format") == format_source(before), eglot_run["_diagnostics"]
    assert passed(eglot_run, "format-buffer")


def test_eglot_rename_renames(eglot_run: dict) -> None:
    after = eglot_run.get("after-rename")
    assert after is not None, eglot_run["_diagnostics"]
    assert after == format_source(eglot_run["before-format"]).replace("greeting", "salutation")
    assert after.count("salutation") == 3
    assert passed(eglot_run, "rename")


def test_a_catalog_file_from_the_workspace_configuration_is_read_and_reloaded(
    eglot_run: dict,
) -> None:
    assert eglot_run.get("file-completions") == ["text.file"], eglot_run["_diagnostics"]
    assert sorted(eglot_run.get("reloaded-completions") or []) == ["text.file", "text.later"]
    assert passed(eglot_run, "catalog-file") and passed(eglot_run, "catalog-file-reload")


def test_every_checkpassed(eglot_run: dict) -> None:
    assert eglot_run.get("failures") == 0, eglot_run["_diagnostics"]
    assert "driver-error" not in eglot_run, eglot_run["_diagnostics"]


# Non-ASCII text ---------------------------------------------------------------

# What each Emacs negotiates, and the function its eglot then counts
# characters with: elpa-eglot 1.9 offers no encodings (UTF-16); eglot 1.17
# (Emacs 30) offers utf-32 first.
ENCODINGS = {
    "emacs-28": ("utf-16", "eglot-lsp-abiding-column"),
    "emacs-30": ("utf-32", "eglot-utf-32-linepos"),
}
TYPED = UNICODE_SAMPLE.replace("x =", "xy =").replace("= x", "= xy")


def test_eglot_negotiates_its_position_encoding(eglot_run: dict) -> None:
    assert eglot_run.get("unicode-managed") is True, eglot_run["_diagnostics"]
    encoding, linepos = ENCODINGS[eglot_run["_emacs"]]
    assert (eglot_run.get("position-encoding"), eglot_run.get("linepos-function")) == (
        encoding,
        linepos,
    )


def test_typing_after_an_astral_character_reaches_the_server(eglot_run: dict) -> None:
    # `y` typed behind each `x`: the server's top-level names are the buffer's.
    assert eglot_run.get("unicode-symbols") == ["s", "xy", "y"], eglot_run["_diagnostics"]


def test_definition_lands_on_the_declaration(eglot_run: dict) -> None:
    declaration = TYPED.splitlines()[1]
    assert eglot_run.get("unicode-definition") == [
        2,
        declaration.index("xy = 1"),
        "xy = 1",
    ], eglot_run["_diagnostics"]


def test_rename_after_an_astral_character_edits_the_right_characters(eglot_run: dict) -> None:
    assert eglot_run.get("unicode-after-rename") == TYPED.replace("xy", "total"), eglot_run[
        "_diagnostics"
    ]


def test_a_diagnostic_after_an_astral_character_covers_its_token(eglot_run: dict) -> None:
    line = UNICODE_WARNING_LINE
    found = eglot_run.get("unicode-diagnostics") or []
    start = line.index('"text.nope"')
    assert [entry[:3] for entry in found] == [[4, start, '"text.nope"']], (
        found,
        eglot_run["_diagnostics"],
    )
    assert "`text.nope`" in found[0][3]
