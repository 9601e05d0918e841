// Reading the `octoscript.*` settings: the server command, and the advisory
// catalogs, catalog files and `completion` preferences forwarded to the
// server (only those set at start-up, only those changed later).

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";

export const SECTION = "octoscript";
export const SERVER_PATH_SETTING = `${SECTION}.server.path`;
export const DEFAULT_SERVER = "octoscript-lsp";

export const CATALOG_FILES = "catalogFiles";
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
 * The server command `octoscript.server.path` names, from the most specific
 * settings level that sets it, or undefined when none does (the extension
 * then runs the server it bundles).
 *
 * The setting has the default `window` scope, so User, Remote and workspace
 * settings all apply, in remote windows (code-server, Remote-SSH, WSL,
 * Codespaces) too; a `machine-overridable` setting would drop the User value
 * there. Workspace values count only in a trusted workspace: a cloned
 * repository must not pick the executable.
 */
export function serverCommands(): ServerCommand | undefined {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect<unknown>("server.path");
  const trusted = vscode.workspace.isTrusted;
  const levels: [string, unknown][] = [
    ["workspace folder settings", trusted ? inspected?.workspaceFolderValue : undefined],
    ["workspace settings", trusted ? inspected?.workspaceValue : undefined],
    ["user or remote settings", inspected?.globalValue],
  ];
  const configured = levels.find(
    ([, value]) => typeof value === "string" && value.trim().length > 0,
  );
  if (configured === undefined) {
    return undefined;
  }
  const command = expandHome((configured[1] as string).trim());
  return { command, args: serverArgs(), origin: configured[0] };
}

/** `octoscript.server.args`: the strings of the list. */
export function serverArgs(): string[] {
  const args = vscode.workspace.getConfiguration(SECTION).get<unknown>("server.args");
  return Array.isArray(args) ? args.filter((arg): arg is string => typeof arg === "string") : [];
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
 * A setting that names something to run or read (`interpreter`,
 * `catalogFiles`): workspace values count only in a trusted workspace, as
 * for the server path (they are restricted settings in the manifest too).
 */
export function trustedSetting<T>(key: string): T | undefined {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<T>(key);
  if (inspected === undefined) {
    return undefined;
  }
  const levels = vscode.workspace.isTrusted
    ? [inspected.workspaceFolderValue, inspected.workspaceValue, inspected.globalValue]
    : [inspected.globalValue];
  return levels.find((value) => value !== undefined);
}

/** `octoscript.catalogFiles`: the strings of the list, from trusted levels only. */
export function catalogFiles(): string[] {
  const value = trustedSetting<unknown>(CATALOG_FILES);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
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
  const files = catalogFiles();
  if (files.length > 0) {
    result[CATALOG_FILES] = files;
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
  if (affects(CATALOG_FILES)) {
    result[CATALOG_FILES] = catalogFiles(); // [] drops every file
  }
  return result;
}
