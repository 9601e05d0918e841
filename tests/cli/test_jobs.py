"""`--jobs N`: the same bytes and exit code as one job, whatever N."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from octoscript_lsp.cli.jobs import (
    WorkerFailed,
    batches,
    default_jobs,
    map_batches_in_order,
    worker_count,
)
from octoscript_lsp.cli.main import main as cli_main
from octoscript_lsp.limits import CLI_FILES_PER_TASK, CLI_MIN_FILES_FOR_JOBS

FILES = 3 * CLI_MIN_FILES_FOR_JOBS


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "octoscript_lsp.cli", *args],
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """Valid, invalid and unreadable files, interleaved, in two folders."""
    for index in range(FILES):
        folder = tmp_path / f"group_{index % 2}"
        folder.mkdir(exist_ok=True)
        path = folder / f"f{index:03d}.octoscript"
        kind = index % 4
        if kind == 0:
            path.write_text(f"let a{index} = {index}\n")
        elif kind == 1:
            path.write_text(f"let b{index} = 'x'\nvar c = [1, 2,]\n")
        elif kind == 2:
            path.write_bytes(b'let s = "\xff"\n')  # not UTF-8: unreadable
        else:
            path.symlink_to(tmp_path / "missing" / f"{index}.octoscript")  # dangling
    (tmp_path / "settings.json").write_text(
        json.dumps({"toolCatalog": [{"name": "text.echo", "format": "text"}]})
    )
    (tmp_path / "group_0" / "call.octoscript").write_text(
        'use mod.tool\nlet r = tool.call("text.ecko", "x")\n'
    )
    return tmp_path


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--output-format", "json"],
        ["--output-format", "github", "--settings", "settings.json"],
    ],
)
def test_check_two_jobs_print_the_same_bytes_as_one(mixed: Path, options: list[str]) -> None:
    one = run("check", "--jobs", "1", *options, ".", cwd=mixed)
    two = run("check", "--jobs", "2", *options, ".", cwd=mixed)
    assert one.returncode == two.returncode == 2  # unreadable files
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr
    assert one.stderr.count(b"cannot read") == FILES // 2
    assert len(one.stdout) > 0


def test_format_two_jobs_print_the_same_bytes_and_write_the_same(mixed: Path) -> None:
    copy = mixed.parent / (mixed.name + "-copy")
    subprocess.run(["cp", "-a", str(mixed), str(copy)], check=True)
    for folder in (mixed, copy):
        for index in range(0, FILES, 4):
            (folder / f"group_{index % 2}" / f"f{index:03d}.octoscript").write_text(
                f"let a{index}={index}\n"
            )
    one = run("format", "--jobs", "1", ".", cwd=mixed)
    two = run("format", "--jobs", "2", ".", cwd=copy)
    assert one.returncode == two.returncode == 2
    assert (one.stdout, one.stderr) == (two.stdout, two.stderr)
    assert b"reformatted group_0/f000.octoscript\n" in one.stderr
    assert one.stderr.endswith(
        b"12 files reformatted, 1 file left unchanged, 36 files could not be formatted\n"
    )
    assert (copy / "group_0" / "f000.octoscript").read_text() == "let a0 = 0\n"


@pytest.mark.parametrize(
    "command",
    [
        ["check", "--settings", "settings.json", "."],
        ["check", "--fix", "--diff", "."],
        ["format", "--check", "."],
    ],
)
def test_check_and_format_load_no_protocol_modules(mixed: Path, command: list[str]) -> None:
    """Everything imported before the workers fork is paid once per run: the
    protocol's types (about 0.2 s to import) are the server's alone."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "octoscript_lsp.cli", *command],
        capture_output=True,
        cwd=mixed,
        timeout=120,
        check=False,
    )
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.decode().splitlines()]
    assert "octoscript_lsp.cli.main" in imported
    assert "octoscript_lsp.analysis.fixes" in imported
    assert [name for name in imported if name.split(".")[0] in ("lsprotocol", "pygls")] == []


def _squares(offset: int, batch: list[str]) -> tuple[int, list[tuple[str, int]]]:
    """(worker's process id, each path with offset + len(path) ** 2)."""
    return os.getpid(), [(path, offset + len(path) ** 2) for path in batch]


def test_batches_come_back_in_order_whatever_the_jobs() -> None:
    paths = [str(index) * (index % 7 + 1) for index in range(200)]
    expected = [(path, 3 + len(path) ** 2) for path in paths]
    for jobs in (1, 2):
        results = list(map_batches_in_order(_squares, 3, paths, jobs))
        assert [row for _, batch in results for row in batch] == expected
        workers = {pid for pid, _ in results}
        assert (workers == {os.getpid()}) if jobs == 1 else (os.getpid() not in workers)


def _fails_on_seven(offset: int, batch: list[int]) -> list[int]:
    if 7 in batch:
        raise ValueError("seven")
    return [offset + item for item in batch]


def test_a_failing_worker_fails_the_run_with_its_traceback() -> None:
    with pytest.raises(WorkerFailed, match="ValueError: seven"):
        list(map_batches_in_order(_fails_on_seven, 1, list(range(100)), 2))
    with pytest.raises(ValueError, match="seven"):
        list(map_batches_in_order(_fails_on_seven, 1, list(range(100)), 1))


def _dies_on_seven(offset: int, batch: list[int]) -> list[int]:
    if 7 in batch:
        os._exit(9)  # as a worker the out-of-memory killer took
    return [offset + item for item in batch]


def test_a_killed_worker_fails_the_run() -> None:
    with pytest.raises(WorkerFailed, match="stopped before its batches were done"):
        list(map_batches_in_order(_dies_on_seven, 1, list(range(100)), 2))


def _dies_on_seven_others_wait(offset: int, batch: list[int]) -> list[int]:
    if 7 in batch:
        os._exit(9)
    time.sleep(600)  # as workers left waiting for a lock the dead one held
    return batch


def test_a_killed_worker_fails_the_run_at_once_not_after_the_others() -> None:
    failed: list[BaseException] = []

    def run() -> None:
        try:
            list(map_batches_in_order(_dies_on_seven_others_wait, 1, list(range(100)), 2))
        except WorkerFailed as error:
            failed.append(error)

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(60)  # a hang guard: the run ends as soon as the worker is gone
    assert not runner.is_alive()
    assert len(failed) == 1


def test_a_failed_worker_is_an_error_not_a_finding(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(args: object) -> int:
        raise WorkerFailed("a worker stopped before its batches were done")

    # `octoscript_lsp.cli.main` the attribute is the function; the module is here.
    module = sys.modules[cli_main.__module__]
    monkeypatch.setattr(module, "_run", failing)
    assert cli_main(["check", "--exit-zero", "."]) == 2
    assert capsys.readouterr().err == (
        "octoscript: a worker process failed: a worker stopped before its batches were done\n"
    )


def test_batches_are_consecutive_and_bounded() -> None:
    items = list(range(10_000))
    cut = batches(items, 2)
    assert [item for batch in cut for item in batch] == items
    assert max(len(batch) for batch in cut) == CLI_FILES_PER_TASK
    # A few files still give every worker several batches.
    few = batches(items[:40], 2)
    assert len(few) >= 8 and [item for batch in few for item in batch] == items[:40]
    assert worker_count(CLI_MIN_FILES_FOR_JOBS - 1, 4) == 1
    assert worker_count(10_000, 1) == 1
    assert worker_count(10_000, 2) == 2


def test_bad_jobs_value_is_a_usage_error(tmp_path: Path) -> None:
    result = run("check", "--jobs", "0", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert b"--jobs" in result.stderr
    assert default_jobs() >= 1
