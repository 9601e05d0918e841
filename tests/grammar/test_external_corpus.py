"""Every valid program of an external corpus parses (opt-in).

Point OCTOSCRIPT_TREE_SITTER_CORPUS at directories (separated by the path
separator) of `*.octoscript`, `*.octo` or `*.splash` files, e.g. a checkout
of the reference's fixtures and fuzz corpus, or a private corpus:

    OCTOSCRIPT_TREE_SITTER_CORPUS=~/corpus pytest -q tests/grammar/test_external_corpus.py -s

Files the checker rejects, or that exceed the source budget, are counted but
not parsed; the test prints the pass rate and fails on the first few valid
programs that leave an ERROR or MISSING node.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from octoscript_lsp.limits import MAX_SOURCE_BYTES
from octoscript_lsp.syntax.check import analyze_syntax

from .test_parse import canonical
from .treesitter import LoadedGrammar, syntax_problems

CORPUS_SUFFIXES = (".octoscript", ".octo", ".splash")
REPORTED_FAILURES = 10


def corpus_files() -> list[Path]:
    setting = os.environ.get("OCTOSCRIPT_TREE_SITTER_CORPUS", "")
    directories = [Path(part).expanduser() for part in setting.split(os.pathsep) if part]
    return sorted(
        path
        for directory in directories
        for path in directory.rglob("*")
        if path.is_file() and path.suffix in CORPUS_SUFFIXES
    )


@pytest.mark.skipif(
    not os.environ.get("OCTOSCRIPT_TREE_SITTER_CORPUS"),
    reason="set OCTOSCRIPT_TREE_SITTER_CORPUS to directories of programs to parse",
)
def test_every_valid_corpus_program_parses(grammar: LoadedGrammar) -> None:
    files = corpus_files()
    assert files, "no *.octoscript, *.octo or *.splash files in OCTOSCRIPT_TREE_SITTER_CORPUS"
    parser = grammar.parser()
    valid = 0
    failures: list[str] = []
    for path in files:
        data = path.read_bytes()
        if len(data) > MAX_SOURCE_BYTES:
            continue
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if not canonical(analyze_syntax(source)):
            continue
        valid += 1
        problems = syntax_problems(parser.parse(data))
        if problems:
            failures.append(f"{path}: {', '.join(problems[:3])}")
    parsed = valid - len(failures)
    rate = parsed / max(valid, 1)
    print(f"\n{len(files)} files, {valid} valid, {parsed} parse cleanly ({rate:.2%})")
    assert not failures, "\n".join(failures[:REPORTED_FAILURES])
