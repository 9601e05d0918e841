// The catalog state the server reports (`octoscript/catalogStatus` and the
// `octoscript/catalogStatusChanged` notification, docs/editors.md), summed
// up for the language status item. No `vscode` import: unit-tested.

export interface CatalogSource {
  kind: "settings" | "file" | string;
  path?: string;
}

export interface Projection {
  state: "absent" | "valid" | "discarded" | "cleared" | string;
  generation?: number;
  entries?: number;
  fingerprint?: string | null;
  reason?: string | null;
  source?: CatalogSource | null;
}

export interface CatalogFileStatus {
  path: string;
  ok: boolean;
  reason?: string | null;
  projections?: string[];
}

export interface CatalogStatus {
  toolCatalog?: Projection;
  moduleCatalog?: Projection;
  workflowData?: Projection;
  catalogFiles?: CatalogFileStatus[];
}

export interface StatusSummary {
  /** The item's text: "12 tools, 3 modules" or the first problem. */
  text: string;
  /** Where the catalogs come from, in a few words (the item's detail). */
  detail: string;
  /** One line per projection and file: state, count, reason, source. */
  lines: string[];
  warning: boolean;
  /** The catalog files named in the settings (to open). */
  files: string[];
}

const PROJECTIONS: [keyof CatalogStatus, string][] = [
  ["toolCatalog", "tool catalog"],
  ["moduleCatalog", "module catalog"],
  ["workflowData", "workflow data"],
];

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** How a file path is shown (the extension shows workspace files relative). */
export type ShowPath = (path: string) => string;

export function sourceText(
  source: CatalogSource | null | undefined,
  show: ShowPath = (path) => path,
): string {
  if (!source) {
    return "";
  }
  if (source.kind === "file" && source.path) {
    return `from ${show(source.path)}`;
  }
  return source.kind === "settings" ? "from settings" : `from ${source.kind}`;
}

function projectionLine(label: string, projection: Projection | undefined, show: ShowPath): string {
  const state = projection?.state ?? "absent";
  const source = sourceText(projection?.source, show);
  const count = state === "valid" ? ` (${projection?.entries ?? 0} entries)` : "";
  const reason = projection?.reason ? `: ${projection.reason}` : "";
  return `${label}: ${state}${count}${reason}${source ? ` ${source}` : ""}`;
}

/** The status item's text, detail and severity for a status object. */
export function summarize(status: CatalogStatus, show: ShowPath = (path) => path): StatusSummary {
  const files = (status.catalogFiles ?? []).map((file) => file.path);
  const problems: string[] = [];
  for (const [key, label] of PROJECTIONS) {
    const projection = status[key] as Projection | undefined;
    if (projection?.state === "discarded") {
      problems.push(`${label} discarded: ${projection.reason ?? "invalid"}`);
    }
  }
  for (const file of status.catalogFiles ?? []) {
    if (!file.ok) {
      problems.push(`catalog file refused: ${file.reason ?? file.path}`);
    }
  }
  const counts: string[] = [];
  const tools = status.toolCatalog;
  if (tools?.state === "valid") {
    counts.push(plural(tools.entries ?? 0, "tool"));
  }
  const modules = status.moduleCatalog;
  if (modules?.state === "valid") {
    counts.push(plural(modules.entries ?? 0, "module"));
  }
  if (status.workflowData?.state === "valid") {
    counts.push("workflow data");
  }
  const lines = PROJECTIONS.map(([key, label]) =>
    projectionLine(label, status[key] as Projection | undefined, show),
  );
  for (const file of status.catalogFiles ?? []) {
    const gives = file.projections?.length ? ` gives ${file.projections.join(", ")}` : "";
    lines.push(`${show(file.path)}: ${file.ok ? "read" : `refused: ${file.reason ?? "unreadable"}`}${gives}`);
  }
  const text =
    problems.length > 0 ? problems[0] : counts.length > 0 ? counts.join(", ") : "no catalog";
  const sources = new Set(
    PROJECTIONS.map(([key]) =>
      sourceText((status[key] as Projection | undefined)?.source, show),
    ).filter(
      (source) => source.length > 0,
    ),
  );
  const detail = sources.size > 0 ? [...sources].join("; ") : "Octoscript catalogs";
  return { text, detail, lines, warning: problems.length > 0, files };
}
