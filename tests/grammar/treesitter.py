"""Build and load the tree-sitter grammar in grammar/tree-sitter-octoscript.

The committed generated C sources need only a C compiler: `compile_parser`
turns them into a shared library and `load_language` hands its
`tree_sitter_octoscript()` to py-tree-sitter.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Language, Node, Parser, Tree

REPO = Path(__file__).resolve().parents[2]
GRAMMAR_DIR = REPO / "grammar" / "tree-sitter-octoscript"
QUERIES_DIR = GRAMMAR_DIR / "queries"
NEOVIM_QUERIES_DIR = REPO / "editors" / "neovim" / "queries" / "octoscript"
QUERY_FILES = ("highlights.scm", "locals.scm", "folds.scm", "indents.scm", "textobjects.scm")
# The CLI sits beside the repository in the development workspace; a clean
# clone elsewhere (CI) may not have it.
TREE_SITTER_CLI = REPO.parent / "shared" / "tools" / "tree-sitter"
# py-tree-sitter's name for a capsule that wraps a `const TSLanguage *`.
_CAPSULE_NAME = b"tree_sitter.Language"


@dataclass(frozen=True)
class LoadedGrammar:
    language: Language
    library_path: Path
    # Keeps the shared library mapped for as long as the language is used.
    library: ctypes.CDLL

    def parser(self) -> Parser:
        return Parser(self.language)


def c_compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def compile_parser(compiler: str, out_dir: Path) -> Path:
    """Compile src/parser.c (and src/scanner.c if present) into a shared library."""
    sources = [GRAMMAR_DIR / "src" / "parser.c"]
    scanner = GRAMMAR_DIR / "src" / "scanner.c"
    if scanner.exists():
        sources.append(scanner)
    library = out_dir / "octoscript.so"
    command = [compiler, "-shared", "-fPIC", "-O1", "-I", str(GRAMMAR_DIR / "src")]
    subprocess.run(
        [*command, *map(str, sources), "-o", str(library)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return library


def load_language(library_path: Path) -> LoadedGrammar:
    library = ctypes.CDLL(str(library_path))
    entry = library.tree_sitter_octoscript
    entry.restype = ctypes.c_void_p
    capsule_new = ctypes.pythonapi.PyCapsule_New
    capsule_new.restype = ctypes.py_object
    capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    language = Language(capsule_new(entry(), _CAPSULE_NAME, None))
    return LoadedGrammar(language, library_path, library)


def syntax_problems(tree: Tree) -> list[str]:
    """ERROR and MISSING nodes of a tree, as `kind type at row:column` strings."""
    problems: list[str] = []
    stack: list[Node] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            kind = "MISSING" if node.is_missing else "ERROR"
            row, column = node.start_point
            problems.append(f"{kind} {node.type} at {row + 1}:{column + 1}")
        if node.has_error:
            stack.extend(node.children)
    return problems
