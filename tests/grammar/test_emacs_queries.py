"""The tree-sitter queries of `octoscript-ts-mode` (editors/emacs) fit the grammar.

tests/editors/test_emacs_ts_mode.py runs that mode in an Emacs with
tree-sitter (29+); here the queries are checked in any Emacs: it loads
octoscript-mode.el and prints `octoscript-ts-font-lock-queries`, and each
query must compile against
the grammar with py-tree-sitter (Emacs hands query strings to the same
tree-sitter library) and capture only faces Emacs 29 defines.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tree_sitter import Query, QueryCursor

from .treesitter import QUERIES_DIR, LoadedGrammar

REPO = Path(__file__).resolve().parents[2]
MODE_DIR = REPO / "editors" / "emacs"
EMACS = shutil.which("emacs")

pytestmark = pytest.mark.skipif(EMACS is None, reason="no emacs (apt-get install emacs-nox)")

# Faces of Emacs 29's font-lock.el (the first release with treesit).
EMACS_29_FACES = {
    "font-lock-comment-face",
    "font-lock-string-face",
    "font-lock-escape-face",
    "font-lock-keyword-face",
    "font-lock-constant-face",
    "font-lock-number-face",
    "font-lock-function-name-face",
    "font-lock-function-call-face",
    "font-lock-variable-name-face",
    "font-lock-property-name-face",
    "font-lock-property-use-face",
    "font-lock-operator-face",
    "font-lock-bracket-face",
    "font-lock-delimiter-face",
}

PRINT_QUERIES = """(progn
  (require 'json)
  (require 'octoscript-mode)
  ;; Vectors: json.el would take a list of lists for an object.
  (princ (json-encode
          (vconcat (mapcar (lambda (entry)
                             (vector (symbol-name (nth 0 entry))
                                     (if (nth 1 entry) t :json-false)
                                     (nth 2 entry)))
                           octoscript-ts-font-lock-queries))))
  (terpri)
  (princ (json-encode
          (vconcat (mapcar (lambda (level) (vconcat (mapcar #'symbol-name level)))
                           octoscript-ts-font-lock-feature-list)))))"""

SAMPLE = """use mod.std.math
// note
fn add(a, b) {
    return a + b
}
let inc = |x| x + 1
let n = add(1, 2.5)
let t = tool.call("text.echo", {on: true, s: "a\\n"}).await()
"""


@pytest.fixture(scope="module")
def emacs_queries(tmp_path_factory: pytest.TempPathFactory) -> tuple[list, list]:
    assert EMACS is not None
    done = subprocess.run(
        [EMACS, "-Q", "--batch", "-L", str(MODE_DIR), "--eval", PRINT_QUERIES],
        cwd=tmp_path_factory.mktemp("emacs-queries"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    queries_line, levels_line = done.stdout.splitlines()
    return json.loads(queries_line), json.loads(levels_line)


def test_every_feature_is_in_a_level(emacs_queries: tuple[list, list]) -> None:
    queries, levels = emacs_queries
    features = {feature for feature, _override, _query in queries}
    listed = [feature for level in levels for feature in level]
    assert len(listed) == len(set(listed))
    assert features == set(listed)


def test_queries_compile_and_capture_emacs_faces(
    grammar: LoadedGrammar, emacs_queries: tuple[list, list]
) -> None:
    for feature, _override, text in emacs_queries[0]:
        query = Query(grammar.language, text)
        names = {query.capture_name(index) for index in range(query.capture_count)}
        assert names <= EMACS_29_FACES, (feature, names - EMACS_29_FACES)


def _captured(grammar: LoadedGrammar, text: str) -> dict[str, list[str]]:
    tree = grammar.parser().parse(SAMPLE.encode("utf-8"))
    found = QueryCursor(Query(grammar.language, text)).captures(tree.root_node)
    return {
        name: sorted(node.text.decode("utf-8") for node in nodes) for name, nodes in found.items()
    }


def test_queries_capture_the_sample(
    grammar: LoadedGrammar, emacs_queries: tuple[list, list]
) -> None:
    by_feature: dict[str, dict[str, list[str]]] = {}
    for feature, _override, text in emacs_queries[0]:
        faces = by_feature.setdefault(feature, {})
        for face, texts in _captured(grammar, text).items():
            faces[face] = sorted(faces.get(face, []) + texts)
    assert by_feature["keyword"]["font-lock-keyword-face"] == [
        "fn",
        "let",
        "let",
        "let",
        "return",
        "use",
    ]
    assert by_feature["module"]["font-lock-constant-face"] == ["math", "mod", "std"]
    definition = by_feature["definition"]
    assert definition["font-lock-function-name-face"] == ["add", "inc"]
    # `inc` matches the variable pattern too; the function query runs first.
    assert definition["font-lock-variable-name-face"] == ["a", "b", "inc", "n", "t", "x"]
    first_definition = next(q for f, _o, q in emacs_queries[0] if f == "definition")
    assert "font-lock-variable-name-face" not in first_definition
    assert by_feature["function-call"]["font-lock-function-call-face"] == [
        "add",
        "await",
        "call",
    ]
    assert by_feature["number"]["font-lock-number-face"] == ["1", "1", "2.5"]
    assert by_feature["escape"]["font-lock-escape-face"] == ["\\n"]
    assert by_feature["constant"]["font-lock-constant-face"] == ["true"]
    assert by_feature["property"]["font-lock-property-name-face"] == ["on", "s"]


def _quoted(text: str, pattern: str) -> set[str]:
    return {match for match in re.findall(r'"([^"\s]+)"', text) if re.fullmatch(pattern, match)}


def test_keyword_and_operator_lists_follow_highlights_scm(
    emacs_queries: tuple[list, list],
) -> None:
    # The Emacs queries restate highlights.scm with Emacs faces: the anonymous
    # keyword and operator nodes they name must be the same (`mod` is a
    # module path there, and `await` needs a predicate Emacs spells its own way).
    highlights = (QUERIES_DIR / "highlights.scm").read_text(encoding="utf-8")
    by_feature: dict[str, str] = {}
    for feature, _override, text in emacs_queries[0]:
        by_feature[feature] = by_feature.get(feature, "") + text
    words = r"[a-z]+"
    assert _quoted(by_feature["keyword"], words) == _quoted(highlights, words) - {"mod", "await"}
    operators = r"[^a-z()\[\]{},;.:]+"
    operator_list = re.search(r"\[([^\]]*)\]\s*@operator", highlights)
    assert operator_list is not None
    assert _quoted(by_feature["operator"], operators) == _quoted(operator_list.group(1), operators)
