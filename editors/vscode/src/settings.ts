// Reading the `octoscript.*` settings: the server command, and the advisory
// catalogs and `completion` preferences forwarded to the server (only those
// set at start-up, only those changed later).

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";

export const SECTION = "octoscript";
export const SERVER_PATH_SETTING = `${SECTION}.server.path`;
export const DEFAULT_SERVER = "octoscript-lsp";

const CATALOG_KEYS = [
  "toolCatalog",
  "moduleCatalog",
  "workflowDataCatalog",
  "workflowDataStepContext",
] as const;

/** A server command and where it came from (for messages). */
export interface ServerCommand {
  command: string;
  args: string[];
  origin: string;
}

/**
 * The commands to try, in order: `octoscript.server.path` from the most
 * specific settings level that sets it, then the default `octoscript-lsp`
 * on PATH.
 *
 * The setting has the default `window` scope, so User, Remote and workspace
 * settings all apply, in remote windows (code-server, Remote-SSH, WSL,
 * Codespaces) too; a `machine-overridable` setting would drop the User value
 * there. A User path can then name a file that exists on one machine only:
 * when it does not resolve, the default on PATH is tried next (and the
 * output channel says so). Workspace values count only in a trusted
 * workspace: a cloned repository must not pick the executable.
 */
export function serverCommands(): ServerCommand[] {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect<unknown>("server.path");
  const trusted = vscode.workspace.isTrusted;
  const levels: [string, unknown][] = [
    ["workspace folder settings", trusted ? inspected?.workspaceFolderValue : undefined],
    ["workspace settings", trusted ? inspected?.workspaceValue : undefined],
    ["user or remote settings", inspected?.globalValue],
  ];
  const args = config.get<unknown>("server.args");
  const serverArgs = Array.isArray(args)
    ? args.filter((arg): arg is string => typeof arg === "string")
    : [];
  const found: ServerCommand[] = [];
  const configured = levels.find(
    ([, value]) => typeof value === "string" && value.trim().length > 0,
  );
  if (configured !== undefined) {
    const command = expandHome((configured[1] as string).trim());
    found.push({ command, args: serverArgs, origin: configured[0] });
  }
  if (found.length === 0 || found[0].command !== DEFAULT_SERVER) {
    found.push({ command: DEFAULT_SERVER, args: serverArgs, origin: "the default, on PATH" });
  }
  return found;
}

function expandHome(command: string): string {
  return command === "~" || command.startsWith("~/")
    ? path.join(os.homedir(), command.slice(1))
    : command;
}

/**
 * The executable file a command names, or undefined: a path is checked as
 * is, a bare name is looked up on PATH (with PATHEXT on Windows), as the
 * process spawn would.
 */
export function resolveExecutable(command: string): string | undefined {
  if (command.includes("/") || command.includes("\\")) {
    return isExecutable(command) ? command : undefined;
  }
  const extensions =
    process.platform === "win32" ? (process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const extension of extensions) {
      const candidate = path.join(dir, command + extension);
      if (dir.length > 0 && isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The value of one catalog setting, `null` when unset. */
function catalogSetting(key: string): unknown {
  const value = vscode.workspace.getConfiguration(SECTION).get<unknown>(key);
  return value === undefined ? null : value;
}

/**
 * The catalogs configured at start-up. Unset keys are left out: an omitted
 * key means "no catalog" to the server, while an explicit `null` at start-up
 * would mark that catalog unavailable.
 */
export function initialCatalogs(): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of CATALOG_KEYS) {
    const value = catalogSetting(key);
    if (value !== null) {
      result[key] = value;
    }
  }
  const completion = catalogSetting("completion");
  if (completion !== null) {
    result.completion = completion;
  }
  return result;
}

/**
 * The keys a settings change touched: the server keeps omitted keys, clears
 * `null` ones and replaces the rest. The workflow pair always travels
 * together, as the server requires.
 */
export function changedCatalogs(affects: (key: string) => boolean): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of ["toolCatalog", "moduleCatalog"]) {
    if (affects(key)) {
      result[key] = catalogSetting(key);
    }
  }
  if (affects("workflowDataCatalog") || affects("workflowDataStepContext")) {
    result.workflowDataCatalog = catalogSetting("workflowDataCatalog");
    result.workflowDataStepContext = catalogSetting("workflowDataStepContext");
  }
  if (affects("completion")) {
    result.completion = catalogSetting("completion");
  }
  return result;
}
