// How long an inspect request may go without an answer (or progress): the call's own timeout
// (the tool panel's field), else the server entry's `timeout` (seconds, as Cline's config writes
// it), else the `mcpHost.requestTimeoutSeconds` setting of the server's folder, else 60 s.
// No `vscode` import.

export const DEFAULT_TIMEOUT_SECONDS = 60;

export type TimeoutSource = 'call' | 'server' | 'setting' | 'default';

export interface TimeoutChoice {
  readonly seconds: number;
  readonly source: TimeoutSource;
}

function usable(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}

/** The first usable (finite, positive) of the call's, the server's and the setting's timeout. */
export function resolveTimeout(given: { call?: unknown; server?: unknown; setting?: unknown }): TimeoutChoice {
  if (usable(given.call)) return { seconds: given.call, source: 'call' };
  if (usable(given.server)) return { seconds: given.server, source: 'server' };
  if (usable(given.setting)) return { seconds: given.setting, source: 'setting' };
  return { seconds: DEFAULT_TIMEOUT_SECONDS, source: 'default' };
}

/** Where a timeout came from, for the tool panel's label. */
export function describeTimeoutSource(source: TimeoutSource): string {
  switch (source) {
    case 'call':
      return 'set for this call';
    case 'server':
      return 'from the server entry’s "timeout"';
    case 'setting':
      return 'from mcpHost.requestTimeoutSeconds';
    case 'default':
      return 'the default';
    default: {
      const never: never = source;
      return never;
    }
  }
}
