"""The package's shape, as docs/architecture.md states it: layers import only
earlier layers, no import cycles, no imports inside functions, no module over
800 lines."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "octoscript_lsp"
MAX_MODULE_LINES = 800

# What each layer may import from the package (besides itself).
ALLOWED = {
    "syntax": {"limits"},
    "catalogs": {"limits", "syntax", "schemas"},
    "analysis": {"limits", "syntax", "catalogs"},
    "features": {"limits", "syntax", "catalogs", "analysis"},
    # The language reference: the guide and grammar, and the analysis layer's tables.
    "reference": {"limits", "syntax", "analysis"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# Read once per run: every import statement resolves against the module list.
@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".")
        if not is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join([*parts, node.module] if node.module else parts)
    known = modules()
    found = []
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        found.append(candidate if candidate in known else base)
    return found


@cache
def runtime_imports(module: str, path: Path) -> list[str]:
    """Package modules imported when `module` is imported (TYPE_CHECKING blocks aside)."""
    tree = ast.parse(path.read_text())
    is_package = path.name == "__init__.py"
    found: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and _is_type_checking(node):
                continue
            if isinstance(node, ast.ImportFrom):
                found.extend(_resolve(module, is_package, node))
            elif isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)

    visit(tree.body)
    return [name for name in found if name.startswith("octoscript_lsp")]


def test_no_import_inside_a_function():
    offenders = []
    for module, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        offenders.append(f"{module}:{inner.lineno}")
    assert offenders == []


def test_layers_import_only_earlier_layers():
    offenders = []
    for module, path in modules().items():
        parts = module.split(".")
        layer = parts[1] if len(parts) > 1 else ""
        if layer not in ALLOWED:
            continue
        for imported in runtime_imports(module, path):
            target = imported.split(".")[1] if "." in imported else ""
            if target and target != layer and target not in ALLOWED[layer]:
                offenders.append(f"{module} -> {imported}")
    assert offenders == []


def test_no_import_cycle():
    graph = {module: set(runtime_imports(module, path)) for module, path in modules().items()}
    # A package's __init__ importing its own submodules is how packages work;
    # only cycles between modules count.
    for module in graph:
        graph[module] = {target for target in graph[module] if target in graph and target != module}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def walk(module: str, trail: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycle = trail[trail.index(target) :] + [target] if target in trail else []
                if not _through_init(cycle):
                    cycles.append(cycle)
            elif state.get(target) is None:
                walk(target, [*trail, target])
        state[module] = 2

    for module in sorted(graph):
        if state.get(module) is None:
            walk(module, [module])
    assert cycles == []


def _through_init(cycle: list[str]) -> bool:
    """A cycle through a package's __init__ that re-exports its submodules."""
    return any(
        cycle[index + 1].startswith(cycle[index] + ".")
        for index in range(len(cycle) - 1)
        if (PACKAGE.parent / cycle[index].replace(".", "/") / "__init__.py").exists()
    )


def test_no_module_over_800_lines():
    long = {
        module: count
        for module, path in modules().items()
        if (count := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}
