// `mcp-host call` checks a result against its tool's outputSchema, as the editor does: the CLI
// calls without listing first, so the schema is looked up after the answer.
import type { McpClient } from '../client/client';
import type { CallToolResult } from '../client/schemas';
import type { RequestOptions } from '../protocol/connection';
import { sharedSchemaValidator } from '../schema/validator';
import { toolResultDisplay } from '../usecases/resultModel';

/** How many schema errors the warning names. */
const ERRORS_SHOWN = 3;

/** A warning about a result: `broken` when it breaks the schema (what --strict fails on), not when it could not be checked. */
export interface OutputProblem {
  readonly text: string;
  readonly broken: boolean;
}

/**
 * What is wrong with `result` against the outputSchema of `tool`; undefined when it conforms,
 * the tool declares none, or the tools cannot be listed (nothing to say then).
 */
export async function outputSchemaProblem(client: McpClient, tool: string, result: CallToolResult, req: RequestOptions): Promise<OutputProblem | undefined> {
  if (result.isError === true || !client.serverCapabilities?.tools) return undefined;
  let outputSchema: unknown;
  try {
    outputSchema = (await client.listTools(req)).find((t) => t.name === tool)?.outputSchema;
  } catch {
    return undefined;
  }
  if (outputSchema === undefined) return undefined;
  const { verdict } = toolResultDisplay(result, outputSchema, sharedSchemaValidator);
  switch (verdict.kind) {
    case 'missing':
      return { text: `the tool ${tool} declares an outputSchema but its result has no structuredContent`, broken: true };
    case 'invalid': {
      const shown = verdict.errors.slice(0, ERRORS_SHOWN).map((e) => `${e.path || '(root)'} ${e.message}`);
      const more = verdict.errors.length > ERRORS_SHOWN ? ` (and ${verdict.errors.length - ERRORS_SHOWN} more)` : '';
      return { text: `the result of ${tool} does not match its outputSchema: ${shown.join('; ')}${more}`, broken: true };
    }
    case 'unusable':
    case 'unchecked':
      return { text: `the result of ${tool} was not checked against its outputSchema: ${verdict.reason}`, broken: false };
    default:
      return undefined;
  }
}
