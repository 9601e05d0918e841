"""Each concept is decided in one place (docs/architecture.md, "Where each concept lives").

These read the package's source, as the layer test does, so a second copy of
a table, type or rule fails here instead of drifting quietly.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from octoscript_lsp.analysis.document import DocumentAnalysis
from octoscript_lsp.features import semantic_tokens, symbols
from octoscript_lsp.features.positions import PositionMap

from .test_layers import PACKAGE, modules

SURFACES = PACKAGE / "analysis" / "surfaces.py"


@cache  # parsed once per run; the checks only read the trees
def _trees() -> dict[str, tuple[Path, ast.Module]]:
    return {module: (path, ast.parse(path.read_text())) for module, path in modules().items()}


def _functions_outside_the_grammar(grammar: set[str], matches) -> list[str]:
    """`module.function` of every function that `matches`, outside the
    syntax modules named in `grammar` (which read the grammar itself)."""
    return sorted(
        f"{module}.{node.name}"
        for module, (path, tree) in _trees().items()
        if not (path.parent.name == "syntax" and path.stem in grammar)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and matches(node)
    )


def _string_constants(tree: ast.Module) -> list[tuple[int, str]]:
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_one_tool_method_table():
    """The method names of `mod.tool` are written only in `surfaces.TOOL_METHODS`."""
    methods = {"call_json", "start_json"}
    offenders = [
        f"{module}:{line}"
        for module, (path, tree) in _trees().items()
        if path != SURFACES
        for line, value in _string_constants(tree)
        if value in methods
    ]
    assert offenders == []


def test_one_tool_format_type():
    found = [
        module
        for module, (_, tree) in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name == "ToolFormat"
    ]
    assert found == ["octoscript_lsp.catalogs.model"]


def _is_std_path_literal(node: ast.AST) -> bool:
    """A tuple literal starting `("mod", "std"` (the std path written out again)."""
    if not isinstance(node, ast.Tuple) or len(node.elts) < 2:
        return False
    head = node.elts[:2]
    return all(isinstance(item, ast.Constant) for item in head) and [
        item.value for item in head
    ] == ["mod", "std"]


def test_one_std_path():
    """`("mod", "std")` is spelled once; "under `mod.std`" is `surfaces.is_fixed_core_path`."""
    found = [
        f"{module}:{node.lineno}"
        for module, (_, tree) in _trees().items()
        for node in ast.walk(tree)
        if _is_std_path_literal(node)
    ]
    assert found == ["octoscript_lsp.analysis.surfaces:" + str(_std_path_line())]


def _std_path_line() -> int:
    for number, line in enumerate(SURFACES.read_text().splitlines(), start=1):
        if line.startswith("STD_NAMESPACE_PATH"):
            return number
    raise AssertionError("surfaces.STD_NAMESPACE_PATH is missing")


def test_versions_hand_on_only_through_reuse():
    """No module reads another object's `__dict__` to find what an earlier
    version computed, and the open-document record keeps no feature caches:
    the statements (`syntax/statements.py`) are the one hand-over."""
    readers = [
        f"{module}:{node.lineno}"
        for module, (_, tree) in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "__dict__"
    ]
    assert readers == []
    documents = ast.parse((PACKAGE / "documents.py").read_text())
    record = next(
        node
        for node in ast.walk(documents)
        if isinstance(node, ast.ClassDef) and node.name == "OpenDocument"
    )
    fields = {
        node.target.id
        for node in record.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    assert fields == {
        "version",
        "analysis",
        "positions",
        "refused",
        "previous",
        "advised",
        "advice",
        "workspace_outline",
        # The last semantic-tokens answer sent: the document's, not a version's.
        "semantic_tokens",
    }


def test_requests_render_the_one_member_classification():
    """Completion, hover, signature help and definition ask
    `analysis/resolution.resolve_member` what a member site is and keep no
    order of receiver checks of their own."""
    renderers = ("completion", "hover", "signature", "navigation")
    offenders = []
    for name in renderers:
        tree = ast.parse((PACKAGE / "features" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("analysis.members", "members"):
                offenders.append(name)
            if isinstance(node, ast.Name) and node.id in ("MemberReceiver", "BuiltIn"):
                offenders.append(name)
    assert offenders == []


# What decides a member's kind by itself: the std and tool tables (any
# `surfaces` name), the receiver questions, and the spelling of `.await(`.
_MEMBER_DECIDERS = {
    "std_import_member",
    "std_module_for_import",
    "std_module",
    "tool_method",
    "is_tool_import",
    "built_in_surface",
    "built_in_member",
    "MemberReceiver",
    "BuiltIn",
}


def test_semantic_tokens_render_the_one_member_classification():
    """Semantic tokens classify member tokens from the tree, through
    `resolution.classify_member_token` (the classifier's values, mapped to
    roles by a `match`): no std or tool table, no `await` of their own."""
    trees = [ast.parse((PACKAGE / "features" / "semantic_tokens.py").read_text())]
    offenders = []
    for node in (node for tree in trees for node in ast.walk(tree)):
        if isinstance(node, ast.ImportFrom) and node.module in ("analysis.members", "members"):
            offenders.append(f"import {node.module}")
        if isinstance(node, ast.ImportFrom) and node.module in ("analysis", "analysis.surfaces"):
            offenders.append(f"import {node.module}")
        if isinstance(node, ast.Name) and node.id in _MEMBER_DECIDERS:
            offenders.append(f"{node.id}:{node.lineno}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            name = f"{node.value.id}.{node.attr}"
            if node.value.id == "surfaces" or node.attr in _MEMBER_DECIDERS:
                offenders.append(f"{name}:{node.lineno}")
        if isinstance(node, ast.Constant) and node.value == "await":
            offenders.append(f"'await':{node.lineno}")
    assert offenders == []
    calls = [
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "classify_member_token"
    ]
    assert len(calls) == 1  # one mapping of its values to roles


def _matches_member_call_shape(function: ast.FunctionDef) -> bool:
    """Tests for a `(` (text or token kind) next to a `.`: the `recv.m(` shape."""
    attributes = {node.attr for node in ast.walk(function) if isinstance(node, ast.Attribute)}
    strings = {
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    return ("LPAREN" in attributes or "(" in strings) and "." in strings


def test_one_member_call_recognizer():
    """`recv.m(` is recognized by `syntax/member_calls.py` alone (its token and
    text readings); the parser and formatter read the grammar, not this shape.
    `surfaces`' header only writes the shape out as text.
    """
    grammar = {"parser", "lexer", "control", "cursor", "formatter"}
    allowed = {
        "octoscript_lsp.syntax.member_calls",
        "octoscript_lsp.analysis.surfaces.header",
    }
    found = _functions_outside_the_grammar(grammar, _matches_member_call_shape)
    offenders = [
        name
        for name in found
        if name not in allowed and not name.startswith("octoscript_lsp.syntax.member_calls.")
    ]
    assert offenders == []
    assert any(name.startswith("octoscript_lsp.syntax.member_calls.") for name in found)


_HOP_LIMITS = {"MAX_ALIAS_HOPS", "MAX_IMPORTED_MODULE_ALIAS_DEPTH"}


def test_one_alias_chain_walk():
    """Only `analysis/aliases.walk_chain` loops along an alias chain: no
    other loop reads a hop limit. `AliasGraph.output_group` is the one other
    loop, a breadth-first walk over a call result's whole group (every alias
    reaching the root), not along one chain."""
    allowed = {"octoscript_lsp.analysis.aliases.output_group"}
    found = []
    for module, (_, tree) in _trees().items():
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for loop in ast.walk(function):
                if not isinstance(loop, (ast.For, ast.While)):
                    continue
                names = {node.id for node in ast.walk(loop) if isinstance(node, ast.Name)}
                if names & _HOP_LIMITS:
                    found.append(f"{module}.{function.name}")
    assert sorted(set(found) - allowed) == []
    walks = [
        f"{module}:{node.lineno}"
        for module, (_, tree) in _trees().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "walk_chain"
    ]
    assert len(walks) == 3  # imports, call results, record shapes


_SITE_RECOGNIZERS = {
    "member_site",
    "import_path_site",
    "tool_literal_site",
    "input_record_site",
    "call_context",
    "direct_callee",
}


def test_requests_render_the_one_site_classification():
    """Completion, hover, definition, signature help, references, highlights
    and rename ask `analysis/site_resolution` (`resolve_site` or its
    catalog-free part `resolve_binding`) what the cursor is at: none of them
    calls a site recognizer, nor looks up the binding at the cursor, in an
    order of its own."""
    renderers = (
        "completion",
        "hover",
        "signature",
        "catalog_assist",
        "navigation",
    )
    # The binding at the cursor and a member site's receiver are the
    # classifier's questions; a renderer gets their answers in its value.
    lookups = {"occurrence_at", "occurrence_ending_at", "MemberReceiver"}
    offenders = []
    for name in renderers:
        tree = ast.parse((PACKAGE / "features" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in _SITE_RECOGNIZERS | lookups:
                offenders.append(f"{name}:{node.lineno}")
            if isinstance(node, ast.alias) and node.name in _SITE_RECOGNIZERS | lookups:
                offenders.append(f"{name}:import {node.name}")
            if isinstance(node, ast.Attribute) and node.attr in lookups:
                offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


def _compared_strings(function: ast.FunctionDef) -> set[str]:
    """Strings a function compares with (`char == ","`, `x in "{}"`), not
    ones it writes out (an f-string building JSON or a snippet)."""
    found = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                for item in ast.walk(operand):
                    if isinstance(item, ast.Constant) and isinstance(item.value, str):
                        found.add(item.value)
    return found


def _reads_separated_braces(function: ast.FunctionDef) -> bool:
    """Tests for a `,` separator and a closing `}` (token kinds or text): the
    shape of a record-literal reader."""
    attributes = {node.attr for node in ast.walk(function) if isinstance(node, ast.Attribute)}
    strings = _compared_strings(function)
    comma = "COMMA" in attributes or any("," in value for value in strings)
    closing = "RBRACE" in attributes or any("}" in value for value in strings)
    return comma and closing


def test_one_record_literal_reader():
    """A record literal's entries are read by `record_scan.record_entries`
    alone (static shapes, the input-record checks and the input-record key
    site at the cursor); the parser, the formatter and the runtime parser's
    checks read the grammar, not this shape."""
    grammar = {"parser", "lexer", "control", "cursor", "formatter", "vm_compat"}
    found = _functions_outside_the_grammar(grammar, _reads_separated_braces)
    assert found == ["octoscript_lsp.analysis.record_scan.record_entries"]


# The parser makes the top-level steps (`ParseResult.units`) and adopts an
# earlier parse's; `syntax/statements.py` is the one loop over them.
_STEP_MAKERS = {
    "octoscript_lsp.syntax.parser",
    "octoscript_lsp.syntax.cursor",
    "octoscript_lsp.syntax.statements",
}
# Every full pass goes over `Statements.statements` instead.
_WINDOW_LOOPS: set[str] = set()


def _reads_units(node: ast.AST) -> bool:
    return any(
        (isinstance(item, ast.Name) and item.id in ("units", "old_units"))
        or (isinstance(item, ast.Attribute) and item.attr == "units")
        for item in ast.walk(node)
    )


def test_one_loop_over_top_level_statements():
    """No module but `syntax/statements.py` loops over the parser's top-level
    steps (the others go over `Statements`): no `for` or comprehension over
    `units`, and no loop whose body reads `units`."""
    offenders = []
    for module, (_, tree) in _trees().items():
        if module in _STEP_MAKERS:
            continue
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.comprehension) and _reads_units(node.iter):
                    offenders.append(f"{module}.{function.name}:{node.iter.lineno}")
                elif isinstance(node, (ast.For, ast.While)):
                    head = node.iter if isinstance(node, ast.For) else node.test
                    if _reads_units(head):
                        offenders.append(f"{module}.{function.name}:{node.lineno}")
                    elif any(map(_reads_units, node.body)):
                        if f"{module}.{function.name}" not in _WINDOW_LOOPS:
                            offenders.append(f"{module}.{function.name}:{node.lineno}")
    assert offenders == []


# The views that keep work per top-level statement from version to version.
_PER_STATEMENT_MODULES = {
    "octoscript_lsp.analysis.document",
    "octoscript_lsp.analysis.statement_facts",
    "octoscript_lsp.analysis.statement_index",
    "octoscript_lsp.features.semantic_tokens",
    "octoscript_lsp.features.symbols",
    "octoscript_lsp.syntax.formatter",
    "octoscript_lsp.syntax.outline",
    "octoscript_lsp.syntax.vm_compat",
}


def test_per_statement_work_is_keyed_by_its_statement():
    """Per-statement views key their work one way, by the statement they are
    a view of (`Statement.view`): none of them calls `id()` or slices a
    statement's text for a key of its own."""
    trees = _trees()
    identities = [
        f"{module}:{node.lineno}"
        for module in _PER_STATEMENT_MODULES
        for node in ast.walk(trees[module][1])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id"
    ]
    assert identities == []
    shared = sorted(
        {
            module
            for module, (_, tree) in trees.items()
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "shared"
        }
    )
    assert shared == []


def test_every_per_statement_view_is_a_statement_view():
    """Each per-statement view a version computed reaches the next version
    on the statements it kept (`Statement.view`, the one cache)."""
    text = "use mod.std.math\nlet a = 1\nfn f(x) {\n    return x + a\n}\nlet b = f(2)\n"
    first = DocumentAnalysis(text, 1)
    assert first.formatted == text
    assert first.imports.for_binding(12, 16) is not None  # `math`: the statement facts
    semantic_tokens.full_items(first)
    symbols.document_symbols_wire(first, PositionMap(text))
    second = DocumentAnalysis(text.replace("1", "7"), 2, first)
    # Formatting and the outline are views of the statements themselves
    # (`Statement.view`): a kept statement is the same object, views and all.
    kept = second.syntax.statements.statements[-1]
    assert kept is first.syntax.statements.statements[-1]
    views = {"formatted", "outline", "lexical summary", "statement facts"}
    assert views | {"semantic tokens", "document symbols"} <= kept.views.keys()


def test_one_replay_of_a_statements_scope_events():
    """Scope events are replayed by `summarize_unit` alone (the lexical
    summaries every per-statement view reads); the parser writes them and
    `parse_result` moves them."""
    allowed = {
        "octoscript_lsp.analysis.statement_index.summarize_unit",
        "octoscript_lsp.syntax.parse_result.shifted_event",
        "octoscript_lsp.syntax.cursor.push_scope",
        "octoscript_lsp.syntax.cursor.pop_scope",
    }
    found = set()
    for module, (_, tree) in _trees().items():
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef):
                for node in ast.walk(function):
                    if isinstance(node, ast.Name) and node.id in ("PUSH", "POP"):
                        found.add(f"{module}.{function.name}")
    assert found == allowed
