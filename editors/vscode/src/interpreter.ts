// Finding a Python to run the bundled server with. No `vscode` import: the
// unit tests (test/*.test.ts) run this with a fake probe.
//
// Candidates in order: the `octoscript.interpreter` setting, the Python
// extension's selected interpreter (when that extension is installed), then
// `python3` and `python` on PATH. The first that runs and is 3.11 or newer
// wins; every other one is logged with the reason it was skipped.

import { execFile } from "child_process";

export const MIN_PYTHON: readonly [number, number] = [3, 11];
// A Python that does not answer within this many milliseconds is skipped.
export const PROBE_TIMEOUT_MS = 10_000;
// What a probe runs: prints "major minor micro" and the executable's path.
const PROBE_SCRIPT = "import sys; print(*sys.version_info[:3]); print(sys.executable)";

export interface InterpreterCandidate {
  /** A command (`python3`) or a path to an interpreter. */
  command: string;
  /** Where it came from, for messages ("octoscript.interpreter"). */
  origin: string;
}

export type ProbeResult =
  | { version: [number, number, number]; executable: string }
  | { error: string };

export type Probe = (command: string) => Promise<ProbeResult>;

export interface Interpreter {
  command: string;
  executable: string;
  version: [number, number, number];
  origin: string;
}

/** The candidates to try, without duplicates, in the documented order. */
export function interpreterCandidates(
  setting: string | undefined,
  pythonExtension: string | undefined,
  platform: NodeJS.Platform = process.platform,
): InterpreterCandidate[] {
  const found: InterpreterCandidate[] = [];
  const add = (command: string | undefined, origin: string): void => {
    const trimmed = command?.trim();
    if (trimmed && !found.some((candidate) => candidate.command === trimmed)) {
      found.push({ command: trimmed, origin });
    }
  };
  add(setting, "the octoscript.interpreter setting");
  add(pythonExtension, "the Python extension's selected interpreter");
  // On Windows `python3` is often the Microsoft Store stub: `python` first.
  const onPath = platform === "win32" ? ["python", "python3"] : ["python3", "python"];
  for (const command of onPath) {
    add(command, "PATH");
  }
  return found;
}

function versionText(version: readonly number[]): string {
  return version.join(".");
}

/** Whether a version is at least MIN_PYTHON. */
export function recentEnough(version: readonly number[]): boolean {
  const [major, minor] = version;
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

/**
 * The first candidate that runs as Python >= 3.11. `log` gets one line per
 * candidate skipped (with the reason) and one for the choice.
 */
export async function findInterpreter(
  candidates: InterpreterCandidate[],
  probe: Probe,
  log: (line: string) => void,
): Promise<Interpreter | undefined> {
  for (const candidate of candidates) {
    const result = await probe(candidate.command);
    if ("error" in result) {
      log(`Skipped Python "${candidate.command}" (from ${candidate.origin}): ${result.error}.`);
      continue;
    }
    if (!recentEnough(result.version)) {
      log(
        `Skipped Python "${candidate.command}" (from ${candidate.origin}): it is ` +
          `${versionText(result.version)}, the server needs ${versionText(MIN_PYTHON)} or newer.`,
      );
      continue;
    }
    log(
      `Using Python ${versionText(result.version)} at ${result.executable} ` +
        `("${candidate.command}" from ${candidate.origin}).`,
    );
    return { ...candidate, executable: result.executable, version: result.version };
  }
  return undefined;
}

/** The probe answer of a real interpreter: its printed version and path. */
export function parseProbeOutput(stdout: string): ProbeResult {
  const [versionLine = "", executable = ""] = stdout.trim().split(/\r?\n/);
  const parts = versionLine.trim().split(/\s+/).map(Number);
  if (parts.length !== 3 || parts.some((part) => !Number.isInteger(part))) {
    return { error: `it printed ${JSON.stringify(stdout.trim().slice(0, 80))}, not a version` };
  }
  return { version: parts as [number, number, number], executable: executable.trim() };
}

/** Runs a candidate with a one-line script (never through a shell). */
export const probePython: Probe = (command) =>
  new Promise((resolve) => {
    execFile(
      command,
      ["-c", PROBE_SCRIPT],
      { timeout: PROBE_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          resolve({
            error: code === "ENOENT" ? "not found" : `it did not run (${error.message.split("\n")[0]})`,
          });
          return;
        }
        resolve(parseProbeOutput(String(stdout)));
      },
    );
  });
