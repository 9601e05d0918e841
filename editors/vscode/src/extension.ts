// VS Code client for octoscript-lsp.
//
// The extension starts the `octoscript-lsp` executable over stdio for
// Octoscript documents and forwards the advisory host catalogs configured in
// the `octoscript.*` settings:
//   - at start-up as `initializationOptions.octoscript`, and
//   - after a settings change as `workspace/didChangeConfiguration` with
//     `{ "settings": { "octoscript": { ...catalog keys... } } }`.
//
// One output channel lives as long as the extension; each (re)start makes a
// new LanguageClient writing to it and disposes the previous one. Failures
// are written to that channel; the user sees at most one pop-up per failed
// start, naming the setting to fix.

import * as vscode from "vscode";
import {
  CloseAction,
  CloseHandlerResult,
  DidChangeConfigurationNotification,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
} from "vscode-languageclient/node";
import {
  changedCatalogs,
  DEFAULT_SERVER,
  initialCatalogs,
  resolveExecutable,
  SECTION,
  SERVER_PATH_SETTING,
  ServerCommand,
  serverCommands,
} from "./settings";

const NAME = "Octoscript Language Server";

/**
 * A LanguageClient that never pops up its own error messages (a failed
 * request during a restart, a lost connection): they go to the output
 * channel, and the extension decides what deserves a pop-up.
 */
class QuietLanguageClient extends LanguageClient {
  override error(message: string, data?: unknown, _showNotification?: boolean | "force"): void {
    super.error(message, data, false);
  }
}

let output: vscode.OutputChannel | undefined;
let client: LanguageClient | undefined;
// Restarts run one after another: a settings change during a restart waits.
let lifecycle: Promise<void> = Promise.resolve();

function queue(task: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(task, task);
  return lifecycle;
}

async function reportStartFailure(server: ServerCommand, reason: string): Promise<void> {
  const open = "Open Settings";
  const show = "Show Output";
  const choice = await vscode.window.showErrorMessage(
    `Octoscript: the language server "${server.command}" (from ${server.origin}) ${reason}. ` +
      `Set "${SERVER_PATH_SETTING}" to the octoscript-lsp executable ` +
      `(User settings, or Remote settings in a remote window).`,
    open,
    show,
  );
  if (choice === open) {
    await vscode.commands.executeCommand("workbench.action.openSettings", SERVER_PATH_SETTING);
  } else if (choice === show) {
    output?.show(true);
  }
}

/** The default handler's decisions, with one pop-up of ours when it gives up. */
function errorHandler(server: ServerCommand, fallback: () => ErrorHandler): ErrorHandler {
  return {
    error: (error, message, count) => fallback().error(error, message, count),
    closed: async (): Promise<CloseHandlerResult> => {
      const decision = await fallback().closed();
      if (decision.action === CloseAction.DoNotRestart) {
        void reportStartFailure(server, "keeps stopping and will not be restarted");
        return { ...decision, handled: true };
      }
      return decision;
    },
  };
}

function clientOptions(channel: vscode.OutputChannel, handler: ErrorHandler): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: "file", language: "octoscript" },
      { scheme: "untitled", language: "octoscript" },
    ],
    initializationOptions: { [SECTION]: initialCatalogs() },
    outputChannel: channel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    errorHandler: handler,
    // Without a handler the client pops up the raw error ("write EPIPE")
    // itself; returning false stops it, and start() reports the failure once.
    initializationFailedHandler: (error) => {
      channel.appendLine(`Initialization failed: ${String(error)}`);
      return false;
    },
  };
}

/** The first candidate command that names an executable file. */
function pickServer(channel: vscode.OutputChannel): [ServerCommand, string | undefined] {
  const candidates = serverCommands();
  for (const candidate of candidates) {
    const executable = resolveExecutable(candidate.command);
    if (executable !== undefined) {
      return [candidate, executable];
    }
    channel.appendLine(`No executable "${candidate.command}" (from ${candidate.origin}).`);
  }
  return [candidates[0], undefined];
}

async function start(channel: vscode.OutputChannel): Promise<void> {
  const [server, executable] = pickServer(channel);
  if (executable === undefined) {
    // Not awaited: the pop-up stays until the user closes it, and later
    // restarts (a fixed setting) must not wait for that.
    const fallback = server.command === DEFAULT_SERVER ? "" : `, nor ${DEFAULT_SERVER} on PATH`;
    void reportStartFailure(server, `was not found${fallback}`);
    return;
  }
  channel.appendLine(
    `Starting ${executable} ${server.args.join(" ")} (server path from ${server.origin}).`,
  );
  // The default handler counts crashes per client, so it is made once.
  let defaults: ErrorHandler | undefined;
  const fallback = (): ErrorHandler => (defaults ??= next.createDefaultErrorHandler());
  // No `transport` on purpose: the server speaks LSP on stdio by default and
  // TransportKind.stdio would append a `--stdio` argument.
  const next: LanguageClient = new QuietLanguageClient(
    SECTION,
    NAME,
    { command: executable, args: server.args },
    clientOptions(channel, errorHandler(server, fallback)),
  );
  client = next;
  try {
    await next.start();
  } catch (error) {
    channel.appendLine(`Could not start ${executable}: ${String(error)}`);
    await disposeClient();
    void reportStartFailure(server, `could not be started (${String(error)})`);
  }
}

async function disposeClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    try {
      // dispose(), not stop(): stop() keeps the client's diagnostics and
      // features registered. The shared output channel is not the client's
      // to dispose.
      await running.dispose();
    } catch (error) {
      output?.appendLine(`Stopping the previous server: ${String(error)}`);
    }
  }
}

function restart(channel: vscode.OutputChannel): Promise<void> {
  return queue(async () => {
    await disposeClient();
    await start(channel);
  });
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
  const channel = vscode.window.createOutputChannel(NAME);
  output = channel;
  context.subscriptions.push(
    channel,
    vscode.commands.registerCommand("octoscript.restartServer", () => restart(channel)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        event.affectsConfiguration(SERVER_PATH_SETTING) ||
        event.affectsConfiguration(`${SECTION}.server.args`)
      ) {
        return restart(channel);
      }
      return queue(() =>
        sendCatalogs(changedCatalogs((key) => event.affectsConfiguration(`${SECTION}.${key}`))),
      );
    }),
  );
  await queue(() => start(channel));
}

export async function deactivate(): Promise<void> {
  await queue(disposeClient);
}
