// The server's notifications that McpClient turns into its events: list changes, resource
// updates and log messages, checked before they reach a listener (a malformed one becomes a
// diagnostic). A modern server sends list changes and updates on a subscriptions/listen stream:
// only the current stream's count, which the era codec judges.
import type { ConnectionDiagnostic, JsonRpcConnection } from '../protocol/connection';
import type { Disposable } from '../protocol/disposable';
import { formatZodIssues } from '../protocol/messages';
import type { EraCodec } from './eras/eraCodec';
import { LogMessage, isPlainLogMessage, sessionSchemas } from './schemas';

/** Where each notification goes. */
export interface NotificationSinks {
  toolsListChanged(): void;
  resourcesListChanged(): void;
  promptsListChanged(): void;
  resourceUpdated(uri: string): void;
  logMessage(message: LogMessage): void;
  diagnostic(diagnostic: ConnectionDiagnostic): void;
}

/** Registers the handlers; `codec` is the session's once the handshake found it. */
export function routeServerNotifications(connection: JsonRpcConnection, codec: () => EraCodec | undefined, sinks: NotificationSinks): Disposable[] {
  const current = (params: Record<string, unknown> | undefined) => codec()?.accepts(params) ?? true;
  const listed = (fire: () => void) => (params: Record<string, unknown> | undefined) => {
    if (current(params)) fire();
  };
  return [
    connection.onNotification('notifications/tools/list_changed', listed(() => sinks.toolsListChanged())),
    connection.onNotification('notifications/resources/list_changed', listed(() => sinks.resourcesListChanged())),
    connection.onNotification('notifications/prompts/list_changed', listed(() => sinks.promptsListChanged())),
    connection.onNotification('notifications/subscriptions/acknowledged', (params) => codec()?.acknowledged(params)),
    connection.onNotification('notifications/resources/updated', (params) => {
      if (!current(params)) return;
      const parsed = sessionSchemas().resourceUpdatedParams.safeParse(params);
      if (parsed.success) sinks.resourceUpdated(parsed.data.uri);
      else sinks.diagnostic({ kind: 'invalid-message', text: `notifications/resources/updated: ${formatZodIssues(parsed.error, 'params', params)}` });
    }),
    connection.onNotification('notifications/message', (params) => {
      if (isPlainLogMessage(params)) return sinks.logMessage(params);
      const parsed = sessionSchemas().logMessageParams.safeParse(params);
      if (parsed.success) sinks.logMessage(parsed.data);
      else sinks.diagnostic({ kind: 'invalid-message', text: `notifications/message: ${formatZodIssues(parsed.error, 'params', params)}` });
    }),
  ];
}
