// Checks a packaged platform .vsix (a zip) and lists the Python modules it
// bundles: the extension's own files (at most MAX_OWN_FILES outside
// bundled/), the server package and each dependency in bundled/libs, the
// compiled blake3 and rpds modules for every supported CPython on this
// target, no caches or tests, and at most MAX_BYTES in all. Reads the zip's
// central directory directly, so no unzip tool is needed.
//
//   node scripts/check-vsix.js octoscript-linux-x64.vsix linux-x64
"use strict";

const fs = require("fs");

const MAX_OWN_FILES = 20;
const MAX_BYTES = 10 * 1024 * 1024;
const LIBS = "extension/bundled/libs/";
const REQUIRED = [
  "extension/package.json",
  "extension/out/extension.js",
  "extension/syntaxes/octoscript.tmLanguage.json",
  "extension/language-configuration.json",
];
// The server and its dependencies, the compiled ones and the CPython
// versions (one list for the bundler, this check and the tests).
const CONTENTS = require("./bundle-contents.json");
const PACKAGES = CONTENTS.packages;
const COMPILED = CONTENTS.compiled;
const PYTHONS = CONTENTS.pythons.map((version) => version.replace(".", ""));
// Extension-module file name per target and CPython version (ABI tag).
const SUFFIX = {
  "linux-x64": (v) => `.cpython-${v}-x86_64-linux-gnu.so`,
  "linux-arm64": (v) => `.cpython-${v}-aarch64-linux-gnu.so`,
  "darwin-x64": (v) => `.cpython-${v}-darwin.so`,
  "darwin-arm64": (v) => `.cpython-${v}-darwin.so`,
  "win32-x64": (v) => `.cp${v}-win_amd64.pyd`,
};
const DEAD = /(^|\/)(__pycache__|tests?)\/|\.py[co]$/;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

function entryNames(zip) {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) {
    end -= 1;
  }
  if (end < 0) {
    throw new Error("not a zip file");
  }
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) {
      throw new Error(`bad central directory entry ${i}`);
    }
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString("utf8", offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The problems of a .vsix for a target, and what it bundles. */
function check(file, target) {
  const zip = fs.readFileSync(file);
  const names = entryNames(zip);
  const problems = [];
  const own = names.filter((name) => name.startsWith("extension/") && !name.startsWith(LIBS));
  if (own.length > MAX_OWN_FILES) {
    problems.push(`${own.length} files outside bundled/ (at most ${MAX_OWN_FILES}): ${own.join(", ")}`);
  }
  for (const name of REQUIRED) {
    if (!names.includes(name)) {
      problems.push(`missing ${name}`);
    }
  }
  for (const name of PACKAGES) {
    if (!names.includes(`${LIBS}${name}/__init__.py`)) {
      problems.push(`missing the bundled package ${name}`);
    }
  }
  const suffix = SUFFIX[target];
  if (suffix === undefined) {
    problems.push(`unknown target ${target} (one of ${Object.keys(SUFFIX).join(", ")})`);
  } else {
    for (const module of COMPILED) {
      for (const version of PYTHONS) {
        const expected = `${LIBS}${module}/${module}${suffix(version)}`;
        if (!names.includes(expected)) {
          problems.push(`missing ${expected}`);
        }
      }
    }
  }
  const dead = names.filter((name) => DEAD.test(name));
  if (dead.length > 0) {
    problems.push(`dead weight: ${dead.slice(0, 5).join(", ")}${dead.length > 5 ? ", ..." : ""}`);
  }
  if (zip.length > MAX_BYTES) {
    problems.push(`${zip.length} bytes, over the ${MAX_BYTES} limit`);
  }
  const modules = [
    ...new Set(
      names
        .filter((name) => name.startsWith(LIBS))
        .map((name) => name.slice(LIBS.length).split("/")[0])
        .filter((top) => !top.endsWith(".dist-info"))
        .map((top) => top.replace(/\.py$/, "")),
    ),
  ].sort();
  return { names, problems, modules, bytes: zip.length };
}

function main() {
  const [file, target] = process.argv.slice(2);
  if (!file || !target) {
    console.error("usage: node scripts/check-vsix.js FILE.vsix TARGET");
    process.exit(2);
  }
  const { names, problems, modules, bytes } = check(file, target);
  const compiled = names.filter((name) => /\.(so|pyd)$/.test(name)).map((name) => name.split("/").pop());
  console.log(`${file} (${target}): ${names.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
  console.log(`  bundled modules: ${modules.join(", ")}`);
  console.log(`  compiled: ${compiled.sort().join(", ")}`);
  if (problems.length > 0) {
    console.error(`${file}: ${problems.join("; ")}`);
    process.exit(1);
  }
}

module.exports = { check, entryNames };
if (require.main === module) {
  main();
}
