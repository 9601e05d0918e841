"""Fixtures for the tree-sitter grammar tests: one compiled parser per session."""

from __future__ import annotations

import pytest

from .treesitter import LoadedGrammar, c_compiler, compile_parser, load_language


@pytest.fixture(scope="session")
def grammar(tmp_path_factory: pytest.TempPathFactory) -> LoadedGrammar:
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH to build the tree-sitter parser")
    library = compile_parser(compiler, tmp_path_factory.mktemp("tree-sitter"))
    return load_language(library)
