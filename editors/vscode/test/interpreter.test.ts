// Interpreter discovery: order, version floor, reasons in the log.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  findInterpreter,
  interpreterCandidates,
  parseProbeOutput,
  Probe,
  ProbeResult,
} from "../src/interpreter";

function fakeProbe(answers: Record<string, ProbeResult>): { probe: Probe; asked: string[] } {
  const asked: string[] = [];
  const probe: Probe = async (command) => {
    asked.push(command);
    return answers[command] ?? { error: "not found" };
  };
  return { probe, asked };
}

test("candidates: the setting, the Python extension, then python3 and python on PATH", () => {
  const found = interpreterCandidates("/opt/py/bin/python", "/venv/bin/python", "linux");
  assert.deepEqual(
    found.map((candidate) => candidate.command),
    ["/opt/py/bin/python", "/venv/bin/python", "python3", "python"],
  );
  assert.match(found[0].origin, /octoscript\.interpreter/);
  assert.match(found[1].origin, /Python extension/);
});

test("candidates: blank values and duplicates are left out; Windows tries python first", () => {
  const found = interpreterCandidates("  ", "python", "win32");
  assert.deepEqual(
    found.map((candidate) => candidate.command),
    ["python", "python3"],
  );
});

test("a too-old Python is skipped with a logged reason, the next one is used", async () => {
  const { probe, asked } = fakeProbe({
    "/old/python": { version: [3, 9, 18], executable: "/old/python" },
    python3: { version: [3, 12, 1], executable: "/usr/bin/python3.12" },
  });
  const lines: string[] = [];
  const found = await findInterpreter(
    interpreterCandidates("/old/python", undefined, "linux"),
    probe,
    (line) => lines.push(line),
  );
  assert.equal(found?.executable, "/usr/bin/python3.12");
  assert.deepEqual(found?.version, [3, 12, 1]);
  assert.deepEqual(asked, ["/old/python", "python3"]);
  assert.match(lines[0], /Skipped Python "\/old\/python".*3\.9\.18.*needs 3\.11 or newer/);
  assert.match(lines[1], /Using Python 3\.12\.1 at \/usr\/bin\/python3\.12/);
});

test("3.11.0 is new enough; a missing command is skipped as not found", async () => {
  const { probe } = fakeProbe({ python: { version: [3, 11, 0], executable: "/bin/python" } });
  const lines: string[] = [];
  const found = await findInterpreter(
    interpreterCandidates(undefined, undefined, "linux"),
    probe,
    (line) => lines.push(line),
  );
  assert.equal(found?.command, "python");
  assert.match(lines[0], /Skipped Python "python3" \(from PATH\): not found/);
});

test("no usable Python at all: undefined, every candidate logged", async () => {
  const { probe } = fakeProbe({
    python3: { version: [2, 7, 18], executable: "/usr/bin/python2" },
    python: { version: [3, 10, 12], executable: "/usr/bin/python3.10" },
  });
  const lines: string[] = [];
  const found = await findInterpreter(
    interpreterCandidates(undefined, undefined, "linux"),
    probe,
    (line) => lines.push(line),
  );
  assert.equal(found, undefined);
  assert.equal(lines.length, 2);
  assert.match(lines[1], /3\.10\.12/);
});

test("probe output: version and executable, or an error for other text", () => {
  assert.deepEqual(parseProbeOutput("3 13 2\n/usr/bin/python3.13\n"), {
    version: [3, 13, 2],
    executable: "/usr/bin/python3.13",
  });
  assert.ok("error" in parseProbeOutput("Python was not found; run without arguments"));
});
