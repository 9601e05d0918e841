// The snippet "Insert Tool Call..." inserts, and where the `use` line goes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeSnippet, hasUse, toolCallInsertion, useLine } from "../src/snippet";

test("a text tool: tool.call with a string placeholder, use mod.tool", () => {
  assert.deepEqual(
    toolCallInsertion({ id: "text.echo", kind: "tool", format: "text", summary: "Echo." }),
    { snippet: 'tool.call("text.echo", "$1")', usePath: "mod.tool" },
  );
});

test("a JSON tool: tool.call_json with a record", () => {
  assert.deepEqual(toolCallInsertion({ id: "math.add", kind: "tool", format: "json" }), {
    snippet: 'tool.call_json("math.add", {$1})',
    usePath: "mod.tool",
  });
});

test("a JSON tool with required fields: one placeholder per field, typed", () => {
  const insertion = toolCallInsertion({
    id: "math.add",
    kind: "tool",
    format: "json",
    requiredFields: [
      { name: "left", type: "integer" },
      { name: "label", type: "string" },
      { name: "extra", type: "any" },
    ],
  });
  assert.equal(
    insertion?.snippet,
    'tool.call_json("math.add", {left: ${1:0}, label: "${2}", extra: ${3:nil}})',
  );
});

test("a deferred module method: use the module, call it, await it", () => {
  assert.deepEqual(
    toolCallInsertion({ id: "mod.app.weather.current", kind: "module", callMode: "deferred" }),
    { snippet: "weather.current({$1}).await()", usePath: "mod.app.weather" },
  );
  assert.equal(
    toolCallInsertion({ id: "mod.app.weather", kind: "module" }),
    undefined,
    "a module without callMode is no call",
  );
});

test("snippet escaping", () => {
  assert.equal(escapeSnippet("a$b}c\\"), "a\\$b\\}c\\\\");
});

test("hasUse: a whole use statement only", () => {
  assert.ok(hasUse("// x\nuse mod.tool\nlet a = 1\n", "mod.tool"));
  assert.ok(hasUse("  use mod.tool // tools\n", "mod.tool"));
  assert.ok(!hasUse("use mod.toolbox\n", "mod.tool"));
  assert.ok(!hasUse("// use mod.tool\n", "mod.tool"));
});

test("useLine: after the opening use lines, else after leading comments", () => {
  assert.equal(useLine("// header\n// more\nlet a = 1\n"), 2);
  assert.equal(useLine("// header\nuse mod.std.assert\n\nlet a = 1\n"), 2);
  assert.equal(useLine("let a = 1\n"), 0);
  assert.equal(useLine(""), 0);
});
