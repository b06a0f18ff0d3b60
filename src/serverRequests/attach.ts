// Wires the sampling and elicitation services onto one server's client: the request handlers
// (given to the client when it is created, so a legacy server's requests and a modern server's
// input requests get the same answers), `notifications/elicitation/complete`, and forgetting the
// server's pending URL elicitations when its process goes away.
import type { McpClient, ServerRequestHandlers } from '../client/client';
import type { RequestContext, RequestHandler } from '../protocol/connection';
import { Disposable, DisposableStore } from '../protocol/disposable';
import type { ElicitationHandlers, SamplingHandlers } from './servicesOnDemand';
import { ReceivedTasks, receivedTasksCapability } from './taskReceiver';
import type { ServerIdentity, ServerRequestLog } from './types';

export const ELICITATION_COMPLETE = 'notifications/elicitation/complete';

/** The services themselves, or stand-ins that load them on first use (servicesOnDemand.ts). */
export interface ServerRequestServices {
  readonly sampling?: SamplingHandlers;
  readonly elicitation?: ElicitationHandlers;
}

/** The capabilities to declare for the services given. */
export function clientCapabilitiesFor(services: ServerRequestServices): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (services.sampling) caps.sampling = {};
  if (services.elicitation) caps.elicitation = services.elicitation.capability();
  // A legacy server may ask for these as tasks (2025-11-25); attachServerRequests serves them.
  const tasks = receivedTasksCapability({ sampling: !!services.sampling, elicitation: !!services.elicitation });
  if (tasks) caps.tasks = tasks;
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
 * The answers to one server's sampling and elicitation requests, for `McpClientOptions.handlers`:
 * they answer a legacy server's requests and a modern server's input requests alike.
 */
export function requestHandlersFor(server: ServerIdentity, services: ServerRequestServices): ServerRequestHandlers {
  const handlers: Record<string, RequestHandler> = {};
  if (services.sampling) handlers['sampling/createMessage'] = waitingOnUser(services.sampling.handler(server));
  if (services.elicitation) handlers['elicitation/create'] = waitingOnUser(services.elicitation.handler(server));
  return handlers;
}

/**
 * Wires onto `client` (call before `connect()`): the request handlers, task-aware (a legacy server
 * may ask for sampling or elicitation as a task: taskReceiver.ts, with tasks/get, tasks/result,
 * tasks/list and tasks/cancel), `notifications/elicitation/complete`, and forgetting the server's
 * URL elicitations when it goes away. A client given requestHandlersFor() at construction gets
 * the same answers from these. It all goes away when the client closes, or when the Disposable is disposed.
 */
export function attachServerRequests(client: McpClient, server: ServerIdentity, services: ServerRequestServices, options: { readonly log?: ServerRequestLog } = {}): Disposable {
  const store = new DisposableStore();
  const { elicitation } = services;
  if (elicitation) store.add(client.onNotification(ELICITATION_COMPLETE, (params) => elicitation.onCompleteNotification(server, params)));
  // Requests the server asks for as tasks: answered at once, run through the same handlers, followed with tasks/*.
  const received = store.add(new ReceivedTasks({ notify: (method, params) => client.notify(method, params), pauseTimeouts: () => client.pauseTimeouts(), log: (level, text) => options.log?.(server.id, level, text) }));
  for (const [method, handler] of Object.entries(requestHandlersFor(server, services))) store.add(client.onRequest(method, received.augment(method, handler)));
  for (const [method, handler] of Object.entries(received.handlers())) store.add(client.onRequest(method, handler));
  store.add(
    client.onClose(() => {
      // The next process of this server will not know this one's elicitation ids.
      elicitation?.completions.forget(server.id);
      store.dispose();
    }),
  );
  return store;
}
