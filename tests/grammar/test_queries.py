"""The query files compile against the grammar and capture what editors need."""

from __future__ import annotations

import pytest
from tree_sitter import Node, Query, QueryCursor

from .treesitter import NEOVIM_QUERIES_DIR, QUERIES_DIR, QUERY_FILES, LoadedGrammar

SAMPLE = """\
use mod.std.math
// add two numbers
fn add(a, b) {
    return a + b
}
let pick = |x| x.value
let t = tool.start("text.echo", {n: 1.5, on: true, k: 2}).await()
for k, v in items {
    if k == "x\\n" { break; } else { continue; }
}
let r = try risky() catch nil
"""


def query(grammar: LoadedGrammar, name: str) -> Query:
    return Query(grammar.language, (QUERIES_DIR / name).read_text(encoding="utf-8"))


def captures(grammar: LoadedGrammar, name: str, source: str) -> dict[str, list[str]]:
    tree = grammar.parser().parse(source.encode("utf-8"))
    found = QueryCursor(query(grammar, name)).captures(tree.root_node)
    return {capture: sorted(_text(node) for node in nodes) for capture, nodes in found.items()}


def _text(node: Node) -> str:
    return node.text.decode("utf-8")


def test_query_files_are_the_five_expected() -> None:
    assert sorted(path.name for path in QUERIES_DIR.glob("*.scm")) == sorted(QUERY_FILES)


@pytest.mark.parametrize("name", QUERY_FILES)
def test_query_compiles(grammar: LoadedGrammar, name: str) -> None:
    compiled = query(grammar, name)
    assert compiled.pattern_count > 0


@pytest.mark.parametrize("name", QUERY_FILES)
def test_neovim_copy_is_identical(name: str) -> None:
    # editors/neovim/queries is a copy for Neovim's runtimepath; refresh it with
    # grammar/tree-sitter-octoscript/sync-queries.sh.
    original = (QUERIES_DIR / name).read_bytes()
    assert (NEOVIM_QUERIES_DIR / name).read_bytes() == original


def test_highlights(grammar: LoadedGrammar) -> None:
    found = captures(grammar, "highlights.scm", SAMPLE)
    assert found["keyword.function"] == ["fn"]
    assert found["keyword.storage"] == ["let", "let", "let"]
    assert found["keyword.control.return"] == ["return"]
    assert found["keyword.control.import"] == ["use"]
    assert found["keyword.control.repeat"] == ["for", "in"]
    assert found["keyword.control.conditional"] == ["else", "if"]
    assert found["keyword.control.exception"] == ["catch", "try"]
    assert found["keyword.control"] == ["break", "continue"]
    assert found["keyword.coroutine"] == ["await"]
    assert found["function"] == ["add", "pick", "risky"]
    assert found["function.method"] == ["await", "start"]
    assert found["variable.parameter"] == ["a", "b", "x"]
    assert found["namespace"] == ["math", "mod", "std"]
    assert found["string"] == ['"text.echo"', '"x\\n"']
    assert found["constant.character.escape"] == ["\\n"]
    assert found["constant.numeric.integer"] == ["2"]
    assert found["constant.numeric.float"] == ["1.5"]
    assert found["constant.builtin.boolean"] == ["true"]
    assert found["constant.builtin"] == ["nil"]
    assert found["comment"] == ["// add two numbers"]
    assert "n" in found["variable.other.member"]


def test_locals(grammar: LoadedGrammar) -> None:
    found = captures(grammar, "locals.scm", SAMPLE)
    assert found["local.definition.function"] == ["add"]
    assert found["local.definition.variable.parameter"] == ["a", "b", "x"]
    assert found["local.definition.namespace"] == ["math"]
    assert found["local.definition.variable"] == ["k", "pick", "r", "t", "v"]
    # The file, the fn and its body, the lambda, the for and its body, two if blocks.
    assert len(found["local.scope"]) == 8


def test_textobjects(grammar: LoadedGrammar) -> None:
    found = captures(grammar, "textobjects.scm", SAMPLE)
    assert found["function.around"] == found["function.outer"]
    assert found["function.around"] == ["fn add(a, b) {\n    return a + b\n}", "|x| x.value"]
    assert found["function.inside"] == ["x.value", "{\n    return a + b\n}"]
    assert found["function.inner"] == found["function.inside"]
    assert found["parameter.inside"] == found["parameter.inner"]
    assert ["a", "b", "x"] == [p for p in found["parameter.inside"] if len(p) == 1]
    assert found["comment.inside"] == ["// add two numbers"]
    assert found["comment.inner"] == found["comment.inside"]


def test_folds_and_indents(grammar: LoadedGrammar) -> None:
    folds = captures(grammar, "folds.scm", SAMPLE)["fold"]
    assert "{\n    return a + b\n}" in folds
    indents = captures(grammar, "indents.scm", SAMPLE)
    assert indents["indent"] == indents["indent.begin"]
    assert "{\n    return a + b\n}" in indents["indent"]
    assert indents["outdent"] == indents["indent.branch"] == indents["indent.end"]
    assert "}" in indents["outdent"]
