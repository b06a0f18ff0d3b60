// What an MCP App's view may reach through the host: only tools and resources of its own server,
// and of those only what the server offers to apps. The approval a tool needs is the tool-call
// use case's (callTool.ts); these checks come before it.
import { toolVisibility } from '../client/apps';
import type { Resource, ResourceTemplate, Tool } from '../client/schemas';
import { parseTemplate } from '../usecases/uriTemplate';

/** Why the view may not call `name` on its server, or undefined when it may (subject to approval). */
export function refuseAppToolCall(name: string, tools: readonly Tool[] | undefined, serverName: string): string | undefined {
  const tool = tools?.find((t) => t.name === name);
  if (!tool) return `${name} is not a tool of ${serverName}`;
  if (!toolVisibility(tool).app) return `${name} is not offered to apps (its visibility is model only)`;
  return undefined;
}

/** The literal start of a URI template, up to its first expression (`file:///{path}` → `file:///`). */
function templatePrefix(template: string): string {
  try {
    const first = parseTemplate(template).parts[0];
    return first?.kind === 'literal' ? first.text : '';
  } catch {
    return '';
  }
}

/**
 * Why the view may not read `uri`, or undefined when it may: a `ui://` resource (its server's
 * views), a resource its server lists, or a URI under one of its server's templates. Anything
 * else (another server's resource, a file path) is refused without asking the server.
 */
export function refuseAppResourceRead(uri: string, server: { readonly name: string; readonly resources?: readonly Resource[]; readonly templates?: readonly ResourceTemplate[] }): string | undefined {
  if (uri.startsWith('ui://')) return undefined;
  if (server.resources?.some((r) => r.uri === uri)) return undefined;
  for (const t of server.templates ?? []) {
    const prefix = templatePrefix(t.uriTemplate);
    // A prefix must name at least a scheme and authority, or it would match nearly anything.
    if (/^[a-z][a-z0-9+.-]*:\/\/./i.test(prefix) && uri.startsWith(prefix)) return undefined;
  }
  return `${uri} is not a resource ${server.name} lists`;
}
