"""`--jobs N`: one function over many files, spread over worker processes.

Results come back in the order of the files, so what a command prints (and
its exit code) is the same whatever the number of jobs. Workers are forked
where the platform allows, so they share the already imported modules and
the command's options (catalogs included) without pickling them; each file's
result is a small value the parent prints.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..limits import CLI_FILES_PER_TASK, CLI_MIN_FILES_FOR_JOBS, MAX_CLI_JOBS

Result = TypeVar("Result")

# Set in each worker by `_install` (forked workers inherit it as well).
_task: tuple[Callable[[Any, Any], Any], Any] | None = None


def default_jobs() -> int:
    """The cores this process may run on (what `--jobs` defaults to)."""
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:  # not every platform has affinity masks
        count = os.cpu_count() or 1
    return max(1, min(count, MAX_CLI_JOBS))


def _install(function: Callable[[Any, Any], Any], options: Any) -> None:
    global _task
    _task = (function, options)


def _call(item: Any) -> Any:
    assert _task is not None
    function, options = _task
    return function(options, item)


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def map_in_order(
    function: Callable[[Any, Any], Result], options: Any, paths: Sequence[Any], jobs: int
) -> Iterator[Result]:
    """`function(options, item)` for each item (a file and what goes with it), in order,
    over at most `jobs` processes."""
    workers = min(jobs, MAX_CLI_JOBS, len(paths) // max(1, CLI_MIN_FILES_FOR_JOBS // 2))
    if jobs <= 1 or len(paths) < CLI_MIN_FILES_FOR_JOBS or workers <= 1:
        for item in paths:
            yield function(options, item)
        return
    with _context().Pool(workers, initializer=_install, initargs=(function, options)) as pool:
        yield from pool.imap(_call, paths, chunksize=CLI_FILES_PER_TASK)
