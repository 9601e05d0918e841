// VS Code client for octoscript-lsp.
//
// The extension starts the `octoscript-lsp` executable over stdio for
// Octoscript documents and forwards the advisory host catalogs configured in
// the `octoscript.*` settings:
//   - at start-up as `initializationOptions.octoscript`, and
//   - after a settings change as `workspace/didChangeConfiguration` with
//     `{ "settings": { "octoscript": { ...catalog keys... } } }`.
// Only the four catalog keys and the `completion` preferences are forwarded,
// and only those that are set (at start-up) or changed (later): the server
// keeps a key that is omitted, clears one that is `null`, and discards a
// malformed one.

import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

const SECTION = "octoscript";
const CATALOG_KEYS = [
  "toolCatalog",
  "moduleCatalog",
  "workflowDataCatalog",
  "workflowDataStepContext",
] as const;

let client: LanguageClient | undefined;

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
  result.completion = catalogSetting("completion");
  return result;
}

/**
 * The keys a settings change touched: the server keeps omitted keys, clears
 * `null` ones and replaces the rest. The workflow pair always travels
 * together, as the server requires.
 */
export function changedCatalogs(
  affects: (key: string) => boolean,
): Record<string, unknown> {
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

function serverOptions(): ServerOptions {
  const config = vscode.workspace.getConfiguration(SECTION);
  const configured = (config.get<string>("server.path") ?? "").trim();
  const command = configured.length > 0 ? configured : "octoscript-lsp";
  const args = config.get<string[]>("server.args") ?? [];
  // No `transport` on purpose: the server speaks LSP on stdio by default and
  // TransportKind.stdio would append a `--stdio` argument.
  return { command, args };
}

function clientOptions(): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: "file", language: "octoscript" },
      { scheme: "untitled", language: "octoscript" },
    ],
    initializationOptions: { [SECTION]: initialCatalogs() },
    outputChannelName: "Octoscript Language Server",
  };
}

async function startClient(): Promise<void> {
  const options = serverOptions();
  client = new LanguageClient(SECTION, "Octoscript Language Server", options, clientOptions());
  try {
    await client.start();
  } catch (error) {
    const command = "command" in options ? options.command : "octoscript-lsp";
    void vscode.window.showErrorMessage(
      `Could not start the Octoscript language server (${command}). ` +
        `Install octoscript-lsp or set "octoscript.server.path". ${String(error)}`,
    );
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    try {
      await running.stop();
    } catch {
      // The server may already have exited; nothing else to clean up.
    }
  }
}

async function sendCatalogs(changed: Record<string, unknown>): Promise<void> {
  if (client === undefined || !client.isRunning() || Object.keys(changed).length === 0) {
    return;
  }
  await client.sendNotification(DidChangeConfigurationNotification.type, {
    settings: { [SECTION]: changed },
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("octoscript.restartServer", async () => {
      await stopClient();
      await startClient();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (
        event.affectsConfiguration(`${SECTION}.server.path`) ||
        event.affectsConfiguration(`${SECTION}.server.args`)
      ) {
        await stopClient();
        await startClient();
        return;
      }
      await sendCatalogs(
        changedCatalogs((key) => event.affectsConfiguration(`${SECTION}.${key}`)),
      );
    }),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
