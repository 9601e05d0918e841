// Builds platform packages: bundled/libs for the target (bundle_server.py),
// then `vsce package --target`, then check-vsix.js.
//
//   node scripts/package.js            this machine's target (octoscript-linux-x64.vsix here)
//   node scripts/package.js --all      the five targets
//   node scripts/package.js win32-x64  the named ones
//
// PYTHON names the interpreter that runs pip (default python3, python on Windows).
"use strict";

const { execFileSync } = require("child_process");
const path = require("path");

const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const HERE = path.resolve(__dirname, "..");

function hostTarget() {
  const arch = { x64: "x64", arm64: "arm64" }[process.arch];
  const target = `${process.platform}-${arch}`;
  if (!TARGETS.includes(target)) {
    throw new Error(`no package for this machine (${target}); name one of ${TARGETS.join(", ")}`);
  }
  return target;
}

function run(command, args) {
  execFileSync(command, args, { cwd: HERE, stdio: "inherit", shell: process.platform === "win32" });
}

function main() {
  const args = process.argv.slice(2);
  const targets = args.includes("--all") ? TARGETS : args.length > 0 ? args : [hostTarget()];
  const python = process.env.PYTHON || (process.platform === "win32" ? "python" : "python3");
  const vsce = path.join(HERE, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
  for (const target of targets) {
    if (!TARGETS.includes(target)) {
      throw new Error(`unknown target ${target} (one of ${TARGETS.join(", ")})`);
    }
    const out = `octoscript-${target}.vsix`;
    run(python, [path.join("scripts", "bundle_server.py"), target]);
    run(vsce, ["package", "--no-dependencies", "--allow-missing-repository", "--target", target, "--out", out]);
    run(process.execPath, [path.join("scripts", "check-vsix.js"), out, target]);
  }
}

main();
