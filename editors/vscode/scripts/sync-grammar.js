// Copies the canonical TextMate grammar (grammar/octoscript.tmLanguage.json at
// the repository root) into this extension so that the packaged .vsix carries
// it. The copy under syntaxes/ is generated; edit the root grammar instead.
"use strict";

const fs = require("fs");
const path = require("path");

const source = path.resolve(__dirname, "..", "..", "..", "grammar", "octoscript.tmLanguage.json");
const targetDir = path.resolve(__dirname, "..", "syntaxes");
const target = path.join(targetDir, "octoscript.tmLanguage.json");

const text = fs.readFileSync(source, "utf8");
const grammar = JSON.parse(text);
if (grammar.scopeName !== "source.octoscript") {
  throw new Error(`unexpected scopeName ${grammar.scopeName} in ${source}`);
}
fs.mkdirSync(targetDir, { recursive: true });
fs.writeFileSync(target, text);
console.log(`synced ${path.relative(process.cwd(), source)} -> ${path.relative(process.cwd(), target)}`);
