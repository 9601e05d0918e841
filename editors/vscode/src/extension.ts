// VS Code client for octoscript-lsp.
//
// Starts the language server over stdio for Octoscript documents: the
// program `octoscript.server.path` names when it is set, else the server
// bundled in this extension (bundled/libs) run by the first Python >= 3.11
// found (src/interpreter.ts), else `octoscript-lsp` on PATH. It forwards the
// `octoscript.*` catalog settings:
//   - at start-up as `initializationOptions.octoscript`, and
//   - after a settings change as `workspace/didChangeConfiguration` with
//     `{ "settings": { "octoscript": { ...changed keys... } } }`.
//
// One output channel lives as long as the extension; each (re)start makes a
// new LanguageClient writing to it and disposes the previous one. Failures
// are written to that channel; the user sees at most one pop-up per failed
// start, naming the setting to fix (and quoting the server's last error line
// when it exited during start).

import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  CloseAction,
  CloseHandlerResult,
  DidChangeConfigurationNotification,
  ErrorHandler,
  Executable,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
} from "vscode-languageclient/node";
import { CatalogStatus } from "./catalogStatus";
import { CatalogStatusItem } from "./statusItem";
import { insertToolCall } from "./insertToolCall";
import { findInterpreter, interpreterCandidates, probePython } from "./interpreter";
import {
  changedCatalogs,
  DEFAULT_SERVER,
  initialCatalogs,
  resolveExecutable,
  SECTION,
  SERVER_PATH_SETTING,
  serverArgs,
  serverCommands,
  trustedSetting,
} from "./settings";

const NAME = "Octoscript Language Server";
const INTERPRETER_SETTING = `${SECTION}.interpreter`;
const STATUS_CHANGED = "octoscript/catalogStatusChanged";
const STATUS_REQUEST = "octoscript/catalogStatus";
const RELOAD_COMMAND = "octoscript.reloadCatalogs";

/**
 * A LanguageClient that never pops up its own error messages (a failed
 * request during a restart, a lost connection): they go to the output
 * channel, and the extension decides what deserves a pop-up.
 */
class QuietLanguageClient extends LanguageClient {
  private closing = false;

  override error(message: string, data?: unknown, _showNotification?: boolean | "force"): void {
    super.error(message, data, false);
  }

  /**
   * Once the client is being disposed (a restart, the window closing), a
   * provider's request is cancelled at once: without this VS Code logs
   * "provider FAILED" for code actions and the like still asked for then.
   */
  override sendRequest(type: any, ...params: any[]): Promise<any> {
    if (this.closing) {
      return Promise.reject(new vscode.CancellationError());
    }
    const send = super.sendRequest as (...args: any[]) => Promise<any>;
    // A request already waiting when the disposal began fails too
    // ("Starting server failed"): cancelled as well.
    return send.call(this, type, ...params).catch((error: unknown) => {
      throw this.closing ? new vscode.CancellationError() : error;
    });
  }

  override dispose(timeout?: number): Promise<void> {
    this.closing = true;
    return super.dispose(timeout);
  }
}

/**
 * The output channel the clients write to. It remembers the server's last
 * stderr line (the client appends stderr with `append`, its own lines with
 * `appendLine`) and, once closed at shutdown, drops writes instead of
 * throwing "Channel has been closed" into requests still in flight.
 */
class ServerOutput implements vscode.OutputChannel {
  readonly name: string;
  private closed = false;
  private pending = "";
  lastErrorLine: string | undefined;

  constructor(private readonly channel: vscode.OutputChannel) {
    this.name = channel.name;
  }

  append(value: string): void {
    this.pending += value;
    const lines = this.pending.split(/\r?\n/);
    this.pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim().length > 0) {
        this.lastErrorLine = line.trim();
      }
    }
    this.write(() => this.channel.append(value));
  }

  appendLine(value: string): void {
    this.write(() => this.channel.appendLine(value));
  }

  replace(value: string): void {
    this.write(() => this.channel.replace(value));
  }

  clear(): void {
    this.write(() => this.channel.clear());
  }

  show(columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    const preserve = typeof columnOrPreserve === "boolean" ? columnOrPreserve : preserveFocus;
    this.write(() => this.channel.show(preserve));
  }

  hide(): void {
    this.write(() => this.channel.hide());
  }

  /** Forget the previous server's stderr (called at each start). */
  resetServerLines(): void {
    this.pending = "";
    this.lastErrorLine = undefined;
  }

  /** The last line the server wrote to stderr, complete or not. */
  serverLine(): string | undefined {
    return this.pending.trim() || this.lastErrorLine;
  }

  dispose(): void {
    if (!this.closed) {
      this.closed = true;
      this.channel.dispose();
    }
  }

  private write(action: () => void): void {
    if (this.closed) {
      return;
    }
    try {
      action();
    } catch {
      this.closed = true; // VS Code closed it under us (window closing)
    }
  }
}

/** How to run the server, or why it cannot run. */
type Launch =
  | { executable: Executable; description: string; setting: string }
  | { problem: string; setting: string };

let output: ServerOutput | undefined;
let client: LanguageClient | undefined;
let statusItem: CatalogStatusItem | undefined;
// Restarts run one after another: a settings change during a restart waits.
let lifecycle: Promise<void> = Promise.resolve();

function queue(task: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(task, task);
  return lifecycle;
}

async function reportStartFailure(message: string, setting: string): Promise<void> {
  const open = "Open Settings";
  const show = "Show Output";
  const choice = await vscode.window.showErrorMessage(`Octoscript: ${message}`, open, show);
  if (choice === open) {
    await vscode.commands.executeCommand("workbench.action.openSettings", setting);
  } else if (choice === show) {
    output?.show(true);
  }
}

/** The pop-up text for a server that stopped or never answered. */
function stoppedMessage(launch: { description: string; setting: string }, what: string): string {
  const line = output?.serverLine();
  const quoted = line ? `: "${line}"` : "";
  return (
    `the language server (${launch.description}) ${what}${quoted}. ` +
    `Check "${launch.setting}" and "${SECTION}.server.args" (User settings, or Remote ` +
    `settings in a remote window); the output channel "${NAME}" has the details.`
  );
}

/** The default handler's decisions, with one pop-up of ours when it gives up. */
function errorHandler(
  launch: { description: string; setting: string },
  fallback: () => ErrorHandler,
): ErrorHandler {
  return {
    error: (error, message, count) => fallback().error(error, message, count),
    closed: async (): Promise<CloseHandlerResult> => {
      const decision = await fallback().closed();
      if (decision.action === CloseAction.DoNotRestart) {
        void reportStartFailure(stoppedMessage(launch, "keeps stopping"), launch.setting);
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
    middleware: {
      // vscode-languageclient 9 turns a pull it cancelled itself (the user
      // typed on) into an empty report and shows it before pulling again:
      // the Problems entries would blink out while typing. A cancelled pull
      // is thrown as cancelled instead, so the client keeps what it shows and
      // pulls again (the path a ServerCancelled answer takes too).
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        if (token.isCancellationRequested) {
          throw new vscode.CancellationError();
        }
        return report;
      },
    },
    // Without a handler the client pops up the raw error ("write EPIPE")
    // itself; returning false stops it, and start() reports the failure once.
    initializationFailedHandler: (error) => {
      channel.appendLine(`Initialization failed: ${String(error)}`);
      return false;
    },
  };
}

/** The interpreter the Python extension has selected, when it is installed. */
async function pythonExtensionInterpreter(log: (line: string) => void): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (extension === undefined) {
    return undefined;
  }
  try {
    // The Python extension's API (environments: getActiveEnvironmentPath,
    // resolveEnvironment); typed loosely, it is not a dependency.
    const api = (extension.isActive ? extension.exports : await extension.activate()) as any;
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const active = api?.environments?.getActiveEnvironmentPath?.(resource);
    if (active !== undefined) {
      const resolved = await api.environments.resolveEnvironment?.(active);
      return resolved?.executable?.uri?.fsPath ?? active.path;
    }
    return api?.settings?.getExecutionDetails?.(resource)?.execCommand?.[0];
  } catch (error) {
    log(`The Python extension did not name an interpreter: ${String(error)}`);
    return undefined;
  }
}

/**
 * What to run: `octoscript.server.path` when set (it overrides everything),
 * else the bundled server with a Python found by the interpreter rules, else
 * `octoscript-lsp` on PATH.
 */
async function chooseLaunch(
  context: vscode.ExtensionContext,
  log: (line: string) => void,
): Promise<Launch> {
  const args = serverArgs();
  const configured = serverCommands();
  if (configured !== undefined) {
    const executable = resolveExecutable(configured.command);
    if (executable === undefined) {
      return {
        problem:
          `the language server "${configured.command}" (from ${configured.origin}) was not found. ` +
          `Set "${SERVER_PATH_SETTING}" to the octoscript-lsp executable, or clear it to use ` +
          `the server bundled with the extension.`,
        setting: SERVER_PATH_SETTING,
      };
    }
    return {
      executable: { command: executable, args },
      description: `${executable}, from ${configured.origin}`,
      setting: SERVER_PATH_SETTING,
    };
  }
  const libs = path.join(context.extensionPath, "bundled", "libs");
  const bundled = fs.existsSync(path.join(libs, "octoscript_lsp", "__init__.py"));
  let pythonProblem = "";
  if (bundled) {
    const candidates = interpreterCandidates(
      trustedSetting<string>("interpreter"),
      await pythonExtensionInterpreter(log),
    );
    const python = await findInterpreter(candidates, probePython, log);
    if (python !== undefined) {
      return {
        executable: {
          command: python.executable || python.command,
          // -S: no site-packages (only the bundle and the standard library);
          // -P: no working directory (a workspace's folders) on sys.path.
          args: ["-S", "-P", "-m", "octoscript_lsp", ...args],
          options: {
            cwd: context.extensionPath,
            env: { ...process.env, PYTHONPATH: libs, PYTHONNOUSERSITE: "1" },
          },
        },
        description: `bundled, run by Python ${python.version.join(".")} at ${python.executable}`,
        setting: INTERPRETER_SETTING,
      };
    }
    pythonProblem =
      `no Python 3.11 or newer was found to run the bundled language server ` +
      `(tried ${candidates.map((candidate) => `"${candidate.command}"`).join(", ")}). ` +
      `Install Python 3.11+ or set "${INTERPRETER_SETTING}" to one; ` +
      `"${SERVER_PATH_SETTING}" can name an octoscript-lsp executable instead.`;
  }
  const onPath = resolveExecutable(DEFAULT_SERVER);
  if (onPath !== undefined) {
    return {
      executable: { command: onPath, args },
      description: `${onPath}, on PATH`,
      setting: SERVER_PATH_SETTING,
    };
  }
  return {
    problem:
      pythonProblem ||
      `no language server: this build of the extension carries none and "${DEFAULT_SERVER}" ` +
        `is not on PATH. Set "${SERVER_PATH_SETTING}" to the octoscript-lsp executable.`,
    setting: pythonProblem ? INTERPRETER_SETTING : SERVER_PATH_SETTING,
  };
}

async function start(context: vscode.ExtensionContext, channel: ServerOutput): Promise<void> {
  const log = (line: string): void => channel.appendLine(line);
  const launch = await chooseLaunch(context, log);
  if ("problem" in launch) {
    // Not awaited: the pop-up stays until the user closes it, and later
    // restarts (a fixed setting) must not wait for that.
    log(`Not started: ${launch.problem}`);
    statusItem?.stopped("not running");
    void reportStartFailure(launch.problem, launch.setting);
    return;
  }
  const { executable } = launch;
  log(`Starting ${executable.command} ${(executable.args ?? []).join(" ")} (${launch.description}).`);
  channel.resetServerLines();
  // The default handler counts crashes per client, so it is made once.
  let defaults: ErrorHandler | undefined;
  const fallback = (): ErrorHandler => (defaults ??= next.createDefaultErrorHandler());
  // No `transport` on purpose: the server speaks LSP on stdio by default and
  // TransportKind.stdio would append a `--stdio` argument.
  const next: LanguageClient = new QuietLanguageClient(
    SECTION,
    NAME,
    executable,
    clientOptions(channel, errorHandler(launch, fallback)),
  );
  // The server sends octoscript/catalogStatusChanged only to clients that ask.
  next.registerFeature({
    fillClientCapabilities: (capabilities) => {
      capabilities.experimental = {
        ...(capabilities.experimental as object | undefined),
        octoscriptCatalogStatus: true,
      };
    },
    initialize: () => undefined,
    getState: () => ({ kind: "static" }),
    clear: () => undefined,
  });
  client = next;
  statusItem?.starting();
  let notified = false;
  next.onNotification(STATUS_CHANGED, (status: CatalogStatus) => {
    notified = true;
    statusItem?.update(status);
  });
  try {
    await next.start();
  } catch (error) {
    log(`Could not start ${executable.command}: ${String(error)}`);
    await disposeClient();
    statusItem?.stopped("not running");
    void reportStartFailure(stoppedMessage(launch, "exited during start"), launch.setting);
    return;
  }
  // A server without the notification still answers the request: once,
  // unless a notification came first (never polled).
  try {
    const status = await next.sendRequest<CatalogStatus>(STATUS_REQUEST, {});
    if (!notified && client === next) {
      statusItem?.update(status);
    }
  } catch (error) {
    log(`${STATUS_REQUEST} failed: ${String(error)}`);
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

function restart(context: vscode.ExtensionContext, channel: ServerOutput): Promise<void> {
  return queue(async () => {
    await disposeClient();
    await start(context, channel);
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

/** The running client, or a message saying there is none. */
function runningClient(): LanguageClient | undefined {
  if (client === undefined || !client.isRunning()) {
    void vscode.window.showWarningMessage("Octoscript: the language server is not running.");
    return undefined;
  }
  return client;
}

async function reloadCatalogs(): Promise<void> {
  const running = runningClient();
  if (running === undefined) {
    return;
  }
  try {
    const status = await running.sendRequest<CatalogStatus>("workspace/executeCommand", {
      command: RELOAD_COMMAND,
      arguments: [],
    });
    if (status && typeof status === "object") {
      statusItem?.update(status);
    }
  } catch (error) {
    output?.appendLine(`${RELOAD_COMMAND} failed: ${String(error)}`);
    void vscode.window.showWarningMessage(`Octoscript: reloading the catalogs failed: ${String(error)}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // Not in context.subscriptions: VS Code disposes those without waiting for
  // deactivate(), and a client still answering requests would then write to
  // a closed channel. deactivate() disposes it after the client.
  const channel = new ServerOutput(vscode.window.createOutputChannel(NAME));
  output = channel;
  statusItem = new CatalogStatusItem();
  context.subscriptions.push(
    statusItem,
    vscode.commands.registerCommand("octoscript.restartServer", () => restart(context, channel)),
    vscode.commands.registerCommand("octoscript.catalogs.reload", () => reloadCatalogs()),
    vscode.commands.registerCommand("octoscript.showCatalogStatus", () =>
      statusItem?.showDetails(() => channel.show(true)),
    ),
    vscode.commands.registerCommand("octoscript.showOutput", () => channel.show(true)),
    vscode.commands.registerCommand("octoscript.insertToolCall", () => {
      const running = runningClient();
      return running === undefined ? undefined : insertToolCall(running, channel);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart(context, channel)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        event.affectsConfiguration(SERVER_PATH_SETTING) ||
        event.affectsConfiguration(`${SECTION}.server.args`) ||
        event.affectsConfiguration(INTERPRETER_SETTING)
      ) {
        return restart(context, channel);
      }
      return queue(() =>
        sendCatalogs(changedCatalogs((key) => event.affectsConfiguration(`${SECTION}.${key}`))),
      );
    }),
  );
  await queue(() => start(context, channel));
}

export async function deactivate(): Promise<void> {
  await queue(disposeClient);
  output?.dispose();
  output = undefined;
}
