// Wires the sampling and elicitation services onto one server's client, before it connects:
// the request handlers, `notifications/elicitation/complete`, and forgetting the server's
// pending URL elicitations when its process goes away.
import type { McpClient } from '../client/client';
import type { RequestContext, RequestHandler } from '../protocol/connection';
import { Disposable, DisposableStore } from '../protocol/disposable';
import type { ElicitationService } from './elicitation';
import type { SamplingService } from './sampling';
import type { ServerRef } from './types';

export const ELICITATION_COMPLETE = 'notifications/elicitation/complete';

export interface ServeServices {
  readonly sampling?: SamplingService;
  readonly elicitation?: ElicitationService;
}

/** The capabilities to declare for the services given. */
export function serveCapabilities(services: ServeServices): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (services.sampling) caps.sampling = {};
  if (services.elicitation) caps.elicitation = services.elicitation.capability();
  return caps;
}

/**
 * Sampling and elicitation wait on the user (a dialog, or the queue before it): the server's
 * calls that may need the answer must not time out meanwhile. The hold ends with the request.
 */
function waitingOnUser<R>(handler: (params: Record<string, unknown> | undefined, ctx: RequestContext) => R): RequestHandler {
  return (params, ctx) => {
    ctx.waitOnUser();
    return handler(params, ctx);
  };
}

/**
 * Registers the handlers on `client` (call before `connect()`). They go away when the client
 * closes, or earlier when the returned Disposable is disposed.
 */
export function attachServe(client: McpClient, server: ServerRef, services: ServeServices): Disposable {
  const store = new DisposableStore();
  const { sampling, elicitation } = services;
  if (sampling) store.add(client.onRequest('sampling/createMessage', waitingOnUser(sampling.handler(server))));
  if (elicitation) {
    store.add(client.onRequest('elicitation/create', waitingOnUser(elicitation.handler(server))));
    store.add(client.onNotification(ELICITATION_COMPLETE, (params) => elicitation.onCompleteNotification(server, params)));
  }
  store.add(
    client.onClose(() => {
      // The next process of this server will not know this one's elicitation ids.
      elicitation?.completions.forget(server.id);
      store.dispose();
    }),
  );
  return store;
}
