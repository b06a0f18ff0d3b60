// Checks JSON-RPC messages against the official JSON Schema of an MCP protocol version, so tests
// can prove that what our client puts on the wire (and what fixtures send back) is what the spec
// of the negotiated version says. Test-only: it reads the schemas from disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

/** The versions whose schema is in the schema folder, oldest first. */
export const SCHEMA_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SchemaVersion = (typeof SCHEMA_VERSIONS)[number];

/** Seen from the client (our host): `outbound` is client → server, `inbound` server → client. */
export type WireDirection = 'outbound' | 'inbound';

export type WireCheck = { ok: true } | { ok: false; errors: string };

/** What to validate a message against: the whole message, or only its `result` object. */
export interface WireTarget {
  definition: string;
  subject: 'message' | 'result';
}

/**
 * The folder holding `<version>/schema.json`: `$MCP_SCHEMA_DIR`, else the copy the repository
 * carries in test/fixtures/mcp-schema (see its README; this file runs from `<repo>/out/test/support/`).
 */
export function schemaDir(): string {
  return process.env.MCP_SCHEMA_DIR ?? path.resolve(__dirname, '../../../test/fixtures/mcp-schema');
}

export function isSchemaVersion(version: string): version is SchemaVersion {
  return (SCHEMA_VERSIONS as readonly string[]).includes(version);
}

/** The names of every definition in a version's schema. */
export function definitionNames(version: SchemaVersion): string[] {
  return Object.keys(loadSchema(version).definitions);
}

export function hasDefinition(version: SchemaVersion, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(loadSchema(version).definitions, name);
}

/** Validates `value` against one named definition of a version's schema. */
export function validateWire(version: SchemaVersion, definition: string, value: unknown): WireCheck {
  const schema = loadSchema(version);
  const name = resolveAlias(version, definition);
  if (!hasDefinition(version, name)) {
    return { ok: false, errors: `${definition} is not defined in MCP ${version}` };
  }
  const validate = schema.ajv.getSchema(`${schema.key}#/${schema.defsKey}/${name}`);
  if (!validate) throw new Error(`ajv could not compile ${name} of MCP ${version}`);
  if (validate(value)) return { ok: true };
  return { ok: false, errors: formatErrors(validate.errors) };
}

/** Like `validateWire`, but fails the test with the schema errors. */
export function assertWire(version: SchemaVersion, definition: string, value: unknown): void {
  const check = validateWire(version, definition, value);
  if (!check.ok) assert.fail(`not a valid ${definition} of MCP ${version}: ${check.errors}\n${preview(value)}`);
}

/**
 * Picks the definition for a message from its method, independent of version. A result
 * response needs `requestMethod`, the method of the request it answers (sent the other way);
 * its result object is what gets validated. Error responses map to `JSONRPCErrorResponse`
 * (called `JSONRPCError` before 2025-11-25; `validateWire` accepts either name).
 * Returns undefined for an unknown method, or one that does not go in `direction`.
 */
export function definitionFor(message: unknown, direction: WireDirection, requestMethod?: string): WireTarget | undefined {
  if (!isObject(message)) return undefined;
  if (typeof message.method === 'string') {
    const isRequest = message.id !== undefined;
    const table = isRequest ? REQUESTS[direction] : NOTIFICATIONS[direction];
    const definition = table[message.method];
    return definition ? { definition, subject: 'message' } : undefined;
  }
  if ('error' in message) return { definition: 'JSONRPCErrorResponse', subject: 'message' };
  if ('result' in message && requestMethod !== undefined) {
    const request = REQUESTS[opposite(direction)][requestMethod];
    return request ? { definition: resultOf(request), subject: 'result' } : undefined;
  }
  return undefined;
}

/**
 * Validates a whole message as it travels in `direction` under `version`: the JSON-RPC envelope,
 * the definition for its method (or, for a response, the result of `requestMethod`), and that
 * the method belongs in that direction in that version (e.g. `ping` is gone in 2026-07-28, and
 * batches exist only in 2025-03-26).
 */
export function validateMessage(version: SchemaVersion, message: unknown, direction: WireDirection, requestMethod?: string, /** The request carried `task` (2025-11-25): its answer is a CreateTaskResult. */ taskAugmented = false): WireCheck {
  if (Array.isArray(message)) return validateBatch(version, message, direction);
  const kind = kindOf(message);
  if (kind === undefined) return validateWire(version, 'JSONRPCMessage', message);

  const envelope = validateWire(version, ENVELOPES[kind], message);
  if (!envelope.ok) return envelope;
  const msg = message as Record<string, unknown>;

  if (kind === 'error') return { ok: true };
  if (kind === 'result') {
    const target = definitionFor(message, direction, requestMethod);
    // 2026-07-28: a server may answer any request with "input required" instead of its result.
    const result = msg.result as Record<string, unknown>;
    const definition = isObject(result) && result.resultType === 'input_required' && hasDefinition(version, 'InputRequiredResult')
      ? 'InputRequiredResult'
      : taskAugmented
        ? 'CreateTaskResult'
        : (target?.definition ?? (direction === 'outbound' ? 'ClientResult' : 'ServerResult'));
    return validateWire(version, definition, msg.result);
  }

  const target = definitionFor(message, direction);
  if (target) {
    const specific = validateWire(version, target.definition, message);
    if (!specific.ok) return specific;
  }
  // Membership: the method must be one this side may send in this version.
  const union = UNIONS[direction][kind];
  if (!hasDefinition(version, union)) return { ok: false, errors: `MCP ${version} has no ${union}: ${String(msg.method)} cannot be sent ${direction}` };
  if (!validateWire(version, union, message).ok) return { ok: false, errors: `${String(msg.method)} is not a ${union} of MCP ${version}` };
  return { ok: true };
}

/** Like `validateMessage`, but fails the test with the schema errors. */
export function assertMessage(version: SchemaVersion, message: unknown, direction: WireDirection, requestMethod?: string): void {
  const check = validateMessage(version, message, direction, requestMethod);
  if (!check.ok) assert.fail(`not a valid ${direction} message of MCP ${version}: ${check.errors}\n${preview(message)}`);
}

// ---- method tables ------------------------------------------------------------------------

const REQUESTS: Record<WireDirection, Readonly<Record<string, string>>> = {
  outbound: {
    initialize: 'InitializeRequest',
    ping: 'PingRequest',
    'tools/list': 'ListToolsRequest',
    'tools/call': 'CallToolRequest',
    'resources/list': 'ListResourcesRequest',
    'resources/templates/list': 'ListResourceTemplatesRequest',
    'resources/read': 'ReadResourceRequest',
    'resources/subscribe': 'SubscribeRequest',
    'resources/unsubscribe': 'UnsubscribeRequest',
    'prompts/list': 'ListPromptsRequest',
    'prompts/get': 'GetPromptRequest',
    'logging/setLevel': 'SetLevelRequest',
    'completion/complete': 'CompleteRequest',
    'tasks/get': 'GetTaskRequest',
    'tasks/result': 'GetTaskPayloadRequest',
    'tasks/list': 'ListTasksRequest',
    'tasks/cancel': 'CancelTaskRequest',
    'server/discover': 'DiscoverRequest',
    'subscriptions/listen': 'SubscriptionsListenRequest',
  },
  inbound: {
    ping: 'PingRequest',
    'sampling/createMessage': 'CreateMessageRequest',
    'roots/list': 'ListRootsRequest',
    'elicitation/create': 'ElicitRequest',
    'tasks/get': 'GetTaskRequest',
    'tasks/result': 'GetTaskPayloadRequest',
    'tasks/list': 'ListTasksRequest',
    'tasks/cancel': 'CancelTaskRequest',
  },
};

const NOTIFICATIONS: Record<WireDirection, Readonly<Record<string, string>>> = {
  outbound: {
    'notifications/initialized': 'InitializedNotification',
    'notifications/cancelled': 'CancelledNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/roots/list_changed': 'RootsListChangedNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
  },
  inbound: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/message': 'LoggingMessageNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
    'notifications/resources/list_changed': 'ResourceListChangedNotification',
    'notifications/tools/list_changed': 'ToolListChangedNotification',
    'notifications/prompts/list_changed': 'PromptListChangedNotification',
    'notifications/elicitation/complete': 'ElicitationCompleteNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
    'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  },
};

/** Requests whose answer is an empty result rather than `<Name>Result`. */
const EMPTY_RESULT = new Set(['PingRequest', 'SubscribeRequest', 'UnsubscribeRequest', 'SetLevelRequest']);

function resultOf(requestDefinition: string): string {
  return EMPTY_RESULT.has(requestDefinition) ? 'EmptyResult' : requestDefinition.replace(/Request$/, 'Result');
}

type MessageKind = 'request' | 'notification' | 'result' | 'error';

const ENVELOPES: Record<MessageKind, string> = {
  request: 'JSONRPCRequest',
  notification: 'JSONRPCNotification',
  result: 'JSONRPCResultResponse',
  error: 'JSONRPCErrorResponse',
};

const UNIONS: Record<WireDirection, Record<'request' | 'notification', string>> = {
  outbound: { request: 'ClientRequest', notification: 'ClientNotification' },
  inbound: { request: 'ServerRequest', notification: 'ServerNotification' },
};

/**
 * Envelope names that were renamed in 2025-11-25; either name works in every version. (Before
 * 2025-11-25 `JSONRPCResponse` meant a result response; from then on it is result | error, so
 * that name is deliberately not aliased.)
 */
const ALIASES: Readonly<Record<string, string>> = {
  JSONRPCResultResponse: 'JSONRPCResponse',
  JSONRPCErrorResponse: 'JSONRPCError',
  JSONRPCError: 'JSONRPCErrorResponse',
};

function resolveAlias(version: SchemaVersion, name: string): string {
  if (hasDefinition(version, name)) return name;
  const alias = ALIASES[name];
  return alias !== undefined && hasDefinition(version, alias) ? alias : name;
}

function kindOf(message: unknown): MessageKind | undefined {
  if (!isObject(message)) return undefined;
  if (typeof message.method === 'string') return message.id !== undefined ? 'request' : 'notification';
  if ('result' in message) return 'result';
  if ('error' in message) return 'error';
  return undefined;
}

function validateBatch(version: SchemaVersion, batch: unknown[], direction: WireDirection): WireCheck {
  const whole = validateWire(version, 'JSONRPCMessage', batch);
  if (!whole.ok) return { ok: false, errors: `a batch is not a JSONRPCMessage of MCP ${version}: ${whole.errors}` };
  for (const [index, element] of batch.entries()) {
    const check = validateMessage(version, element, direction);
    if (!check.ok) return { ok: false, errors: `batch[${index}]: ${check.errors}` };
  }
  return { ok: true };
}

function opposite(direction: WireDirection): WireDirection {
  return direction === 'outbound' ? 'inbound' : 'outbound';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatErrors(errors: readonly { instancePath: string; message?: string; params?: unknown }[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'invalid';
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text;
}

// ---- schema loading -----------------------------------------------------------------------

interface LoadedSchema {
  ajv: Ajv;
  key: string;
  defsKey: 'definitions' | '$defs';
  definitions: Record<string, unknown>;
}

const loaded = new Map<SchemaVersion, LoadedSchema>();

function loadSchema(version: SchemaVersion): LoadedSchema {
  const cached = loaded.get(version);
  if (cached) return cached;
  if (!isSchemaVersion(version)) throw new Error(`no MCP schema for version ${String(version)}`);
  const file = path.join(schemaDir(), version, 'schema.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const draft2020 = String(json.$schema).includes('2020-12');
  const ajv: Ajv = draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const key = `mcp-${version}`;
  ajv.addSchema(json, key);
  const defsKey = draft2020 ? '$defs' : 'definitions';
  const definitions = (json[defsKey] ?? {}) as Record<string, unknown>;
  const schema: LoadedSchema = { ajv, key, defsKey, definitions };
  loaded.set(version, schema);
  return schema;
}

/**
 * The three formats the schemas use, kept small instead of adding `ajv-formats`: a URI needs a
 * scheme and no whitespace, `byte` is base64, and a URI template is any string.
 */
function addFormats(ajv: Ajv): void {
  ajv.addFormat('uri', /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/);
  ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat('uri-template', true);
}
