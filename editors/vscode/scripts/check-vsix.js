// Checks a packaged .vsix (a zip): at most MAX_FILES entries, and the files
// the extension needs at run time are inside. Reads the zip's central
// directory directly, so no unzip tool is needed.
"use strict";

const fs = require("fs");

const MAX_FILES = 20;
const REQUIRED = [
  "extension/package.json",
  "extension/out/extension.js",
  "extension/syntaxes/octoscript.tmLanguage.json",
  "extension/language-configuration.json",
];
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

const file = process.argv[2] || "octoscript.vsix";
const names = entryNames(fs.readFileSync(file));
const missing = REQUIRED.filter((name) => !names.includes(name));
console.log(`${file}: ${names.length} files\n  ${names.join("\n  ")}`);
if (names.length > MAX_FILES || missing.length > 0) {
  console.error(
    `${file}: expected at most ${MAX_FILES} files including ${REQUIRED.join(", ")}; ` +
      `missing: ${missing.join(", ") || "none"}`,
  );
  process.exit(1);
}
