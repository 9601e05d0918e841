// "Octoscript: Insert Tool Call...": a quick pick that asks the server's
// bounded search (`octoscript/searchTools`) as the user types, then inserts
// the call for the chosen tool as a snippet (src/snippet.ts) and the `use`
// line it needs.

import * as vscode from "vscode";
import { LanguageClient } from "vscode-languageclient/node";
import { hasUse, SearchHit, toolCallInsertion, useLine } from "./snippet";

const SEARCH = "octoscript/searchTools";
// Wait this long after a keystroke before asking (one request per pause).
const SEARCH_DELAY_MS = 120;
// The server clamps to 1..16 hits (limits.MAX_SEARCH_HITS).
const SEARCH_LIMIT = 16;

interface SearchAnswer {
  generation: number;
  truncated: boolean;
  tools: SearchHit[];
}

type HitItem = vscode.QuickPickItem & { hit?: SearchHit };

function itemFor(hit: SearchHit): HitItem {
  const kind = hit.kind === "tool" ? `${hit.format ?? "text"} tool` : `${hit.callMode} method`;
  return { label: hit.id, description: kind, detail: hit.summary || undefined, hit };
}

/** Runs the quick pick; resolves with the chosen hit or undefined. */
function pickTool(client: LanguageClient, log: vscode.OutputChannel): Promise<SearchHit | undefined> {
  const pick = vscode.window.createQuickPick<HitItem>();
  pick.title = "Insert Tool Call";
  pick.placeholder = "Search the tool and module catalogs (keywords match names and descriptions)";
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const hint: HitItem = { label: "Type a keyword to search the catalogs", alwaysShow: true };
  pick.items = [hint];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const search = async (query: string): Promise<void> => {
    const ticket = ++asked;
    if (query.trim().length === 0) {
      pick.items = [hint];
      pick.busy = false;
      return;
    }
    pick.busy = true;
    try {
      const answer = await client.sendRequest<SearchAnswer>(SEARCH, {
        query,
        limit: SEARCH_LIMIT,
      });
      if (ticket !== asked) {
        return; // a newer query is on its way
      }
      const items = answer.tools
        .filter((hit) => toolCallInsertion(hit) !== undefined)
        .map(itemFor);
      pick.items =
        items.length > 0
          ? items
          : [{ label: `No catalog tool matches "${query}"`, alwaysShow: true }];
      // The best hit is active: Enter takes it.
      pick.activeItems = pick.items.slice(0, 1);
    } catch (error) {
      log.appendLine(`${SEARCH} failed: ${String(error)}`);
      if (ticket === asked) {
        pick.items = [{ label: `Search failed: ${String(error)}`, alwaysShow: true }];
      }
    } finally {
      if (ticket === asked) {
        pick.busy = false;
      }
    }
  };
  pick.onDidChangeValue((value) => {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => void search(value), SEARCH_DELAY_MS);
  });
  return new Promise((resolve) => {
    pick.onDidAccept(() => {
      const hit = (pick.selectedItems[0] ?? pick.activeItems[0])?.hit;
      if (hit !== undefined) {
        resolve(hit);
        pick.hide();
      }
    });
    pick.onDidHide(() => {
      if (timer !== undefined) {
        clearTimeout(timer);
      }
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

export async function insertToolCall(
  client: LanguageClient,
  log: vscode.OutputChannel,
): Promise<void> {
  const before = vscode.window.activeTextEditor;
  if (before === undefined || before.document.languageId !== "octoscript") {
    void vscode.window.showInformationMessage("Octoscript: open an Octoscript document first.");
    return;
  }
  const hit = await pickTool(client, log);
  const insertion = hit === undefined ? undefined : toolCallInsertion(hit);
  if (insertion === undefined) {
    return;
  }
  // Focus the editor again (the quick pick had it): the snippet goes to its
  // selections.
  const editor = await vscode.window.showTextDocument(before.document, {
    viewColumn: before.viewColumn,
    preserveFocus: false,
  });
  const text = editor.document.getText();
  if (!hasUse(text, insertion.usePath)) {
    const line = useLine(text);
    const eol = editor.document.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
    const statement = `use ${insertion.usePath}`;
    // Past the last line (a file of comments without a final newline): append.
    const [where, inserted] =
      line < editor.document.lineCount
        ? [new vscode.Position(line, 0), statement + eol]
        : [editor.document.lineAt(editor.document.lineCount - 1).range.end, eol + statement];
    // The editor moves its selections down past the inserted line.
    await editor.edit((builder) => builder.insert(where, inserted), {
      undoStopBefore: true,
      undoStopAfter: false,
    });
  }
  const done = await editor.insertSnippet(new vscode.SnippetString(insertion.snippet), undefined, {
    undoStopBefore: false,
    undoStopAfter: true,
  });
  const line = editor.document.lineAt(editor.selection.active.line).text;
  log.appendLine(
    `Insert Tool Call: ${hit?.id} -> ${insertion.snippet}` +
      (done ? ` (line ${editor.selection.active.line + 1}: ${line})` : " (refused by the editor)"),
  );
}
