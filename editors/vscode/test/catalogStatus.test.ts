// The language status item's summary of a catalog status object.
import assert from "node:assert/strict";
import { test } from "node:test";
import { summarize } from "../src/catalogStatus";

test("valid catalogs: counts, sources in the detail", () => {
  const summary = summarize({
    toolCatalog: { state: "valid", entries: 12, source: { kind: "file", path: "/w/host.json" } },
    moduleCatalog: { state: "valid", entries: 3, source: { kind: "settings" } },
    workflowData: { state: "absent" },
    catalogFiles: [{ path: "/w/host.json", ok: true, projections: ["toolCatalog"] }],
  });
  assert.equal(summary.text, "12 tools, 3 modules");
  assert.equal(summary.warning, false);
  assert.equal(summary.detail, "from /w/host.json; from settings");
  assert.deepEqual(summary.files, ["/w/host.json"]);
  assert.equal(summary.lines[0], "tool catalog: valid (12 entries) from /w/host.json");
  assert.equal(summary.lines[3], "/w/host.json: read gives toolCatalog");
});

test("paths are shown as the extension chooses (workspace-relative)", () => {
  const summary = summarize(
    {
      toolCatalog: { state: "valid", entries: 1, source: { kind: "file", path: "/w/host.json" } },
      catalogFiles: [{ path: "/w/host.json", ok: true, projections: ["toolCatalog"] }],
    },
    (path) => path.replace("/w/", ""),
  );
  assert.equal(summary.detail, "from host.json");
  assert.deepEqual(summary.files, ["/w/host.json"]);
  assert.equal(summary.lines[3], "host.json: read gives toolCatalog");
});

test("a discarded projection is the text, as a warning", () => {
  const summary = summarize({
    toolCatalog: { state: "discarded", reason: "duplicate name", source: { kind: "settings" } },
    moduleCatalog: { state: "valid", entries: 1 },
  });
  assert.equal(summary.text, "tool catalog discarded: duplicate name");
  assert.equal(summary.warning, true);
});

test("a refused file warns; nothing at all says no catalog", () => {
  assert.equal(
    summarize({ catalogFiles: [{ path: "/x", ok: false, reason: "not found" }] }).text,
    "catalog file refused: not found",
  );
  assert.equal(summarize({}).text, "no catalog");
  assert.equal(summarize({ toolCatalog: { state: "valid", entries: 1 } }).text, "1 tool");
});
