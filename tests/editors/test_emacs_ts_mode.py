"""`octoscript-ts-mode` (editors/emacs) running for real on tree-sitter.

Needs an Emacs with tree-sitter (29+): ``.ci/run`` installs Debian's Emacs
30 from bookworm-backports as ``emacs-30`` beside the system's Emacs 28. The
grammar library is built here from grammar/tree-sitter-octoscript's
committed C sources with the C compiler, as
``libtree-sitter-octoscript.so`` on ``treesit-extra-load-path``. The text
holds non-ASCII characters (é, —, 😀, 中) before the places checked: tree-sitter
counts bytes, Emacs characters.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from octoscript_lsp.syntax.check import format_source
from tests.editors.emacs_batch import MODE_DIR, elisp_string, run_emacs, treesit_emacs
from tests.grammar.treesitter import c_compiler, compile_parser

SAMPLE = """use mod.std.assert
// a comment with if — 😀
fn add(a, b) {
    let text = "é😀—中 \\n" /* block */
    return a + b == 1.5e3
}
let inc = |x| x + 1
let t = tool.call("text.echo", {on: true}).await()
"""

FACES = """(progn
  (require 'json)
  (require 'octoscript-mode)
  (add-to-list 'treesit-extra-load-path {grammar})
  (setq treesit-font-lock-level {level})
  (with-temp-buffer
    (insert-file-contents {file})
    (octoscript-ts-mode)
    (princ (format "%s %s %s\\n" major-mode (octoscript-ts-grammar-ready-p)
                   (treesit-node-type (treesit-buffer-root-node))))
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


@pytest.fixture(scope="module")
def emacs() -> str:
    found = treesit_emacs()
    if found is None:
        pytest.skip("no Emacs with tree-sitter (29+; .ci/run installs Emacs 30 as emacs-30)")
    return found


@pytest.fixture(scope="module")
def grammar_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("no C compiler to build the tree-sitter grammar")
    out = tmp_path_factory.mktemp("emacs-grammar")
    # Emacs looks for libtree-sitter-LANGUAGE.so in each directory.
    shutil.move(compile_parser(compiler, out), out / "libtree-sitter-octoscript.so")
    return out


def _face_runs(emacs: str, grammar: Path, work: Path, level: int) -> dict[int, tuple[str, str]]:
    sample = work / "sample.octoscript"
    sample.write_text(SAMPLE)
    program = FACES.format(grammar=elisp_string(grammar), level=level, file=elisp_string(sample))
    done = run_emacs("-L", str(MODE_DIR), "--eval", program, cwd=work, emacs=emacs)
    assert done.returncode == 0, done.stderr
    header, runs = done.stdout.split("\n", 1)
    # The mode parsed the buffer with the grammar: not the regexp fallback.
    assert header.split() == ["octoscript-ts-mode", "t", "source_file"], done.stderr
    return {start: (text, face) for start, text, face in json.loads(runs)}


@pytest.fixture(scope="module")
def face_runs(
    emacs: str, grammar_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[int, tuple[str, str]]:
    """Face runs by start offset (characters) at the default level, 3."""
    return _face_runs(emacs, grammar_dir, tmp_path_factory.mktemp("emacs-ts"), 3)


def _at(needle: str, offset: int = 0) -> int:
    return SAMPLE.index(needle) + offset


@pytest.mark.parametrize(
    ("needle", "offset", "text", "face"),
    [
        ("use", 0, "use", "font-lock-keyword-face"),
        ("mod.std", 0, "mod", "font-lock-constant-face"),
        ("assert", 0, "assert", "font-lock-constant-face"),
        ("// a comment", 0, "// a comment with if — 😀", "font-lock-comment-face"),
        ("fn add", 0, "fn", "font-lock-keyword-face"),
        ("add(a", 0, "add", "font-lock-function-name-face"),
        ("a, b)", 0, "a", "font-lock-variable-name-face"),
        ("b) {", 0, "b", "font-lock-variable-name-face"),
        ("let text", 4, "text", "font-lock-variable-name-face"),
        # After an astral character and an em dash: the escape, then the
        # string's closing quote, each on its own character.
        ('"é😀', 0, '"é😀—中 ', "font-lock-string-face"),
        ("\\n", 0, "\\n", "font-lock-escape-face"),
        ('\\n"', 2, '"', "font-lock-string-face"),
        ("/* block */", 0, "/* block */", "font-lock-comment-face"),
        ("return", 0, "return", "font-lock-keyword-face"),
        ("1.5e3", 0, "1.5e3", "font-lock-number-face"),
        ("inc", 0, "inc", "font-lock-function-name-face"),
        ("|x|", 1, "x", "font-lock-variable-name-face"),
        ("call(", 0, "call", "font-lock-function-call-face"),
        ('"text.echo"', 0, '"text.echo"', "font-lock-string-face"),
        ("on:", 0, "on", "font-lock-property-name-face"),
        ("true", 0, "true", "font-lock-constant-face"),
        ("await", 0, "await", "font-lock-function-call-face"),
    ],
)
def test_tree_sitter_face(
    face_runs: dict[int, tuple[str, str]], needle: str, offset: int, text: str, face: str
) -> None:
    assert face_runs.get(_at(needle, offset)) == (text, face)


def test_level_3_leaves_operators_and_brackets_plain(face_runs: dict) -> None:
    for needle in ("+ b", "== 1.5e3", "(a, b)", "{\n"):
        assert _at(needle) not in face_runs, needle


def test_level_4_adds_operators_brackets_and_delimiters(
    emacs: str, grammar_dir: Path, tmp_path: Path
) -> None:
    runs = _face_runs(emacs, grammar_dir, tmp_path, 4)
    assert runs.get(_at("+ b")) == ("+", "font-lock-operator-face")
    assert runs.get(_at("== 1.5e3")) == ("==", "font-lock-operator-face")
    assert runs.get(_at("(a, b)")) == ("(", "font-lock-bracket-face")
    assert runs.get(_at(", b)")) == (",", "font-lock-delimiter-face")
    # Level 3's faces stay.
    assert runs.get(_at("add(a")) == ("add", "font-lock-function-name-face")


# Indentation -----------------------------------------------------------------

INDENT_SAMPLE = """// top — 😀
use mod.std.assert
fn greet(name, items) {
let greeting = "héllo, 中 {" + name
if greeting == "" {
return nil
} elif items == [] {
return 1
} else {
for k, v in items {
if k == 1 {
continue
}
}
}
let r = {a: "😀", b: {
c: 2
}}
let call = foo(|x| {
x + 1
}, [1, 2])
return try {
greet("w—")
} catch {
nil
}
}
let out = loop {
break
}
"""

INDENT = """(progn
  (require 'octoscript-mode)
  (add-to-list 'treesit-extra-load-path {grammar})
  (with-temp-buffer
    (insert-file-contents {file})
    (octoscript-ts-mode)
    (unless (octoscript-ts-grammar-ready-p) (error "no grammar"))
    (indent-region (point-min) (point-max))
    (princ (buffer-string))))"""


def _messy(text: str) -> str:
    """`text` with every line's indentation replaced by 0 to 6 spaces."""
    lines = text.splitlines(keepends=True)
    return "".join(" " * (index * 5 % 7) + line.lstrip(" ") for index, line in enumerate(lines))


def test_indent_region_gives_the_formatters_text(
    emacs: str, grammar_dir: Path, tmp_path: Path
) -> None:
    formatted = format_source(INDENT_SAMPLE)
    assert max(len(line) - len(line.lstrip(" ")) for line in formatted.splitlines()) == 16
    messy = _messy(formatted)
    assert messy != formatted and format_source(messy) == formatted
    sample = tmp_path / "messy.octoscript"
    sample.write_text(messy)
    program = INDENT.format(grammar=elisp_string(grammar_dir), file=elisp_string(sample))
    done = run_emacs("-L", str(MODE_DIR), "--eval", program, cwd=tmp_path, emacs=emacs)
    assert done.returncode == 0, done.stderr
    assert done.stdout == formatted
