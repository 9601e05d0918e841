"""The C allocator's settings for a long-running server (glibc only).

At the token budget a version's token list is 256 KiB and the largest
answers are a few hundred KiB of JSON text (an outline, semantic tokens);
every keystroke and such request allocates and frees a few blocks that
size. glibc's defaults serve a block past 128 KiB from pages it maps
afresh (raising that bar as blocks are freed) and return the free top of
its heap to the kernel once it passes twice that bar, so a request that
frees a few of them gives their pages back and the next one faults them
in again: ~200 minor page faults and ~1 ms of kernel CPU per outline
request at 4,090 lines (docs/performance.md). With fixed bars that the
server's blocks stay under, they are carved from the heap and its freed
top is kept for the next request.

Nothing changes where the C library is not glibc (macOS, musl, Windows):
the server works the same, with the library's own policy.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import ModuleType

from .limits import C_HEAP_MMAP_THRESHOLD_BYTES, C_HEAP_TRIM_THRESHOLD_BYTES

ctypes: ModuleType | None
try:
    import ctypes
except ImportError:
    # A Python built without libffi has no `_ctypes`; the server runs
    # without it (nothing else it loads needs ctypes), so must this module.
    ctypes = None

# glibc's `mallopt` parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def keep_large_blocks_in_heap(
    mmap_threshold: int = C_HEAP_MMAP_THRESHOLD_BYTES,
    trim_threshold: int = C_HEAP_TRIM_THRESHOLD_BYTES,
) -> bool:
    """Serve blocks up to `mmap_threshold` bytes from the heap and keep up
    to `trim_threshold` bytes of its free top; whether glibc took both."""
    mallopt = glibc_mallopt()
    if mallopt is None:
        return False
    # Setting either bar also fixes the other (glibc stops moving them).
    return bool(mallopt(M_MMAP_THRESHOLD, mmap_threshold)) and bool(
        mallopt(M_TRIM_THRESHOLD, trim_threshold)
    )


def glibc_mallopt() -> Callable[[int, int], int] | None:
    """glibc's `mallopt`, from the symbols already loaded; None elsewhere."""
    if ctypes is None or not is_glibc():
        return None
    try:
        # dlopen(NULL): the running program and the libraries it has loaded.
        function = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_int)
    function.restype = ctypes.c_int
    return function


def is_glibc() -> bool:
    """Whether the C library is glibc (asked of the library, no file read)."""
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
    except (AttributeError, ValueError, OSError):
        # No `os.confstr` (Windows), no such name (macOS: ValueError), or
        # the library refuses it (musl: EINVAL, an OSError).
        return False
    return bool(version) and version.startswith("glibc")
