// The language status item for Octoscript documents: the catalog state at a
// glance ("12 tools, 3 modules" or "tool catalog discarded: <reason>"), where
// the catalogs come from, and a link to "Octoscript: Show Catalog Status"
// (reload, open a catalog file, show output). It changes only when the
// server says so (`octoscript/catalogStatusChanged`): it never polls.

import * as vscode from "vscode";
import { CatalogStatus, StatusSummary, summarize } from "./catalogStatus";

export class CatalogStatusItem implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;
  private summary: StatusSummary | undefined;

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem("octoscript.catalogs", {
      language: "octoscript",
    });
    this.item.name = "Octoscript Catalogs";
    this.item.command = { title: "Catalogs...", command: "octoscript.showCatalogStatus" };
    this.starting();
  }

  starting(): void {
    this.summary = undefined;
    this.item.busy = true;
    this.item.text = "Octoscript: starting";
    this.item.detail = undefined;
    this.item.severity = vscode.LanguageStatusSeverity.Information;
  }

  stopped(reason: string): void {
    this.summary = undefined;
    this.item.busy = false;
    this.item.text = `Octoscript: ${reason}`;
    this.item.detail = "see the output";
    this.item.severity = vscode.LanguageStatusSeverity.Error;
  }

  update(status: CatalogStatus): void {
    this.summary = summarize(status, (path) => vscode.workspace.asRelativePath(path, false));
    this.item.busy = false;
    this.item.text = this.summary.text;
    this.item.detail = this.summary.detail;
    this.item.severity = this.summary.warning
      ? vscode.LanguageStatusSeverity.Warning
      : vscode.LanguageStatusSeverity.Information;
  }

  /** "Octoscript: Show Catalog Status": each projection, then the actions. */
  async showDetails(showOutput: () => void): Promise<void> {
    type Entry = vscode.QuickPickItem & { run?: () => unknown };
    const summary = this.summary;
    const entries: Entry[] = [];
    if (summary === undefined) {
      entries.push({ label: this.item.text });
    } else {
      entries.push({ label: "Catalogs", kind: vscode.QuickPickItemKind.Separator });
      for (const line of summary.lines) {
        entries.push({ label: line });
      }
    }
    entries.push({ label: "Actions", kind: vscode.QuickPickItemKind.Separator });
    entries.push({
      label: "$(refresh) Reload catalogs",
      run: () => vscode.commands.executeCommand("octoscript.catalogs.reload"),
    });
    for (const file of summary?.files ?? []) {
      entries.push({
        label: `$(go-to-file) Open ${file}`,
        run: () => vscode.window.showTextDocument(vscode.Uri.file(file)),
      });
    }
    entries.push({ label: "$(output) Show output", run: showOutput });
    const chosen = await vscode.window.showQuickPick(entries, {
      title: `Octoscript catalogs: ${this.item.text}`,
    });
    await chosen?.run?.();
  }

  dispose(): void {
    this.item.dispose();
  }
}
