// `mcp-host call`: the tool is looked up before it is called, so a wrong name is a usage error
// that lists the server's tools, and the arguments are checked against its inputSchema (the
// tool-call use case refuses invalid ones) unless `--no-validate` sends them as given.
import type { McpClient } from '../../client/client';
import type { Tool } from '../../client/schemas';
import type { RequestOptions } from '../../protocol/connection';
import type { FieldError } from '../../forms/model';
import { UsageError } from '../arguments';

/** How many tool names a "no such tool" error lists. */
const NAMES_LISTED = 40;

/**
 * The tool to call: its listed definition (the arguments are then checked against it), or only
 * its name with `--no-validate` or when the server lists no tools. A name the server does not list
 * is a usage error naming the tools it does.
 */
export async function toolToCall(client: McpClient, name: string, noValidate: boolean, req: RequestOptions): Promise<Tool | { readonly name: string }> {
  if (!client.serverCapabilities?.tools) return { name };
  const tools = await client.listTools(req);
  const tool = tools.find((t) => t.name === name);
  if (tool) return noValidate ? { name } : tool;
  if (noValidate) return { name };
  const names = tools.map((t) => t.name);
  const listed = names.length ? `its tools: ${names.slice(0, NAMES_LISTED).join(', ')}${names.length > NAMES_LISTED ? `, and ${names.length - NAMES_LISTED} more` : ''}` : 'it lists no tools';
  throw new UsageError(`the server has no tool named ${JSON.stringify(name)}; ${listed}`);
}

/** The usage error for arguments that do not fit the inputSchema: each problem with where it is. */
export function invalidArguments(tool: string, errors: readonly FieldError[]): UsageError {
  const problems = errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; ');
  return new UsageError(`--args do not fit the inputSchema of ${tool}: ${problems} (--no-validate sends them anyway)`);
}
