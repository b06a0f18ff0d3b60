// Sampling and elicitation whose code (the services, their forms and dialogs) loads with the first
// request a server sends, not when the host starts: a server's client is wired at once (the
// capabilities, the request handlers, `notifications/elicitation/complete`) with stand-ins that
// load the services and hand over to them.
import type { RequestContext } from '../protocol/connection';
import type { ElicitationMode, ElicitationService } from './elicitation';
import type { SamplingService } from './sampling';
import type { ServerIdentity } from './types';

/** The services once loaded. */
export interface LoadedServerRequestServices {
  readonly sampling: SamplingService;
  readonly elicitation: ElicitationService;
}

/** What attachServerRequests and requestHandlersFor use of the sampling service. */
export type SamplingHandlers = Pick<SamplingService, 'handler'>;
/** What attachServerRequests and requestHandlersFor use of the elicitation service. */
export interface ElicitationHandlers extends Pick<ElicitationService, 'capability' | 'handler' | 'onCompleteNotification'> {
  readonly completions: Pick<ElicitationService['completions'], 'forget'>;
}

/**
 * Stand-ins for both services: `load` (import and build them, once; see OnDemand) runs on the
 * first request or completion notice; `current` is what it built, if it ran.
 */
export function servicesOnDemand(load: () => Promise<LoadedServerRequestServices>, current: () => LoadedServerRequestServices | undefined, modes: readonly ElicitationMode[]): { sampling: SamplingHandlers; elicitation: ElicitationHandlers } {
  type Handler<R> = (params: Record<string, unknown> | undefined, ctx: RequestContext) => Promise<R>;
  const sampling: SamplingHandlers = {
    handler: (server): Handler<Awaited<ReturnType<ReturnType<SamplingService['handler']>>>> => async (params, ctx) => (await load()).sampling.handler(server)(params, ctx),
  };
  // Notices are handed over in the order they came: each waits for the same load.
  let notices = Promise.resolve();
  const elicitation: ElicitationHandlers = {
    capability: () => Object.fromEntries(modes.map((m) => [m, {}])),
    handler: (server): Handler<Awaited<ReturnType<ReturnType<ElicitationService['handler']>>>> => async (params, ctx) => (await load()).elicitation.handler(server)(params, ctx),
    onCompleteNotification: (server: ServerIdentity, params: unknown) => {
      const loaded = current();
      if (loaded) loaded.elicitation.onCompleteNotification(server, params);
      // A failed load is reported by the requests that need it; a notice has no one to tell.
      else notices = notices.then(async () => (await load()).elicitation.onCompleteNotification(server, params)).catch(() => undefined);
    },
    // Nothing is waited for before the services load.
    completions: { forget: (serverId) => current()?.elicitation.completions.forget(serverId) },
  };
  return { sampling, elicitation };
}
