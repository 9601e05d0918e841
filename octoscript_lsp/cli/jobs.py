"""`--jobs N`: one function over many files, spread over worker processes.

The files go out in batches of consecutive files (at most
CLI_FILES_PER_TASK); a worker folds a batch into one small result (what to
print, counts), so the parent's share of the run (receiving, printing,
adding up) stays small beside the workers' and the messages between them
cost little. Results come back in the order of the batches, and one job runs
the very same batches in the one process, so what a command prints (and its
exit code) is the same whatever the number of jobs.

Workers are forked where the platform allows, after the command's modules
are imported: they share those modules, the command's options (catalogs
included) and the list of batches without importing or pickling them again.
Each takes the next batch number from a shared counter (so a worker slowed
by a busy machine simply takes fewer) and sends each result back on a pipe
of its own; the parent waits on those pipes alone. (`multiprocessing.Pool`
is not used: its worker-watching thread wakes on every result still unread,
and on two cores that spinning took about a tenth of the run from the
workers.)
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from ..limits import (
    CLI_BATCHES_PER_WORKER,
    CLI_FILES_PER_TASK,
    CLI_MIN_FILES_FOR_JOBS,
    MAX_CLI_JOBS,
)

Result = TypeVar("Result")
Counts = TypeVar("Counts")  # a dataclass of numbers, lists and Counters with `add(done)`


@dataclass
class Batch(Generic[Counts]):
    """Consecutive files' outcomes, folded: small to send back from a worker."""

    counts: Counts
    # (stderr, stdout) of each file that printed anything, in order.
    printed: list[tuple[str, str]] = field(default_factory=list)


def fold(
    one: Callable[[Any, Any], Any], counts: Callable[[], Any], options: Any, items: Sequence[Any]
) -> Batch[Any]:
    """`one(options, item)` (with `stdout` and `stderr`) for each item; a file that
    prints nothing adds only to the counts."""
    batch = Batch(counts())
    for item in items:
        done = one(options, item)
        if done.stderr or done.stdout:
            batch.printed.append((done.stderr, done.stdout))
        batch.counts.add(done)
    return batch


class WorkerFailed(RuntimeError):
    """A worker raised or died; the message holds what it reported."""


def default_jobs() -> int:
    """The cores this process may run on (what `--jobs` defaults to)."""
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:  # not every platform has affinity masks
        count = os.cpu_count() or 1
    return max(1, min(count, MAX_CLI_JOBS))


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def _work(
    function: Callable[[Any, Sequence[Any]], Any],
    options: Any,
    work: list[Sequence[Any]],
    counter: Any,
    results: Connection,
) -> None:
    """A worker: take batch numbers from `counter` until none is left, send
    (number, result) for each, then (None, None)."""
    try:
        while True:
            with counter.get_lock():
                number = counter.value
                counter.value += 1
            if number >= len(work):
                break
            results.send((number, function(options, work[number])))
        results.send((None, None))
    except BaseException:
        results.send((-1, traceback.format_exc()))
    finally:
        results.close()


def worker_count(items: int, jobs: int) -> int:
    """Processes worth starting for `items` files: one below CLI_MIN_FILES_FOR_JOBS,
    and never fewer than half that many files per worker."""
    if jobs <= 1 or items < CLI_MIN_FILES_FOR_JOBS:
        return 1
    return max(1, min(jobs, MAX_CLI_JOBS, items // max(1, CLI_MIN_FILES_FOR_JOBS // 2)))


def batches(items: Sequence[Any], workers: int) -> list[Sequence[Any]]:
    """Consecutive slices: at most CLI_FILES_PER_TASK items, and at least
    CLI_BATCHES_PER_WORKER per worker, so that the workers finish together."""
    size = -(-len(items) // (workers * CLI_BATCHES_PER_WORKER))
    size = max(1, min(CLI_FILES_PER_TASK, size))
    return [items[start : start + size] for start in range(0, len(items), size)]


def map_batches_in_order(
    function: Callable[[Any, Sequence[Any]], Result],
    options: Any,
    items: Sequence[Any],
    jobs: int,
) -> Iterator[Result]:
    """`function(options, batch)` for consecutive batches of `items` (files and
    what goes with them), in order, over at most `jobs` processes. Each result
    is yielded as soon as it and those before it are done."""
    workers = worker_count(len(items), jobs)
    work = batches(items, workers)
    if workers <= 1:
        for batch in work:
            yield function(options, batch)
        return
    yield from _in_workers(function, options, work, workers)


def _in_workers(
    function: Callable[[Any, Sequence[Any]], Result],
    options: Any,
    work: list[Sequence[Any]],
    workers: int,
) -> Iterator[Result]:
    context = _context()
    counter = context.Value("l", 0)
    # A forked worker would print again whatever the parent had not flushed.
    sys.stdout.flush()
    sys.stderr.flush()
    processes = []
    pipes: list[Connection] = []
    finished = False
    try:
        for _ in range(workers):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(
                target=_work, args=(function, options, work, counter, sender), daemon=True
            )
            process.start()
            sender.close()  # the worker's end: the parent sees EOF when the worker is gone
            processes.append(process)
            pipes.append(receiver)
        yield from _collect(pipes, len(work))
        finished = True
    finally:
        # Done, every worker has said so and is exiting; otherwise (a failure,
        # an interrupt, a closed output) the rest of the work is dropped.
        for process in processes:
            if not finished:
                process.terminate()
            process.join()
        for receiver in pipes:
            receiver.close()


def _collect(pipes: list[Connection], count: int) -> Iterator[Any]:
    """The results from the workers' pipes, in batch order, each as soon as it can go."""
    done: dict[int, Any] = {}
    following = 0
    open_pipes = list(pipes)
    while following < count:
        if not open_pipes:
            raise WorkerFailed("a worker stopped before its batches were done")
        for ready in wait(open_pipes):
            assert isinstance(ready, Connection)
            try:
                number, result = ready.recv()
            except EOFError:
                # Gone without saying it was done: killed (a signal, the
                # out-of-memory killer), perhaps holding the batch counter's
                # lock, which would leave the others waiting for good.
                raise WorkerFailed("a worker stopped before its batches were done") from None
            if number is None:
                open_pipes.remove(ready)
            elif number < 0:
                raise WorkerFailed(result)
            else:
                done[number] = result
        while following in done:
            yield done.pop(following)
            following += 1


def run_batches(
    function: Callable[[Any, Sequence[Any]], Batch[Counts]],
    options: Any,
    items: Sequence[Any],
    jobs: int,
    total: Counts,
) -> Counts:
    """Print each batch's output as one job would have, file by file, and add its
    counts to `total`."""
    for batch in map_batches_in_order(function, options, items, jobs):
        for stderr, stdout in batch.printed:
            sys.stderr.write(stderr)
            sys.stdout.write(stdout)
        for item in fields(total):
            name = item.name
            setattr(total, name, getattr(total, name) + getattr(batch.counts, name))
    return total
