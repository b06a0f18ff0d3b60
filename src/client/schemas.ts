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

/** The result shapes that differ between protocol versions, built once per version. */
export interface VersionedSchemas {
  readonly content: z.ZodType<ContentBlock>;
  readonly callToolResult: z.ZodType<CallToolResult>;
  readonly getPromptResult: z.ZodType<GetPromptResult>;
  readonly listTools: z.ZodType<Paginated<'tools', Tool>>;
  readonly listResources: z.ZodType<Paginated<'resources', Resource>>;
  readonly listResourceTemplates: z.ZodType<Paginated<'resourceTemplates', ResourceTemplate>>;
  readonly listPrompts: z.ZodType<Paginated<'prompts', Prompt>>;
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
  const page = <K extends string, T extends z.ZodType>(key: K, item: T) =>
    obj({ [key]: z.array(item), nextCursor: z.string().optional() } as Record<K, z.ZodArray<T>> & { nextCursor: z.ZodOptional<z.ZodString> });
  const built: VersionedSchemas = {
    content,
    callToolResult,
    getPromptResult,
    listTools: page('tools', ToolSchema) as unknown as VersionedSchemas['listTools'],
    listResources: page('resources', ResourceSchema) as unknown as VersionedSchemas['listResources'],
    listResourceTemplates: page('resourceTemplates', ResourceTemplateSchema) as unknown as VersionedSchemas['listResourceTemplates'],
    listPrompts: page('prompts', PromptSchema) as unknown as VersionedSchemas['listPrompts'],
  };
  cache.set(version, built);
  return built;
}
