"""`format` writes: atomic replacement, kept mode, never over a file changed meanwhile."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from octoscript_lsp.cli import formatting, main
from octoscript_lsp.cli.inputs import ChangedOnDisk, read_source, write_atomically

MESSY = "let a=1\n"


def test_a_file_changed_while_formatting_is_not_overwritten(tmp_path, monkeypatch, capsys):
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    original = formatting.canonical_text

    def edit_meanwhile(source):
        result = original(source)
        path.write_text("let edited = 2\n")  # another writer, after the read
        return result

    monkeypatch.setattr(formatting, "canonical_text", edit_meanwhile)
    assert main(["format", str(path)]) == 2
    assert "changed on disk while formatting" in capsys.readouterr().err
    assert path.read_text() == "let edited = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.octoscript"]


def test_same_size_rewrite_is_detected_by_content(tmp_path):
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    source = read_source(str(path))
    stamp = path.stat()
    path.write_text("let b=1\n")  # same length
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # same mtime too
    with pytest.raises(ChangedOnDisk):
        write_atomically(source, "let a = 1\n")
    assert path.read_text() == "let b=1\n"


def test_symlink_target_is_rewritten_and_link_kept(tmp_path):
    target = tmp_path / "real.octoscript"
    target.write_text(MESSY)
    target.chmod(0o600)
    link = tmp_path / "link.octoscript"
    link.symlink_to(target)
    assert main(["format", str(link)]) == 0
    assert link.is_symlink()
    assert target.read_text() == "let a = 1\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    source = read_source(str(path))

    def refuse(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        write_atomically(source, "let a = 1\n")
    assert path.read_text() == MESSY
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == ["f.octoscript"]


@pytest.mark.parametrize("failing", ["mkstemp", "replace"])
def test_a_write_that_fails_is_reported_and_the_other_files_formatted(
    tmp_path, monkeypatch, capsys, failing
):
    first, second = tmp_path / "a.octoscript", tmp_path / "b.octoscript"
    first.write_text(MESSY)
    second.write_text(MESSY)
    target = tempfile if failing == "mkstemp" else os
    working = getattr(target, failing)

    def refuse_first(*args, **kwargs):
        if failing == "replace" and str(args[1]).endswith("b.octoscript"):
            return working(*args, **kwargs)
        if failing == "mkstemp" and kwargs.get("prefix", "").startswith(".b."):
            return working(*args, **kwargs)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(target, failing, refuse_first)
    assert main(["format", str(first), str(second)]) == 2
    assert f"octoscript: cannot write {first}: Permission denied" in capsys.readouterr().err
    assert first.read_text() == MESSY
    assert second.read_text() == "let a = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.octoscript", "b.octoscript"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_owner_and_group_are_kept(tmp_path):
    path = tmp_path / "f.octoscript"
    path.write_text(MESSY)
    os.chown(path, 4321, 4322)
    path.chmod(0o640)
    assert main(["format", str(path)]) == 0
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 4322, 0o640)
    assert path.read_text() == "let a = 1\n"
