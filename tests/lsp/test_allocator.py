"""The C allocator's settings (`allocator.py`): taken on glibc, skipped elsewhere,
and what they are for: big blocks freed and made again fault no pages in."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from octoscript_lsp import allocator
from octoscript_lsp.limits import C_HEAP_MMAP_THRESHOLD_BYTES, C_HEAP_TRIM_THRESHOLD_BYTES

ON_GLIBC = allocator.is_glibc()


class _Mallopt:
    """A stand-in for the C function: records its calls, takes `argtypes`."""

    def __init__(self, answer: int) -> None:
        self.calls: list[tuple[int, int]] = []
        self.answer = answer

    def __call__(self, parameter: int, value: int) -> int:
        self.calls.append((parameter, value))
        return self.answer


class _Library:
    """A stand-in for `ctypes.CDLL(None)`."""

    def __init__(self, answer: int) -> None:
        self.mallopt = _Mallopt(answer)


@pytest.fixture
def on_glibc(monkeypatch):
    monkeypatch.setattr(allocator.os, "confstr", lambda name: "glibc 2.36")


def test_both_bars_are_set_to_the_named_limits(monkeypatch, on_glibc):
    library = _Library(answer=1)
    monkeypatch.setattr(allocator.ctypes, "CDLL", lambda name: library)
    assert allocator.keep_large_blocks_in_heap() is True
    assert library.mallopt.calls == [
        (allocator.M_MMAP_THRESHOLD, C_HEAP_MMAP_THRESHOLD_BYTES),
        (allocator.M_TRIM_THRESHOLD, C_HEAP_TRIM_THRESHOLD_BYTES),
    ]


def test_a_refused_setting_is_reported(monkeypatch, on_glibc):
    library = _Library(answer=0)  # mallopt's "error"
    monkeypatch.setattr(allocator.ctypes, "CDLL", lambda name: library)
    assert allocator.keep_large_blocks_in_heap() is False
    assert library.mallopt.calls == [(allocator.M_MMAP_THRESHOLD, C_HEAP_MMAP_THRESHOLD_BYTES)]


@pytest.mark.parametrize(
    "confstr_answer",
    [
        ValueError("unrecognized configuration name"),  # macOS: no such name
        OSError(22, "Invalid argument"),  # musl: the name exists, the library refuses it
        None,
        "musl libc 1.2.4",
    ],
)
def test_other_c_libraries_are_left_alone(monkeypatch, confstr_answer):
    def confstr(name: str) -> str | None:
        if isinstance(confstr_answer, Exception):
            raise confstr_answer
        return confstr_answer

    def no_library(name):
        raise AssertionError("no C library is opened where it is not glibc")

    monkeypatch.setattr(allocator.os, "confstr", confstr)
    monkeypatch.setattr(allocator.ctypes, "CDLL", no_library)
    assert allocator.is_glibc() is False
    assert allocator.keep_large_blocks_in_heap() is False


def test_a_library_without_mallopt_is_left_alone(monkeypatch, on_glibc):
    monkeypatch.setattr(allocator.ctypes, "CDLL", lambda name: object())
    assert allocator.glibc_mallopt() is None
    assert allocator.keep_large_blocks_in_heap() is False


def test_a_python_without_ctypes_is_left_alone(monkeypatch, on_glibc):
    monkeypatch.setattr(allocator, "ctypes", None)
    assert allocator.glibc_mallopt() is None
    assert allocator.keep_large_blocks_in_heap() is False


def test_the_server_loads_without_ctypes():
    # As on a Python built without libffi: importing `_ctypes` fails.
    script = (
        "import sys; sys.modules['_ctypes'] = None\n"
        "import octoscript_lsp.server\n"
        "from octoscript_lsp import allocator\n"
        "print(allocator.ctypes, allocator.keep_large_blocks_in_heap())\n"
    )
    answer = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert answer.stdout.split() == ["None", "False"]


# A request's worth of big blocks (a token list, an answer's texts), made
# and freed 40 times; prints the minor page faults of the last 30 rounds.
# The blocks are written through (`bytes * n`, not a calloc that may skip
# fresh zero pages), and transparent huge pages are off for the process,
# so the count is one fault per page touched afresh wherever it runs.
_SIZES = (256 * 1024, 222 * 1024, 222 * 1024, 180 * 1024)
_COUNTED_ROUNDS = 30
_ROUNDS = textwrap.dedent(
    f"""
    import ctypes, resource, sys
    from octoscript_lsp import allocator
    PR_SET_THP_DISABLE = 41
    ctypes.CDLL(None).prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)
    if sys.argv[1] == "tuned":
        assert allocator.keep_large_blocks_in_heap()
    for round in range(10 + {_COUNTED_ROUNDS}):
        if round == 10:
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        blocks = [b"\\x01" * size for size in {_SIZES}]
        del blocks
    print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    """
)


def _faults(mode: str) -> int:
    # glibc's defaults, whatever the environment tunes (GLIBC_TUNABLES,
    # MALLOC_TRIM_THRESHOLD_, ... would change the policy compared against).
    environment = {
        name: value
        for name, value in os.environ.items()
        if name != "GLIBC_TUNABLES" and not name.startswith("MALLOC_")
    }
    answer = subprocess.run(
        [sys.executable, "-c", _ROUNDS, mode],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    return int(answer.stdout)


@pytest.mark.skipif(not ON_GLIBC, reason="the settings are glibc's")
def test_blocks_made_again_reuse_resident_pages():
    # Without the settings each round's blocks come from pages given back
    # to the kernel by the round before (~190 of the 220 4 KiB pages they
    # span, a round); with them, from the heap the first rounds left.
    pages_a_round = sum(_SIZES) // os.sysconf("SC_PAGE_SIZE")  # 220 at 4 KiB
    default, tuned = _faults("default"), _faults("tuned")
    assert default >= _COUNTED_ROUNDS * pages_a_round // 2
    assert tuned <= _COUNTED_ROUNDS
