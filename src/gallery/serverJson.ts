// The shapes of the MCP Registry API (`/v0.1/servers`, `/v0.1/servers/{name}/versions/{version}`)
// and of the server.json documents it serves (schema 2025-12-11; older documents read the same).
// Validated with zod so a malformed entry is an error that names it, before anything is written.
// Unknown fields pass through: registries add `_meta` keys and newer schema fields.
import * as z from '../protocol/zod';

/** An input of server.json: an argument's, environment variable's, header's or URL variable's value. */
const InputShape = {
  description: z.optional(z.string()),
  isRequired: z.optional(z.boolean()),
  isSecret: z.optional(z.boolean()),
  format: z.optional(z.string()),
  value: z.optional(z.string()),
  default: z.optional(z.string()),
  placeholder: z.optional(z.string()),
  choices: z.optional(z.array(z.string())),
};
export const RegistryInput = z.looseObject(InputShape);
export type RegistryInput = z.infer<typeof RegistryInput>;

const WithVariables = { ...InputShape, variables: z.optional(z.record(z.string(), RegistryInput)) };

/** An environment variable or HTTP header the server needs (`name` plus how its value is found). */
export const KeyValueInput = z.looseObject({ ...WithVariables, name: z.string().check(z.minLength(1)) });
export type KeyValueInput = z.infer<typeof KeyValueInput>;

/** A command-line argument: `positional` (a value, or a `valueHint` to ask for) or `named` (`--flag value`). */
export const RegistryArgument = z.discriminatedUnion('type', [
  z.looseObject({ ...WithVariables, type: z.literal('positional'), valueHint: z.optional(z.string()), isRepeated: z.optional(z.boolean()) }),
  z.looseObject({ ...WithVariables, type: z.literal('named'), name: z.string().check(z.minLength(1)), isRepeated: z.optional(z.boolean()) }),
]);
export type RegistryArgument = z.infer<typeof RegistryArgument>;

/** A remote endpoint: Streamable HTTP or SSE, its URL a template whose `{variables}` are asked for. */
export const RegistryRemote = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().check(z.minLength(1)),
  headers: z.optional(z.array(KeyValueInput)),
  variables: z.optional(z.record(z.string(), RegistryInput)),
});
export type RegistryRemote = z.infer<typeof RegistryRemote>;

export const RegistryPackage = z.looseObject({
  registryType: z.string().check(z.minLength(1)),
  registryBaseUrl: z.optional(z.string()),
  identifier: z.string().check(z.minLength(1)),
  version: z.optional(z.string()),
  fileSha256: z.optional(z.string()),
  runtimeHint: z.optional(z.string()),
  transport: z.looseObject({ type: z.string(), url: z.optional(z.string()), headers: z.optional(z.array(KeyValueInput)) }),
  runtimeArguments: z.optional(z.array(RegistryArgument)),
  packageArguments: z.optional(z.array(RegistryArgument)),
  environmentVariables: z.optional(z.array(KeyValueInput)),
});
export type RegistryPackage = z.infer<typeof RegistryPackage>;

/** One server.json document. */
export const ServerDetail = z.looseObject({
  name: z.string().check(z.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'a server name is "namespace/name" (reverse DNS, one slash)')),
  description: z.string(),
  title: z.optional(z.string()),
  version: z.string().check(z.minLength(1)),
  websiteUrl: z.optional(z.string()),
  repository: z.optional(z.looseObject({ url: z.string(), source: z.optional(z.string()), subfolder: z.optional(z.string()) })),
  packages: z.optional(z.array(RegistryPackage)),
  remotes: z.optional(z.array(RegistryRemote)),
});
export type ServerDetail = z.infer<typeof ServerDetail>;

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** One entry of a list or a version lookup: the document and what the registry says about it. */
export const ServerResponse = z.looseObject({
  server: ServerDetail,
  _meta: z.optional(
    z.looseObject({
      [OFFICIAL_META]: z.optional(z.looseObject({ status: z.optional(z.string()), publishedAt: z.optional(z.string()), updatedAt: z.optional(z.string()), isLatest: z.optional(z.boolean()) })),
    }),
  ),
});
export type ServerResponse = z.infer<typeof ServerResponse>;

/** The envelope of `/v0.1/servers`; entries are validated one by one so one bad entry is named. */
export const ServerListEnvelope = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.optional(z.looseObject({ nextCursor: z.optional(z.nullable(z.string())), count: z.optional(z.number()) })),
});

/** The registry's lifecycle status of an entry (`active` when it says nothing). */
export function entryStatus(entry: ServerResponse): string {
  return entry._meta?.[OFFICIAL_META]?.status ?? 'active';
}

/** "npm, oci, remote": the ways a server can be installed, for a list row. */
export function installKinds(server: ServerDetail): string[] {
  const kinds = (server.packages ?? []).map((p) => p.registryType);
  if (server.remotes?.length) kinds.push('remote');
  return [...new Set(kinds)];
}

/** The first problem of a failed parse, as "path: message". */
export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return at ? `${at}: ${issue.message}` : issue.message;
}
