import { z } from 'zod';

/** Protocol versions this client speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

export function isSupportedVersion(v: unknown): v is ProtocolVersion {
  return typeof v === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

/** True when `version` is `since` or newer (dates compare as strings). */
export function atLeast(version: ProtocolVersion, since: ProtocolVersion): boolean {
  return version >= since;
}

// Every object is loose: fields we do not know are kept, not stripped.
const obj = z.looseObject;
const meta = z.record(z.string(), z.unknown()).optional();

export const ImplementationSchema = obj({ name: z.string(), version: z.string(), title: z.string().optional() });
export type Implementation = z.infer<typeof ImplementationSchema>;

export const ServerCapabilitiesSchema = obj({
  experimental: z.record(z.string(), z.unknown()).optional(),
  logging: obj({}).optional(),
  completions: obj({}).optional(),
  prompts: obj({ listChanged: z.boolean().optional() }).optional(),
  resources: obj({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
  tools: obj({ listChanged: z.boolean().optional() }).optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

export const InitializeResultSchema = obj({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
  _meta: meta,
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

const AnnotationsSchema = obj({
  audience: z.array(z.enum(['user', 'assistant'])).optional(),
  priority: z.number().optional(),
  lastModified: z.string().optional(),
});

const TextResourceContentsSchema = obj({ uri: z.string(), mimeType: z.string().optional(), text: z.string(), _meta: meta });
const BlobResourceContentsSchema = obj({ uri: z.string(), mimeType: z.string().optional(), blob: z.string(), _meta: meta });
export const ResourceContentsSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

const TextContent = obj({ type: z.literal('text'), text: z.string(), annotations: AnnotationsSchema.optional(), _meta: meta });
const ImageContent = obj({ type: z.literal('image'), data: z.string(), mimeType: z.string(), annotations: AnnotationsSchema.optional(), _meta: meta });
const AudioContent = obj({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations: AnnotationsSchema.optional(), _meta: meta });
const EmbeddedResource = obj({ type: z.literal('resource'), resource: ResourceContentsSchema, annotations: AnnotationsSchema.optional(), _meta: meta });
const ResourceLink = obj({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});

export type TextContent = z.infer<typeof TextContent>;
export type ImageContent = z.infer<typeof ImageContent>;
export type AudioContent = z.infer<typeof AudioContent>;
export type EmbeddedResource = z.infer<typeof EmbeddedResource>;
export type ResourceLink = z.infer<typeof ResourceLink>;
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export const ToolAnnotationsSchema = obj({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

const JsonSchemaObject = obj({ type: z.literal('object') });

export const ToolSchema = obj({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject.optional(),
  annotations: ToolAnnotationsSchema.optional(),
  _meta: meta,
});
export type Tool = z.infer<typeof ToolSchema>;

export const ResourceSchema = obj({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = obj({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const PromptArgumentSchema = obj({ name: z.string(), title: z.string().optional(), description: z.string().optional(), required: z.boolean().optional() });
export const PromptSchema = obj({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  _meta: meta,
});
export type Prompt = z.infer<typeof PromptSchema>;
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

export type CallToolResult = {
  content: ContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
};
export type ReadResourceResult = { contents: ResourceContents[]; [key: string]: unknown };
export type PromptMessage = { role: 'user' | 'assistant'; content: ContentBlock; [key: string]: unknown };
export type GetPromptResult = { description?: string; messages: PromptMessage[]; [key: string]: unknown };
export type CompleteResult = { completion: { values: string[]; total?: number; hasMore?: boolean }; [key: string]: unknown };
export type Paginated<K extends string, T> = { [key in K]: T[] } & { nextCursor?: string };

export const CompleteResultSchema = obj({
  completion: obj({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
});
export const ReadResourceResultSchema = obj({ contents: z.array(ResourceContentsSchema) });
export const EmptyResultSchema = obj({});

export const LoggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LoggingLevels)[number];

export const LogMessageParamsSchema = obj({ level: z.enum(LoggingLevels), logger: z.string().optional(), data: z.unknown() });
export type LogMessage = z.infer<typeof LogMessageParamsSchema>;
export const ResourceUpdatedParamsSchema = obj({ uri: z.string() });

// ---- lists: the page is checked as a whole, each item on its own ----

/** The item type of each list, by the key the list result holds it under. */
export interface ListItem {
  tools: Tool;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
  prompts: Prompt;
}
export type ListKey = keyof ListItem;

/** The shape of each item of a list, by the key the list result holds it under. */
export const LIST_ITEM_SCHEMAS = { tools: ToolSchema, resources: ResourceSchema, resourceTemplates: ResourceTemplateSchema, prompts: PromptSchema } as const;

const pages = new Map<ListKey, z.ZodType<Paginated<ListKey, unknown>>>();

/** One page of a list: an array of items still to be checked one by one, and the next cursor. */
export function listPageSchema<K extends ListKey>(key: K): z.ZodType<Paginated<K, unknown>> {
  let page = pages.get(key);
  if (!page) {
    page = obj({ [key]: z.array(z.unknown()), nextCursor: z.string().optional() }) as unknown as z.ZodType<Paginated<ListKey, unknown>>;
    pages.set(key, page);
  }
  return page as z.ZodType<Paginated<K, unknown>>;
}

/**
 * Deepest nesting of one list item, its schemas included. Everything that shows a tool walks
 * its schemas, recursively; a deeper item is skipped (JSON.stringify overflows at a few
 * thousand levels, and no real schema comes near this).
 */
export const MAX_LIST_ITEM_DEPTH = 128;

/** An item of a list that was left out because it is malformed; the rest of the list is kept. */
export interface SkippedListItem {
  /** Position in the whole list as the server sent it (counting across pages). */
  readonly index: number;
  /** The item's name (or URI), when it has one. */
  readonly name?: string;
  /** Which field is wrong: `tools[1].inputSchema.type must be one of "object"`. */
  readonly problem: string;
}

/** "tools[1].description must be a string" — one line per skipped item, for logs and stderr. */
export function describeSkippedItem(item: SkippedListItem): string {
  return item.name === undefined ? item.problem : `${item.problem} (${JSON.stringify(item.name)})`;
}

/** The result shapes that differ between protocol versions, built once per version. */
export interface VersionedSchemas {
  readonly content: z.ZodType<ContentBlock>;
  readonly callToolResult: z.ZodType<CallToolResult>;
  readonly getPromptResult: z.ZodType<GetPromptResult>;
}

const cache = new Map<ProtocolVersion, VersionedSchemas>();

/** Shapes valid for `version`: audio content exists from 2025-03-26, resource links and structured content from 2025-06-18. */
export function schemasFor(version: ProtocolVersion): VersionedSchemas {
  const hit = cache.get(version);
  if (hit) return hit;
  const blocks: [z.ZodType, ...z.ZodType[]] = [TextContent, ImageContent];
  if (atLeast(version, '2025-03-26')) blocks.push(AudioContent);
  blocks.push(EmbeddedResource);
  if (atLeast(version, '2025-06-18')) blocks.push(ResourceLink);
  const content = z.discriminatedUnion('type', blocks as never) as unknown as z.ZodType<ContentBlock>;
  const callToolResult = obj({
    content: z.array(content),
    isError: z.boolean().optional(),
    structuredContent: atLeast(version, '2025-06-18') ? z.record(z.string(), z.unknown()).optional() : z.unknown().optional(),
    _meta: meta,
  }) as unknown as z.ZodType<CallToolResult>;
  const getPromptResult = obj({
    description: z.string().optional(),
    messages: z.array(obj({ role: z.enum(['user', 'assistant']), content })),
  }) as unknown as z.ZodType<GetPromptResult>;
  const built: VersionedSchemas = { content, callToolResult, getPromptResult };
  cache.set(version, built);
  return built;
}
