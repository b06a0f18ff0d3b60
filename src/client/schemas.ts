import { FIRST_MODERN_PROTOCOL_VERSION } from '../protocol/transport';
import type * as Zod from '../protocol/zod';
import { loadZod, onDemand } from '../protocol/zodOnDemand';
import { isRecord } from '../protocol/jsonShape';

/** Protocol versions of the legacy era (the `initialize` handshake) this client speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** Protocol versions of the modern era (`server/discover`, per-request `_meta`) this client speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS = [FIRST_MODERN_PROTOCOL_VERSION] as const;
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Any version a session can run at, of either era. */
export type SessionVersion = ProtocolVersion | ModernProtocolVersion;

/** The two ways a session starts: `initialize` (legacy) or `server/discover` and per-request `_meta` (modern). */
export type ProtocolEra = 'legacy' | 'modern';

export function isSupportedVersion(v: unknown): v is ProtocolVersion {
  return typeof v === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

export function isModernVersion(v: unknown): v is ModernProtocolVersion {
  return typeof v === 'string' && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

/** True when `version` is `since` or newer (dates compare as strings). */
export function atLeast(version: SessionVersion, since: SessionVersion): boolean {
  return version >= since;
}

/** The `_meta` keys of the modern era (requests carry the first four, results and notifications the last two). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

// The schemas are built on first use, in groups (zodOnDemand.ts): activation loads this module
// (the client, the tree) but neither zod nor a schema. Every object is loose: fields we do not
// know are kept, not stripped.
const metaOf = (z: typeof Zod) => z.optional(z.record(z.string(), z.unknown()));

/** The shapes of a session's start and of the small answers (ping, completions, notifications). */
export const sessionSchemas = onDemand((z) => {
  const obj = z.looseObject;
  const meta = metaOf(z);
  const implementation = obj({ name: z.string(), version: z.string(), title: z.optional(z.string()) });
  const serverCapabilities = obj({
    experimental: z.optional(z.record(z.string(), z.unknown())),
    logging: z.optional(obj({})),
    completions: z.optional(obj({})),
    prompts: z.optional(obj({ listChanged: z.optional(z.boolean()) })),
    resources: z.optional(obj({ subscribe: z.optional(z.boolean()), listChanged: z.optional(z.boolean()) })),
    tools: z.optional(obj({ listChanged: z.optional(z.boolean()) })),
  });
  const initializeResult = obj({ protocolVersion: z.string(), capabilities: serverCapabilities, serverInfo: implementation, instructions: z.optional(z.string()), _meta: meta });
  /** The answer to `server/discover` (2026-07-28). */
  const discoverResult = obj({
    supportedVersions: z.array(z.string()),
    capabilities: serverCapabilities,
    instructions: z.optional(z.string()),
    ttlMs: z.optional(z.number()),
    cacheScope: z.optional(z.enum(['public', 'private'])),
    resultType: z.optional(z.string()),
    _meta: meta,
  });
  /** One request the server needs answered before it can finish (2026-07-28 multi round-trip). */
  const inputRequest = obj({ method: z.string(), params: z.optional(z.record(z.string(), z.unknown())) });
  /** `resultType: "input_required"`: what the server needs, and state to echo back unchanged. */
  const inputRequiredResult = obj({ resultType: z.literal('input_required'), inputRequests: z.optional(z.record(z.string(), inputRequest)), requestState: z.optional(z.string()) });
  return {
    implementation,
    serverCapabilities,
    initializeResult,
    discoverResult,
    inputRequest,
    inputRequiredResult,
    completeResult: obj({ completion: obj({ values: z.array(z.string()), total: z.optional(z.number()), hasMore: z.optional(z.boolean()) }) }),
    emptyResult: obj({}),
    logMessageParams: obj({ level: z.enum(LoggingLevels), logger: z.optional(z.string()), data: z.unknown() }),
    resourceUpdatedParams: obj({ uri: z.string() }),
  };
});
type SessionSchemas = ReturnType<typeof sessionSchemas>;

export type Implementation = Zod.infer<SessionSchemas['implementation']>;
export type ServerCapabilities = Zod.infer<SessionSchemas['serverCapabilities']>;
export type InitializeResult = Zod.infer<SessionSchemas['initializeResult']>;
export type DiscoverResult = Zod.infer<SessionSchemas['discoverResult']>;
export type InputRequest = Zod.infer<SessionSchemas['inputRequest']>;
export type InputRequiredResult = Zod.infer<SessionSchemas['inputRequiredResult']>;

/** How long a result may be reused (`ttlMs`) and by whom (`cacheScope`); modern results carry it. */
export interface CacheHint {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}

/** Content blocks and resource contents, every kind of every version (schemasFor picks a version's). */
const contentSchemas = onDemand((z) => {
  const obj = z.looseObject;
  const meta = metaOf(z);
  const annotations = obj({ audience: z.optional(z.array(z.enum(['user', 'assistant']))), priority: z.optional(z.number()), lastModified: z.optional(z.string()) });
  const textResource = obj({ uri: z.string(), mimeType: z.optional(z.string()), text: z.string(), _meta: meta });
  const blobResource = obj({ uri: z.string(), mimeType: z.optional(z.string()), blob: z.string(), _meta: meta });
  const resourceContents = z.union([textResource, blobResource]);
  const annotated = { annotations: z.optional(annotations), _meta: meta };
  return {
    annotations,
    resourceContents,
    readResourceResult: obj({ contents: z.array(resourceContents) }),
    text: obj({ type: z.literal('text'), text: z.string(), ...annotated }),
    image: obj({ type: z.literal('image'), data: z.string(), mimeType: z.string(), ...annotated }),
    audio: obj({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), ...annotated }),
    embeddedResource: obj({ type: z.literal('resource'), resource: resourceContents, ...annotated }),
    resourceLink: obj({
      type: z.literal('resource_link'),
      uri: z.string(),
      name: z.string(),
      title: z.optional(z.string()),
      description: z.optional(z.string()),
      mimeType: z.optional(z.string()),
      size: z.optional(z.number()),
      ...annotated,
    }),
  };
});
type ContentSchemas = ReturnType<typeof contentSchemas>;

export type ResourceContents = Zod.infer<ContentSchemas['resourceContents']>;
export type TextContent = Zod.infer<ContentSchemas['text']>;
export type ImageContent = Zod.infer<ContentSchemas['image']>;
export type AudioContent = Zod.infer<ContentSchemas['audio']>;
export type EmbeddedResource = Zod.infer<ContentSchemas['embeddedResource']>;
export type ResourceLink = Zod.infer<ContentSchemas['resourceLink']>;
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** The shape of each item of a list, by the key the list result holds it under. */
export const listItemSchemas = onDemand((z) => {
  const obj = z.looseObject;
  const meta = metaOf(z);
  const annotations = z.optional(contentSchemas().annotations);
  const jsonSchemaObject = obj({ type: z.literal('object') });
  const toolAnnotations = obj({
    title: z.optional(z.string()),
    readOnlyHint: z.optional(z.boolean()),
    destructiveHint: z.optional(z.boolean()),
    idempotentHint: z.optional(z.boolean()),
    openWorldHint: z.optional(z.boolean()),
  });
  const tools = obj({
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    inputSchema: jsonSchemaObject,
    outputSchema: z.optional(jsonSchemaObject),
    annotations: z.optional(toolAnnotations),
    /** 2025-11-25: whether the tool runs as a task ("forbidden" when absent). A value we do not know is kept, and read as "forbidden". */
    execution: z.optional(obj({ taskSupport: z.optional(z.string()) })),
    _meta: meta,
  });
  const described = { title: z.optional(z.string()), description: z.optional(z.string()) };
  const resources = obj({ uri: z.string(), name: z.string(), ...described, mimeType: z.optional(z.string()), size: z.optional(z.number()), annotations, _meta: meta });
  const resourceTemplates = obj({ uriTemplate: z.string(), name: z.string(), ...described, mimeType: z.optional(z.string()), annotations, _meta: meta });
  const promptArgument = obj({ name: z.string(), ...described, required: z.optional(z.boolean()) });
  const prompts = obj({ name: z.string(), ...described, arguments: z.optional(z.array(promptArgument)), _meta: meta });
  return { tools, resources, resourceTemplates, prompts };
});
type ListItemSchemas = ReturnType<typeof listItemSchemas>;

export type Tool = Zod.infer<ListItemSchemas['tools']>;
export type ToolAnnotations = NonNullable<Tool['annotations']>;
export type Resource = Zod.infer<ListItemSchemas['resources']>;
export type ResourceTemplate = Zod.infer<ListItemSchemas['resourceTemplates']>;
export type Prompt = Zod.infer<ListItemSchemas['prompts']>;
export type PromptArgument = NonNullable<Prompt['arguments']>[number];

// ---- tasks (2025-11-25) ----

/** The states of a task; the last three are terminal. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const taskSchemas = onDemand((z) => {
  const obj = z.looseObject;
  const meta = metaOf(z);
  const task = obj({
    taskId: z.string(),
    status: z.enum(TASK_STATUSES),
    statusMessage: z.optional(z.string()),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttl: z.nullable(z.number()),
    pollInterval: z.optional(z.number()),
  });
  return {
    task,
    /** The answer to a task-augmented request (tools/call with `task`). */
    createTaskResult: obj({ task, _meta: meta }),
    /** tasks/get and tasks/cancel answer with the task itself. */
    getTaskResult: obj({ ...task.shape, _meta: meta }),
    listTasksResult: obj({ tasks: z.array(task), nextCursor: z.optional(z.string()), _meta: meta }),
  };
});
type TaskSchemas = ReturnType<typeof taskSchemas>;

export type Task = Zod.infer<TaskSchemas['task']>;
export type CreateTaskResult = Zod.infer<TaskSchemas['createTaskResult']>;
export type ListTasksResult = Zod.infer<TaskSchemas['listTasksResult']>;

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


export const LoggingLevels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LoggingLevels)[number];

export type LogMessage = Zod.infer<SessionSchemas['logMessageParams']>;
const LOGGING_LEVELS: ReadonlySet<unknown> = new Set(LoggingLevels);
/**
 * Params that sessionSchemas().logMessageParams accepts as they are, known without the copy its parse makes:
 * `notifications/message` is what a flooding server sends most (100,000 parses were a sixth of
 * what the extension host allocated). Whatever this does not accept goes through the schema;
 * test/client/schemas.test.ts holds the two to each other.
 */
export function isPlainLogMessage(params: unknown): params is LogMessage {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const { level, logger } = params as Record<string, unknown>;
  return LOGGING_LEVELS.has(level) && (logger === undefined || typeof logger === 'string') && Object.hasOwn(params, 'data') && !Object.hasOwn(params, '__proto__');
}

// ---- lists: the page is checked as a whole, each item on its own ----

/** The item type of each list, by the key the list result holds it under. */
export interface ListItem {
  tools: Tool;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
  prompts: Prompt;
}
export type ListKey = keyof ListItem;

const pages = new Map<ListKey, Zod.ZodMiniType<Paginated<ListKey, unknown>>>();

/** One page of a list: an array of items still to be checked one by one, and the next cursor. */
export function listPageSchema<K extends ListKey>(key: K): Zod.ZodMiniType<Paginated<K, unknown>> {
  let page = pages.get(key);
  if (!page) {
    const z = loadZod();
    page = z.looseObject({ [key]: z.array(z.unknown()), nextCursor: z.optional(z.string()) }) as unknown as Zod.ZodMiniType<Paginated<ListKey, unknown>>;
    pages.set(key, page);
  }
  return page as Zod.ZodMiniType<Paginated<K, unknown>>;
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

/**
 * The common tool result, checked by hand: text blocks only, each `{type: "text", text}` with at
 * most a `_meta` object, and the optional fields of the right type. zod (even compiled) copies
 * every object it validates; this accepts such a result as it is. Must accept only what the
 * schema accepts; anything else goes through zod, which explains what is wrong.
 */
export function isPlainTextResult(v: unknown, structuredIsRecord: boolean): boolean {
  if (!isRecord(v) || !Array.isArray(v.content)) return false;
  if (v.isError !== undefined && typeof v.isError !== 'boolean') return false;
  if (v._meta !== undefined && !isRecord(v._meta)) return false;
  if (structuredIsRecord && v.structuredContent !== undefined && !isRecord(v.structuredContent)) return false;
  for (const block of v.content) {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
    if (block.annotations !== undefined || (block._meta !== undefined && !isRecord(block._meta))) return false;
  }
  return true;
}

/** `schema`, with `safeParse` answering at once for values `fast` accepts (see isPlainTextResult). */
function withFastPath<T>(schema: Zod.ZodMiniType<T>, fast: (v: unknown) => boolean): Zod.ZodMiniType<T> {
  const safeParse = (value: unknown) => (fast(value) ? { success: true as const, data: value as T } : schema.safeParse(value));
  return Object.create(schema, { safeParse: { value: safeParse } }) as Zod.ZodMiniType<T>;
}

/** The result shapes that differ between protocol versions, built once per version. */
export interface VersionedSchemas {
  readonly content: Zod.ZodMiniType<ContentBlock>;
  readonly callToolResult: Zod.ZodMiniType<CallToolResult>;
  readonly getPromptResult: Zod.ZodMiniType<GetPromptResult>;
}

const cache = new Map<SessionVersion, VersionedSchemas>();

/** Shapes valid for `version`: audio content exists from 2025-03-26, resource links and structured content from 2025-06-18. */
export function schemasFor(version: SessionVersion): VersionedSchemas {
  const hit = cache.get(version);
  if (hit) return hit;
  const z = loadZod();
  const kinds = contentSchemas();
  const blocks: [Zod.ZodMiniType, ...Zod.ZodMiniType[]] = [kinds.text, kinds.image];
  if (atLeast(version, '2025-03-26')) blocks.push(kinds.audio);
  blocks.push(kinds.embeddedResource);
  if (atLeast(version, '2025-06-18')) blocks.push(kinds.resourceLink);
  const content = z.discriminatedUnion('type', blocks as never) as unknown as Zod.ZodMiniType<ContentBlock>;
  const checkedCallToolResult = z.looseObject({
    content: z.array(content),
    isError: z.optional(z.boolean()),
    structuredContent: atLeast(version, '2025-06-18') ? z.optional(z.record(z.string(), z.unknown())) : z.optional(z.unknown()),
    _meta: metaOf(z),
  }) as unknown as Zod.ZodMiniType<CallToolResult>;
  const callToolResult = withFastPath(checkedCallToolResult, (v) => isPlainTextResult(v, atLeast(version, '2025-06-18')));
  const getPromptResult = z.looseObject({
    description: z.optional(z.string()),
    messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content })),
  }) as unknown as Zod.ZodMiniType<GetPromptResult>;
  const built: VersionedSchemas = { content, callToolResult, getPromptResult };
  cache.set(version, built);
  return built;
}

/** `resources/read`'s answer (the same in every version). */
export function readResourceResultSchema(): Zod.ZodMiniType<ReadResourceResult> {
  return contentSchemas().readResourceResult as unknown as Zod.ZodMiniType<ReadResourceResult>;
}
