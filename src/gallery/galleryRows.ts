// What the editor's registry gallery shows, decided here so unit tests reach it: a row per
// server (title, version, package types, repository), the row of a failure (with what to do),
// and the install choices with the command each would write or the reason it is refused.
// A row's icon is not decided here: the entries' icons are judged and fetched by src/icons/ and
// put on the rows by the VS Code layer (extension/gallery/galleryIcons.ts).
import { RegistryError } from './registryClient';
import { ServerResponse, entryStatus, installKinds } from './serverJson';
import { InstallDialect, describeEntry, installChoices, planInstall } from './installPlan';
import type { InstallChoice } from './installPlan';

export interface GalleryRow {
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  /** The registry name to install; absent on rows that only say something. */
  readonly serverName?: string;
}

/** One server as a quick-pick row. */
export function serverRow(entry: ServerResponse): GalleryRow {
  const s = entry.server;
  const status = entryStatus(entry);
  const kinds = installKinds(s);
  return {
    label: s.title ?? s.name.slice(s.name.indexOf('/') + 1),
    description: [s.version, kinds.length ? kinds.join(', ') : 'nothing to install', status === 'active' ? '' : status].filter(Boolean).join(' · '),
    detail: [s.name, s.description, s.repository?.url].filter(Boolean).join(' — '),
    serverName: s.name,
  };
}

/** The row that stands for a failed search, and whether offering "Set Registry Token" helps. */
export function failureRow(error: unknown): GalleryRow & { readonly offerToken: boolean } {
  if (error instanceof RegistryError) {
    const offerToken = error.reason === 'unauthorized';
    const label = error.reason === 'unreachable' ? 'Registry not reachable' : error.reason === 'unauthorized' ? 'The registry needs a token' : 'The registry answered something unusable';
    return { label, description: '', detail: error.message + (offerToken ? ' — pick this row to set the token' : ''), offerToken };
  }
  return { label: 'Search failed', description: '', detail: error instanceof Error ? error.message : String(error), offerToken: false };
}

/** The install choices as rows: the command or URL to be written, or the reason it is refused. */
export function choiceRows(entry: ServerResponse, dialect: InstallDialect): { label: string; detail: string; choice: InstallChoice; refused: boolean }[] {
  return installChoices(entry.server).map(({ choice, label }) => {
    const outcome = planInstall(entry.server, dialect, { choice });
    return outcome.ok ? { label, detail: describeEntry(outcome.plan.entry), choice, refused: false } : { label: `$(error) ${label}`, detail: `Refused: ${outcome.reasons.join('; ')}`, choice, refused: true };
  });
}
