// What a screen reader says for a row of the Servers tree: what a sighted user sees, in words.
// VS Code names a row by its tooltip when the tooltip is plain text, so without a label of our
// own "Tasks · none" was spoken as the tooltip's long sentence, and a running server's row never
// said "running" (its grey text shows the version instead of the state). No `vscode`: unit tests
// call it.
import type { TreeNode } from './treeNodes';

/** A row as drawn: its kind, its label, its grey text, and (a server's row) its state in a word. */
export interface SpokenRow {
  readonly kind: TreeNode['kind'];
  readonly label: string;
  readonly description?: string;
  /** A server's state as `rowStatusWord` says it ("running", "stopped", "reconnecting…"). */
  readonly state?: string;
}

/** Rows whose grey text is ours (counts, times, states), so its abbreviations can be read out. */
const OWN_TEXT: ReadonlySet<TreeNode['kind']> = new Set(['roots', 'tasks', 'task']);

/**
 * "Roots, 1 root, asked 7 seconds ago"; "Tasks, none"; "everything, running, everything 1.0.0,
 * .vscode/mcp.json, MCP 2025-06-18". The parts the row shows, each once, joined by commas.
 */
export function rowAccessibilityLabel(row: SpokenRow): string {
  const parts = row.description ? row.description.split(' · ').map((p) => p.trim()).filter(Boolean) : [];
  const spoken = OWN_TEXT.has(row.kind) ? parts.map(spokenUnits) : parts;
  // A stopped row's grey text starts with its state already; a running one's does not.
  const state = row.state && !startsWithWord(parts[0] ?? '', row.state) ? [row.state] : [];
  return [row.label, ...state, ...spoken].join(', ');
}

/** Whether `text` starts with the first word of `state` ("waiting for consent" / "waiting for you"). */
function startsWithWord(text: string, state: string): boolean {
  const word = state.split(/\s+/, 1)[0].toLowerCase();
  return text.toLowerCase().split(/[\s…]+/, 1)[0] === word.replace(/…$/, '');
}

const UNITS: Record<string, [string, string]> = { ms: ['millisecond', 'milliseconds'], s: ['second', 'seconds'], m: ['minute', 'minutes'], min: ['minute', 'minutes'], h: ['hour', 'hours'] };

/** "7s ago" → "7 seconds ago", "3 min 5 s" → "3 minutes 5 seconds", "2/4" → "2 of 4". */
export function spokenUnits(text: string): string {
  return text
    .replace(/\b(\d+)\s?(ms|min|s|m|h)\b/g, (_, n: string, unit: string) => `${n} ${UNITS[unit][n === '1' ? 0 : 1]}`)
    .replace(/^(\d+)\/(\d+)$/, '$1 of $2');
}
