"""The linux-x64 VS Code package carries a server that runs on its own (issue 25).

Uses the package named by OCTOSCRIPT_VSIX (CI builds it first), else builds
editors/vscode/octoscript-linux-x64.vsix with `node scripts/package.js
linux-x64` (needs `npm ci` in editors/vscode). The bundled server is then
run with `python -S -P -m octoscript_lsp` and PYTHONPATH=bundled/libs only:
no site-packages, so nothing of this venv can stand in for the bundle.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
CONFORMANCE = REPO.parent / "shared" / "conformance"
TARGET = "linux-x64"
LIBS = "extension/bundled/libs/"
MAX_VSIX_BYTES = 10 * 1024 * 1024
# What the package bundles: the bundler's and check-vsix.js's one list.
CONTENTS = json.loads((EXTENSION / "scripts" / "bundle-contents.json").read_text())
PYTHONS = tuple(version.replace(".", "") for version in CONTENTS["pythons"])
CASES = (
    "formatting-indent",
    "lifecycle-change-then-complete",
    "tool-catalog-m",
    "tool-config-duplicate-fails",
    "syntax-invalid-var",
    "navigation-hover-b",
)

# Runs the packaged extension's server: `pytest -m editors` (tests/conftest.py).
pytestmark = [
    pytest.mark.editors,
    pytest.mark.skipif(
        sys.platform != "linux" or platform.machine() != "x86_64",
        reason="the linux-x64 package runs on linux x86_64 only",
    ),
]


@pytest.fixture(scope="module")
def vsix() -> Path:
    given = os.environ.get("OCTOSCRIPT_VSIX")
    if given:
        return Path(given)
    if shutil.which("node") is None or not (EXTENSION / "node_modules").is_dir():
        pytest.skip("building the package needs node and `npm ci` in editors/vscode")
    subprocess.run(
        ["node", "scripts/package.js", TARGET],
        cwd=EXTENSION,
        check=True,
        env={**os.environ, "PYTHON": sys.executable},
        stdout=subprocess.DEVNULL,
    )
    return EXTENSION / f"octoscript-{TARGET}.vsix"


@pytest.fixture(scope="module")
def names(vsix: Path) -> list[str]:
    with zipfile.ZipFile(vsix) as archive:
        return archive.namelist()


@pytest.fixture(scope="module")
def libs(vsix: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsix")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(root, [name for name in archive.namelist() if name.startswith(LIBS)])
    return root / LIBS


def test_the_package_is_small_and_for_its_target(vsix: Path, names: list[str]) -> None:
    assert vsix.stat().st_size < MAX_VSIX_BYTES
    with zipfile.ZipFile(vsix) as archive:
        manifest = archive.read("extension.vsixmanifest").decode()
    assert f'TargetPlatform="{TARGET}"' in manifest
    assert "extension/out/extension.js" in names


def test_the_server_and_each_dependency_are_bundled(names: list[str]) -> None:
    for package in CONTENTS["packages"]:
        assert f"{LIBS}{package}/__init__.py" in names, package
    assert f"{LIBS}octoscript_lsp/schemas/settings.schema.json" in names
    # One version of each distribution (the per-Python installs agree).
    dist_infos = [name.split("/")[3] for name in names if ".dist-info/" in name]
    projects = [info.rsplit("-", 1)[0] for info in set(dist_infos)]
    assert len(projects) == len(set(projects)), sorted(set(dist_infos))


def test_compiled_modules_for_each_cpython(names: list[str]) -> None:
    compiled = sorted(Path(name).name for name in names if name.endswith((".so", ".pyd")))
    expected = sorted(
        f"{module}.cpython-{version}-x86_64-linux-gnu.so"
        for module in CONTENTS["compiled"]
        for version in PYTHONS
    )
    assert compiled == expected


def test_no_dead_weight(names: list[str]) -> None:
    dead = [
        name
        for name in names
        if "/__pycache__/" in name
        or "/tests/" in name
        or "/test/" in name
        or name.endswith((".pyc", ".pyi"))
        or name.startswith(f"{LIBS}bin/")
    ]
    assert dead == []


def bundled_env(libs: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return {**env, "PYTHONPATH": str(libs), "PYTHONNOUSERSITE": "1"}


def test_the_bundle_imports_from_itself(libs: Path) -> None:
    script = (
        "import blake3, jsonschema, octoscript_lsp, pygls, rpds; "
        "print(octoscript_lsp.__file__); print(blake3.__file__); print(rpds.__file__)"
    )
    found = subprocess.run(
        [sys.executable, "-S", "-P", "-c", script],
        env=bundled_env(libs),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(path.startswith(str(libs)) for path in found), found


@pytest.mark.skipif(not CONFORMANCE.is_dir(), reason="needs the shared conformance suite")
def test_the_bundled_server_passes_a_conformance_sample(libs: Path, tmp_path: Path) -> None:
    cases = [str(CONFORMANCE / "cases" / f"{case}.json") for case in CASES]
    server = f"{sys.executable} -S -P -m octoscript_lsp"
    result = subprocess.run(
        [
            sys.executable,
            str(CONFORMANCE / "lspcase.py"),
            "run",
            "--server",
            server,
            "--compare",
            str(CONFORMANCE / "reference"),
            "--json",
            *cases,
        ],
        env=bundled_env(libs),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["cases"] == len(CASES)
    assert summary["cases_passed"] == len(CASES), summary["failed_cases"]
