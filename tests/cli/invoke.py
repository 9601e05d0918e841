"""The `octoscript` command run in this process, as a subprocess would see it.

Starting the interpreter costs more than most checks the CLI tests make, so
the tests of options, rules, fixes and output call `main` here; the
subprocess itself (its entry point, exit codes, real streams) is
`tests/cli/test_end_to_end.py`'s.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from octoscript_lsp.cli import main


@contextmanager
def _streams(stdin: bytes) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", newline="\n", write_through=True)
    wrappers = sys.stdin, sys.stdout, sys.stderr
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for wrapper in wrappers:
            wrapper.flush()
            wrapper.detach()  # so that dropping it does not close the buffer read below


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """What `octoscript ARGS` exits with and prints, run in `cwd`."""
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with _streams(stdin.encode("utf-8")) as (out, err):
            code = main(list(args))
        return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
    finally:
        os.chdir(here)
