// What "Octoscript: Insert Tool Call..." inserts for an `octoscript/searchTools`
// hit. No `vscode` import: unit-tested in test/snippet.test.ts.
//
// A text tool becomes `tool.call("name", "$1")`, a JSON tool
// `tool.call_json("name", {$1})`, a callable module member
// `member.method({$1})` (`.await()` after a deferred one). Required input
// fields, where a hit carries them, become one placeholder each, with the
// same placeholder values as the server's prefilled completion
// (docs/authoring.md). The `use` line the call needs is added when the
// document lacks it.

/** One hit of `octoscript/searchTools` (search.py: id, kind, format, callMode, summary). */
export interface SearchHit {
  id: string;
  kind: "tool" | "module" | string;
  format?: "text" | "json" | string;
  callMode?: "synchronous" | "deferred" | string;
  summary?: string;
  /** Required input fields, when the server's hit carries them. */
  requiredFields?: { name: string; type: string }[];
}

export interface ToolCallInsertion {
  /** The snippet for the cursor (VS Code snippet syntax). */
  snippet: string;
  /** The `use` path the call needs (`mod.tool`, `mod.app.weather`). */
  usePath: string;
}

const PLACEHOLDER_BY_TYPE: Record<string, string> = {
  string: '""',
  number: "0",
  integer: "0",
  boolean: "false",
  object: "{}",
  array: "[]",
  any: "nil",
  null: "nil",
};

/** Escapes text for a snippet: `$`, `}` and `\` are syntax there. */
export function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (character) => `\\${character}`);
}

/** A record literal with a tab stop per required field, or `{$1}` without fields. */
function recordSnippet(fields: { name: string; type: string }[] | undefined): string {
  if (!fields || fields.length === 0) {
    return "{$1}";
  }
  const members = fields.map((field, index) => {
    const value = PLACEHOLDER_BY_TYPE[field.type] ?? "nil";
    // A string's tab stop sits inside the quotes.
    const stop =
      value === '""' ? `"\${${index + 1}}"` : `\${${index + 1}:${escapeSnippet(value)}}`;
    return `${field.name}: ${stop}`;
  });
  return `{${members.join(", ")}}`;
}

/** The insertion for a hit, or undefined for a hit that cannot be called. */
export function toolCallInsertion(hit: SearchHit): ToolCallInsertion | undefined {
  const name = JSON.stringify(hit.id); // tool names are [a-z0-9._-]: nothing to escape
  if (hit.kind === "tool" && hit.format === "json") {
    return {
      snippet: `tool.call_json(${name}, ${recordSnippet(hit.requiredFields)})`,
      usePath: "mod.tool",
    };
  }
  if (hit.kind === "tool") {
    return { snippet: `tool.call(${name}, "$1")`, usePath: "mod.tool" };
  }
  if (hit.kind === "module" && hit.callMode !== undefined) {
    // mod.app.weather.current: `use mod.app.weather`, call `weather.current(...)`.
    const segments = hit.id.split(".");
    if (segments.length < 3) {
      return undefined;
    }
    const method = segments[segments.length - 1];
    const module = segments[segments.length - 2];
    const awaited = hit.callMode === "deferred" ? ".await()" : "";
    return {
      snippet: `${module}.${method}(${recordSnippet(hit.requiredFields)})${awaited}`,
      usePath: segments.slice(0, -1).join("."),
    };
  }
  return undefined;
}

/** Whether the text already has `use <path>` (as a whole statement). */
export function hasUse(text: string, usePath: string): boolean {
  const escaped = usePath.replace(/\./g, "\\.");
  return new RegExp(`^[ \\t]*use[ \\t]+${escaped}[ \\t]*(?:\\/\\/.*)?$`, "m").test(text);
}

/**
 * The line where a missing `use` goes: after the last `use` line of the
 * opening block (comments, blank lines and `use` lines), else after the
 * leading comment lines.
 */
export function useLine(text: string): number {
  const lines = text.split(/\r?\n/);
  let afterComments = 0;
  let afterUses = -1;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index].trim();
    if (/^use\s/.test(line)) {
      afterUses = index + 1;
    } else if (line.startsWith("//")) {
      if (afterUses < 0) {
        afterComments = index + 1;
      }
    } else if (line.length > 0) {
      break;
    }
  }
  return afterUses >= 0 ? afterUses : afterComments;
}
