#!/usr/bin/env bash
# Build every release artifact into dist/ and check each one:
#
#   scripts/release.sh
#
#   dist/octoscript_lsp-<version>-py3-none-any.whl   the server and CLI (PyPI)
#   dist/octoscript_lsp-<version>.tar.gz             its source distribution (PyPI)
#   dist/octoscript-<target>.vsix                    the VS Code extension with the
#                                                    server bundled, one per target
#                                                    (Marketplace, Open VSX)
#
# Checks: the wheel installs into a fresh venv and both console scripts run
# (`octoscript-lsp --version`, `octoscript check` on the examples); the sdist
# holds the package and its schemas; each .vsix passes scripts/check-vsix.js,
# which lists its bundled modules. Needs python3 >= 3.11 with pip, node and
# npm; the .vsix builds download PyPI wheels for each target.
#
# Publishing is then one step per registry, for whoever holds the tokens:
#   python3 -m twine upload dist/*.whl dist/*.tar.gz
#   for f in dist/*.vsix; do npx @vscode/vsce publish --packagePath "$f"; done
#   for f in dist/*.vsix; do npx ovsx publish "$f"; done
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIST=$ROOT/dist
PYTHON=${PYTHON:-python3}
TARGETS="linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64"
say() { echo "[release] $*"; }

rm -rf "$DIST" && mkdir -p "$DIST"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/octoscript-release.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

say "wheel and sdist"
"$PYTHON" -m venv "$WORK/build"
"$WORK/build/bin/pip" install -q build
"$WORK/build/bin/python" -m build -q --outdir "$DIST" "$ROOT" > "$WORK/build.log" 2>&1 \
    || { cat "$WORK/build.log"; exit 1; }
WHEEL=$(ls "$DIST"/octoscript_lsp-*.whl)
SDIST=$(ls "$DIST"/octoscript_lsp-*.tar.gz)

say "the wheel in a fresh venv"
"$PYTHON" -m venv "$WORK/check"
"$WORK/check/bin/pip" install -q "$WHEEL"
"$WORK/check/bin/octoscript-lsp" --version
"$WORK/check/bin/octoscript" check examples/hello.octoscript
# The server answers initialize and shuts down cleanly on stdio.
"$WORK/check/bin/python" - "$WORK/check/bin/octoscript-lsp" <<'PY'
import json, subprocess, sys
def frame(payload):
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
messages = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
    {"jsonrpc": "2.0", "method": "exit"},
]
done = subprocess.run([sys.argv[1]], input=b"".join(map(frame, messages)), capture_output=True, timeout=60)
assert done.returncode == 0, done.stderr.decode()
assert b'"capabilities"' in done.stdout, done.stdout[:200]
print("octoscript-lsp answered initialize and exited 0")
PY

say "the sdist"
tar tzf "$SDIST" > "$WORK/sdist.txt"  # (grep -q on a pipe would end tar with SIGPIPE)
grep -q "/octoscript_lsp/server.py$" "$WORK/sdist.txt"
grep -q "/octoscript_lsp/schemas/settings.schema.json$" "$WORK/sdist.txt"
echo "$(basename "$SDIST"): package and schemas present"

say "the VS Code packages: $TARGETS"
(cd editors/vscode && { [ -d node_modules ] || npm ci --no-audit --no-fund; } \
    && PYTHON="$PYTHON" node scripts/package.js $TARGETS)
for target in $TARGETS; do
    mv "editors/vscode/octoscript-$target.vsix" "$DIST/"
done
rm -rf editors/vscode/bundled

say "dist/:"
ls -l "$DIST"
