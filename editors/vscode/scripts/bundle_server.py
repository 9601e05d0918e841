"""Put octoscript_lsp and its dependencies into bundled/libs for one VS Code target.

    python3 scripts/bundle_server.py linux-x64

The project is built as a wheel from this checkout; it and its dependencies
are installed with `pip install --target --platform --only-binary=:all:`
(PyPI wheels for that platform only, never a build) once per CPython
version the extension supports. The pure files are the same in each; the
compiled dependencies (blake3, rpds-py under jsonschema) publish one wheel
per CPython version, and their extension modules differ by ABI tag, so they
sit side by side and each Python imports its own. Tests, caches, scripts
and type stubs are left out.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1]
ROOT = EXTENSION.parents[1]
LIBS = EXTENSION / "bundled" / "libs"
# The CPython versions the bundled server runs on (the interpreter rules
# take 3.11 or newer; 3.14 is the newest with wheels), with the rest of what
# a package bundles in bundle-contents.json.
PYTHON_VERSIONS = tuple(
    json.loads((Path(__file__).with_name("bundle-contents.json")).read_text())["pythons"]
)
# VS Code target -> pip platform tags (pip also accepts older manylinux /
# macOS tags than the one named).
PLATFORMS = {
    "linux-x64": ["manylinux_2_17_x86_64"],
    "linux-arm64": ["manylinux_2_17_aarch64"],
    "darwin-x64": ["macosx_10_12_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64"],
    "win32-x64": ["win_amd64"],
}
# pyproject.toml's build-system requirement (setuptools>=77).
MIN_SETUPTOOLS = 77
# Dead weight in an installed tree: removed wherever found.
DEAD_DIRS = {"__pycache__", "tests", "test", "benchmarks", "bin"}
DEAD_SUFFIXES = (".pyc", ".pyo", ".pyi")
DEAD_DIST_INFO = ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json", "entry_points.txt")


def run(command: list[str]) -> None:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def _has_backend() -> bool:
    """Whether this Python has the build backend pyproject.toml asks for."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    return int(version.split(".")[0]) >= MIN_SETUPTOOLS


def build_wheel(into: Path) -> Path:
    """The project's wheel, built from this checkout (pure Python)."""
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(into)]
    if _has_backend():
        command.append("--no-build-isolation")  # offline, with the installed backend
    run([*command, str(ROOT)])
    return next(into.glob("octoscript_lsp-*.whl"))


def install_for(wheel: Path, target: str, python: str, into: Path) -> None:
    platforms = [arg for tag in PLATFORMS[target] for arg in ("--platform", tag)]
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-compile",
            "--disable-pip-version-check",
            "--target",
            str(into),
            *platforms,
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--only-binary=:all:",
            str(wheel),
        ]
    )


def merge(source: Path, destination: Path) -> None:
    """Copy a tree over another: pure files are equal, extension modules differ by name."""
    for item in source.rglob("*"):
        if item.is_file():
            target = destination / item.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(item, target)


def prune(tree: Path) -> None:
    for directory in sorted(tree.rglob("*"), reverse=True):
        if directory.is_dir() and directory.name in DEAD_DIRS:
            shutil.rmtree(directory)
    for item in list(tree.rglob("*")):
        if not item.is_file():
            continue
        if item.suffix in DEAD_SUFFIXES or (
            item.parent.name.endswith(".dist-info") and item.name in DEAD_DIST_INFO
        ):
            item.unlink()


def bundle(target: str) -> Path:
    if LIBS.exists():
        shutil.rmtree(LIBS)
    LIBS.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="octoscript-bundle-") as scratch:
        wheel = build_wheel(Path(scratch) / "wheel")
        for python in PYTHON_VERSIONS:
            tree = Path(scratch) / f"cp{python}"
            install_for(wheel, target, python, tree)
            merge(tree, LIBS)
    prune(LIBS)
    return LIBS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=sorted(PLATFORMS))
    options = parser.parse_args()
    libs = bundle(options.target)
    size = sum(item.stat().st_size for item in libs.rglob("*") if item.is_file())
    print(f"bundled/libs for {options.target}: {size / 1024 / 1024:.1f} MiB unpacked")


if __name__ == "__main__":
    main()
