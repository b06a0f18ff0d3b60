// Reads the `ui://` view a tool names from its server, checked (appResource.ts): for the tool
// panel before a call, and for "Open App View" under an @mcp answer.
import { AppDocument, appDocumentFrom } from '../../apps/appResource';
import type { UseCaseContext } from '../panels/useCaseContext';

/** The view `uri` of `serverId`, ready for a page; throws when it cannot be read or is not an app. */
export async function readAppDocument(ctx: UseCaseContext, serverId: string, uri: string): Promise<AppDocument> {
  const client = await ctx.client(serverId);
  const listed = ctx.server(serverId)?.resources?.find((r) => r.uri === uri);
  return appDocumentFrom(uri, await client.readResource(uri, { timeoutMs: ctx.timeoutMs(serverId) }), listed);
}
