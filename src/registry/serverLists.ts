// A server's cached lists (tools, resources, templates, prompts): fetched when it starts and when
// it says one changed, one fetch per list at a time (a request meanwhile makes one more after
// it), with the items left out as malformed and the cache hints kept beside each list.
import { CacheHint, SkippedListItem, describeSkippedItem } from '../client/schemas';
import { ResponseError, errorMessage } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';
import type { ManagedServer } from './managedServer';
import type { ListKind } from './serverHandle';
import type { ServerLaunch } from './serverLaunch';

/** Where a list fetch reports: a warning line for the server's log, and that the handle changed. */
export interface ListReport {
  log(text: string): void;
  changed(): void;
}

/**
 * Fetches one list if the server declared it. Coalesces: a request while a fetch runs makes
 * one more fetch afterwards, so the cache ends up at least as new as the last notification.
 */
export function refreshList(h: ManagedServer, s: ServerLaunch, kind: ListKind, report: ListReport): Promise<void> {
  const caps = s.client.serverCapabilities;
  const declared = kind === 'tools' ? !!caps?.tools : kind === 'prompts' ? !!caps?.prompts : !!caps?.resources;
  if (!declared) return Promise.resolve();
  const state = h.lists[kind];
  if (state.inflight) {
    state.again = true;
    return state.inflight;
  }
  const run = async () => {
    do {
      state.again = false;
      if (h.session !== s || s.stopping) return;
      try {
        let skipped: readonly SkippedListItem[] = [];
        let hint: CacheHint = {};
        const fetchedAt = Date.now();
        const options = { signal: s.abort.signal, onSkipped: (items: readonly SkippedListItem[]) => (skipped = items), onCacheHint: (h: CacheHint) => (hint = h) };
        switch (kind) {
          case 'tools':
            h.tools = await s.client.listTools(options);
            break;
          case 'resources':
            h.resources = await s.client.listResources(options);
            break;
          case 'templates':
            h.templates = await s.client.listResourceTemplates(options);
            break;
          case 'prompts':
            h.prompts = await s.client.listPrompts(options);
            break;
          default: {
            const never: never = kind;
            throw new Error(`unknown list ${String(never)}`);
          }
        }
        if (h.session !== s) return;
        h.listFreshness[kind] = { fetchedAt, ...(hint.ttlMs !== undefined ? { freshUntil: fetchedAt + hint.ttlMs } : {}), ...(hint.cacheScope ? { cacheScope: hint.cacheScope } : {}) };
        delete h.listErrors[kind];
        if (skipped.length === 0) delete h.skippedItems[kind];
        else {
          h.skippedItems[kind] = skipped;
          report.log(`skipped ${skipped.length} malformed ${kind === 'templates' ? 'resource template' : kind.slice(0, -1)}${skipped.length === 1 ? '' : 's'}: ${skipped.map(describeSkippedItem).join('; ')}`);
        }
      } catch (error) {
        if (h.session !== s || s.stopping) return;
        // Servers from before templates existed answer "method not found": an empty list, not a fault.
        if (kind === 'templates' && error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) {
          h.templates = [];
        } else {
          h.listErrors[kind] = errorMessage(error);
          report.log(`could not list ${kind}: ${errorMessage(error)}`);
        }
      }
      report.changed();
    } while (state.again);
  };
  state.inflight = run().finally(() => {
    state.inflight = undefined;
  });
  return state.inflight;
}
