// `inspect`'s walk over what a server offers. A list that fails does not lose what came before
// it: the server info, era, instructions and the lists already received are kept, and the
// failure is returned beside them for the caller to print after them (issue 38, item 17).
import type { ListOptions, McpClient } from '../client/client';
import type { ResourceTemplate } from '../client/schemas';
import { ResponseError } from '../protocol/errors';
import { ErrorCodes } from '../protocol/messages';
import type { Inspection } from './render';

/** What `inspect` received, and the list that failed (if one did: the rest were not asked). */
export interface InspectionOutcome {
  readonly inspection: Inspection;
  readonly failed?: { readonly list: 'tools' | 'resources' | 'resource templates' | 'prompts'; readonly error: unknown };
}

/** Lists everything the server declared; sections it did not declare are left out. */
export async function inspectServer(client: McpClient, req: ListOptions): Promise<InspectionOutcome> {
  const caps = client.serverCapabilities ?? {};
  const result: { -readonly [K in keyof Inspection]: Inspection[K] } = {
    serverInfo: client.serverInfo!,
    protocolVersion: client.protocolVersion!,
    era: client.era,
    capabilities: caps,
    instructions: client.instructions,
  };
  // Sequential on purpose: a --trace of one request at a time is easier to read.
  let list: NonNullable<InspectionOutcome['failed']>['list'] = 'tools';
  try {
    if (caps.tools) result.tools = await client.listTools(req);
    if (caps.resources) {
      list = 'resources';
      result.resources = await client.listResources(req);
      list = 'resource templates';
      result.resourceTemplates = await optionalList(client.listResourceTemplates(req));
    }
    list = 'prompts';
    if (caps.prompts) result.prompts = await client.listPrompts(req);
  } catch (error) {
    return { inspection: result, failed: { list, error } };
  }
  return { inspection: result };
}

/** Everything the server offers, or the error of the first list that failed (for `diff`, which needs all of it). */
export async function wholeInspection(client: McpClient, req: ListOptions): Promise<Inspection> {
  const { inspection, failed } = await inspectServer(client, req);
  if (failed) throw failed.error;
  return inspection;
}

/** Templates are optional within the resources capability: "method not found" means none. */
async function optionalList(list: Promise<ResourceTemplate[]>): Promise<ResourceTemplate[] | undefined> {
  try {
    return await list;
  } catch (error) {
    if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) return undefined;
    throw error;
  }
}
