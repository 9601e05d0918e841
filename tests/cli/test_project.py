"""Project configuration and file discovery, end to end (real processes, real folders)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from octoscript_lsp.limits import MAX_IGNORE_FILE_BYTES
from tests.cli.invoke import run
from tests.cli.test_end_to_end import err, out

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "project"
ECHO = {"toolCatalog": [{"name": "text.echo", "format": "text"}]}
ECKO = 'use mod.tool\nlet r = tool.call("text.ecko", "x")\n'
BROKEN = "let broken = 'x'\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_example_project_reports_exactly_its_findings() -> None:
    result = run("check", cwd=EXAMPLE)
    assert out(result) == (
        "flows/order.octoscript:6:49: warning: `expres` is not an input field of this call; "
        "did you mean `express`? [unknown-input-field]\n"
        "flows/order.octoscript:7:11: warning: the tool catalog does not list `text.ecko`; "
        "did you mean `text.echo`? [unlisted-tool]\n"
        "flows/typo.octoscript:4:22: warning: the tool catalog does not list `text.ecko`; "
        "did you mean `text.echo`? [unlisted-tool]\n"
        "checked 3 files: 0 errors, 3 warnings\n"
    )
    assert err(result) == ""
    assert result.returncode == 1  # strict = true in its pyproject.toml


def test_the_example_project_fixes_cleanly(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    result = run("check", "--fix", cwd=project)
    assert result.returncode == 0, out(result) + err(result)
    order = (project / "flows" / "order.octoscript").read_text()
    assert '"text.echo"' in order and "express: true" in order
    assert '"text.echo"' in (project / "flows" / "typo.octoscript").read_text()


def test_nearest_configuration_wins(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.octoscript]\nignore = ["single-quoted"]\n')
    write(tmp_path / "a.octoscript", BROKEN)
    write(tmp_path / "inner" / "octoscript.toml", 'select = ["single-quoted"]\n')
    write(tmp_path / "inner" / "b.octoscript", BROKEN)
    # A pyproject.toml without a table is passed over.
    write(tmp_path / "other" / "pyproject.toml", '[project]\nname = "x"\n')
    write(tmp_path / "other" / "c.octoscript", BROKEN)
    result = run("check", cwd=tmp_path)
    assert out(result) == (
        "inner/b.octoscript:1:14: error: only double-quoted strings are part of canonical "
        "Octoscript [single-quoted-string]\n"
        "checked 3 files: 1 error, 0 warnings\n"
    )
    # From inside a folder, its own configuration applies as well.
    inner = run("check", "b.octoscript", cwd=tmp_path / "inner")
    assert inner.returncode == 1
    assert run("check", "c.octoscript", cwd=tmp_path / "other").returncode == 0


def test_flags_override_the_configuration(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.octoscript]\nignore = ["single"]\nstrict = true\n')
    write(tmp_path / "a.octoscript", BROKEN)
    assert run("check", cwd=tmp_path).returncode == 0
    # --select replaces the configuration's select; --ignore adds to its ignore.
    assert run("check", "--isolated", cwd=tmp_path).returncode == 1
    other = write(tmp_path / "elsewhere.toml", 'ignore = ["trailing-comma"]\n')
    assert run("check", "--config", str(other), cwd=tmp_path).returncode == 1
    write(tmp_path / "w.octoscript", ECKO)
    write(tmp_path / "host.json", json.dumps(ECHO))
    strict = run("check", "--settings", "host.json", "w.octoscript", cwd=tmp_path)
    assert strict.returncode == 1  # strict from the configuration
    lenient = run("check", "--settings", "host.json", "--no-strict", "w.octoscript", cwd=tmp_path)
    assert lenient.returncode == 0


def test_configuration_names_catalogs_relative_to_itself(tmp_path: Path) -> None:
    write(tmp_path / "host" / "tools.json", json.dumps(ECHO))
    write(tmp_path / "octoscript.toml", 'catalogFiles = ["host/tools.json"]\n')
    write(tmp_path / "flows" / "w.octoscript", ECKO)
    result = run("check", "w.octoscript", cwd=tmp_path / "flows")
    assert "did you mean `text.echo`? [unlisted-tool]" in out(result)
    inline = tmp_path / "inline"
    write(
        inline / "octoscript.toml",
        '[[settings.toolCatalog]]\nname = "text.echo"\nformat = "text"\n',
    )
    write(inline / "w.octoscript", ECKO)
    assert "[unlisted-tool]" in out(run("check", cwd=inline))


def test_a_bad_configuration_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path / "octoscript.toml", 'extend-exclud = ["x"]\n')
    write(tmp_path / "a.octoscript", "let a = 1\n")
    result = run("check", cwd=tmp_path)
    assert result.returncode == 2
    assert err(result) == (
        f"octoscript: {tmp_path / 'octoscript.toml'}: unknown key `extend-exclud`; "
        "did you mean `extend-exclude`?\n"
    )
    write(tmp_path / "octoscript.toml", "select = 'trailing-comma'\n")
    assert "`select` must be a list of strings" in err(run("check", cwd=tmp_path))
    write(tmp_path / "octoscript.toml", 'select = ["trailing-coma"]\n')
    assert "did you mean `trailing-comma`?" in err(run("check", cwd=tmp_path))


def test_a_named_settings_or_configuration_file_must_be_a_regular_file(tmp_path: Path) -> None:
    # A FIFO would block the read until a writer came; it is refused instead.
    fifo = tmp_path / "named"
    os.mkfifo(fifo)
    write(tmp_path / "a.octoscript", "let a = 1\n")
    settings = run("check", "--settings", str(fifo), "a.octoscript", cwd=tmp_path)
    assert settings.returncode == 2
    assert err(settings) == f"octoscript: cannot read {fifo}: not a regular file (a FIFO)\n"
    config = run("check", "--config", str(fifo), "a.octoscript", cwd=tmp_path)
    assert config.returncode == 2
    assert err(config) == f"octoscript: {fifo}: not a regular file (a FIFO)\n"
    device = run("check", "--settings", "/dev/zero", "a.octoscript", cwd=tmp_path)
    assert err(device) == "octoscript: cannot read /dev/zero: not a regular file (a device)\n"


@pytest.fixture
def walked(tmp_path: Path) -> Path:
    write(tmp_path / ".gitignore", "ignored/\n*.gen.octoscript\n!keep.gen.octoscript\n")
    write(tmp_path / "ignored" / "a.octoscript", BROKEN)
    write(tmp_path / "src" / "b.gen.octoscript", BROKEN)
    write(tmp_path / "src" / "keep.gen.octoscript", "let k = 1\n")
    write(tmp_path / "src" / ".ignore", "local.octoscript\n")
    write(tmp_path / "src" / "local.octoscript", BROKEN)
    write(tmp_path / "src" / "ok.octoscript", "let a = 1\n")
    write(tmp_path / "node_modules" / "pkg" / "c.octoscript", BROKEN)
    write(tmp_path / ".cache" / "d.octoscript", BROKEN)
    write(tmp_path / "vendor" / "e.octo", BROKEN)
    return tmp_path


def test_gitignore_ignore_hidden_and_node_modules_are_skipped(walked: Path) -> None:
    result = run("check", cwd=walked)
    assert out(result).splitlines() == [
        "vendor/e.octo:1:14: error: only double-quoted strings are part of canonical "
        "Octoscript [single-quoted-string]",
        "checked 3 files: 1 error, 0 warnings",
    ]
    everything = run("check", "--no-respect-gitignore", cwd=walked)
    assert "checked 6 files" in out(everything)


def test_an_irregular_or_oversized_ignore_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".gitignore")  # read, it would wait for a writer for good
    write(tmp_path / "src" / ".ignore", "#" * MAX_IGNORE_FILE_BYTES + "\nok.octoscript\n")
    write(tmp_path / "src" / "ok.octoscript", "let a = 1\n")
    result = run("check", cwd=tmp_path)
    assert err(result).splitlines() == [
        f"octoscript: warning: {tmp_path / '.gitignore'} not read: not a regular file (a FIFO)",
        f"octoscript: warning: {tmp_path / 'src' / '.ignore'} not read: "
        f"larger than {MAX_IGNORE_FILE_BYTES} bytes",
    ]
    assert out(result) == "checked 1 file: 0 errors, 0 warnings\n"


def test_exclude_options(walked: Path) -> None:
    extended = run("check", "--extend-exclude", "vendor/", cwd=walked)
    assert (extended.returncode, out(extended)) == (0, "checked 2 files: 0 errors, 0 warnings\n")
    # --exclude replaces the defaults: hidden folders and node_modules are walked.
    replaced = run("check", "--exclude", "vendor", cwd=walked)
    assert "node_modules/pkg/c.octoscript" in out(replaced)
    assert ".cache/d.octoscript" in out(replaced)
    # A path named on the command line is read unless --force-exclude.
    named = run("check", "--extend-exclude", "vendor/", "vendor/e.octo", cwd=walked)
    assert named.returncode == 1
    forced = run(
        "check", "--extend-exclude", "vendor/", "--force-exclude", "vendor/e.octo", cwd=walked
    )
    assert (forced.returncode, out(forced)) == (0, "checked 0 files: 0 errors, 0 warnings\n")
    ignored = run("check", "--force-exclude", "ignored/a.octoscript", cwd=walked)
    assert ignored.returncode == 0


def test_a_symlinked_folder_is_reported_not_followed(walked: Path) -> None:
    (walked / "linked").symlink_to(walked / "vendor")
    result = run("check", cwd=walked)
    assert err(result) == (
        "octoscript: warning: linked is a symbolic link to a folder, not followed "
        "(name it on the command line to check it)\n"
    )
    assert "checked 3 files" in out(result)
    named = run("check", "linked", cwd=walked)
    assert "linked/e.octo:1:14" in out(named)


def test_repeated_paths_are_checked_once(walked: Path) -> None:
    result = run("check", "vendor", "vendor/e.octo", "./vendor/e.octo", cwd=walked)
    assert out(result).count("vendor/e.octo:1:14") == 1
    stdin = run("check", "-", "-", stdin=BROKEN, cwd=walked)
    assert out(stdin).count("-:1:14") == 1
    assert "checked 1 file:" in out(stdin)


def test_format_uses_the_same_discovery(walked: Path) -> None:
    write(walked / "src" / "messy.octoscript", "let a=1\n")
    write(walked / "ignored" / "messy.octoscript", "let a=1\n")
    result = run("format", "--check", cwd=walked)
    assert err(result).splitlines()[:1] == ["would reformat src/messy.octoscript"]
    assert "ignored/" not in err(result)


def test_catalog_files_in_either_form_from_the_configuration(tmp_path: Path) -> None:
    # A host's bare tool-catalog array, as its `catalog` command prints it.
    write(tmp_path / "tools.json", json.dumps([{"name": "text.echo", "format": "text"}]))
    write(tmp_path / "pyproject.toml", '[tool.octoscript]\ncatalogFiles = ["tools.json"]\n')
    write(tmp_path / "w.octoscript", ECKO)
    result = run("check", cwd=tmp_path)
    assert "`text.ecko`; did you mean `text.echo`? [unlisted-tool]" in out(result)
    write(tmp_path / "pyproject.toml", '[tool.octoscript]\ncatalogFiles = ["missing.json"]\n')
    missing = run("check", cwd=tmp_path)
    assert "catalog file" in err(missing) and "missing.json" in err(missing)
    assert "[unlisted-tool]" not in out(missing)


def test_stdin_takes_the_configuration_of_its_filename(tmp_path: Path) -> None:
    write(tmp_path / "flows" / "octoscript.toml", 'ignore = ["single-quoted"]\n')
    plain = run("check", "-", stdin=BROKEN, cwd=tmp_path)
    named = run("check", "--stdin-filename", "flows/x.octoscript", "-", stdin=BROKEN, cwd=tmp_path)
    assert (plain.returncode, named.returncode) == (1, 0)
