import type * as z from './zod';
import { onDemand } from './zodOnDemand';
import { isRecord } from './jsonShape';

/** A JSON-RPC request id. MCP forbids null ids. */
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface WireErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  /** Null when the server could not read the request's id (for example a parse error). */
  id: RequestId | null;
  error: WireErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard JSON-RPC and MCP error codes that travel on the wire. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: the user rejected a sampling request or its answer (by convention of the spec's examples). */
  UserRejected: -1,
  /** MCP 2025-11-25: a tool call needs the user to complete URL elicitation first (`error.data.elicitations`). */
  UrlElicitationRequired: -32042,
  /** MCP up to 2025-11-25: the resource does not exist (2026-07-28 answers InvalidParams; both are accepted). */
  ResourceNotFound: -32002,
  /** MCP 2026-07-28: an HTTP `Mcp-*` header does not match the body. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare (`data.requiredCapabilities`). */
  MissingClientCapability: -32021,
  /** MCP 2026-07-28: the server does not speak the requested protocol version (`data.supported`, `data.requested`). */
  UnsupportedProtocolVersion: -32022,
  /** The host's own: too many requests from one server already wait for the user. */
  TooManyRequests: -32000,
} as const;

/** Inbound envelope shapes; unknown fields are kept. Built on first use (a malformed envelope: well-formed ones skip them). */
export const jsonRpcSchemas = onDemand((z) => {
  const id = z.union([z.string(), z.number()]);
  const params = z.optional(z.record(z.string(), z.unknown()));
  return {
    request: z.looseObject({ jsonrpc: z.literal('2.0'), id, method: z.string(), params }),
    notification: z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), params }),
    success: z.looseObject({ jsonrpc: z.literal('2.0'), id, result: z.record(z.string(), z.unknown()) }),
    failure: z.looseObject({
      jsonrpc: z.literal('2.0'),
      id: z.optional(z.nullable(id)),
      error: z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) }),
    }),
  };
});

export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; reason: string; id?: RequestId };

export namespace Message {
  /** Decides what an inbound value is and validates its envelope. Never throws. */
  export function classify(value: unknown): ClassifiedMessage {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { kind: 'invalid', reason: 'a message must be a JSON object' };
    }
    const v = value as Record<string, unknown>;
    const fast = classifyWellFormed(v);
    if (fast) return fast;
    const maybeId = typeof v.id === 'string' || typeof v.id === 'number' ? (v.id as RequestId) : undefined;
    if (typeof v.method === 'string') {
      if ('id' in v && v.id !== undefined) {
        const r = jsonRpcSchemas().request.safeParse(v);
        return r.success ? { kind: 'request', message: r.data as JsonRpcRequest } : { kind: 'invalid', reason: describe(r.error, 'request', v), id: maybeId };
      }
      const r = jsonRpcSchemas().notification.safeParse(v);
      return r.success ? { kind: 'notification', message: r.data as JsonRpcNotification } : { kind: 'invalid', reason: describe(r.error, 'notification', v) };
    }
    if ('result' in v) {
      const r = jsonRpcSchemas().success.safeParse(v);
      return r.success ? { kind: 'response', message: r.data as JsonRpcSuccess } : { kind: 'invalid', reason: describe(r.error, 'response', v), id: maybeId };
    }
    if ('error' in v) {
      const r = jsonRpcSchemas().failure.safeParse(v);
      if (r.success) return { kind: 'response', message: { ...(r.data as JsonRpcFailure), id: (r.data.id ?? null) as RequestId | null } };
      return { kind: 'invalid', reason: describe(r.error, 'error response', v), id: maybeId };
    }
    return { kind: 'invalid', reason: 'not a request, notification or response (no method, result or error)', id: maybeId };
  }

  /**
   * The hot path: a well-formed envelope is accepted as it is, without copying it through zod
   * (which rebuilds every object it validates). Anything else returns undefined and goes through
   * the zod schemas, which explain what is wrong. Must accept exactly what the schemas accept.
   */
  function classifyWellFormed(v: Record<string, unknown>): ClassifiedMessage | undefined {
    if (v.jsonrpc !== '2.0') return undefined;
    if (typeof v.method === 'string') {
      if (!isParams(v.params)) return undefined;
      if ('id' in v && v.id !== undefined) return isId(v.id) ? { kind: 'request', message: v as unknown as JsonRpcRequest } : undefined;
      return { kind: 'notification', message: v as unknown as JsonRpcNotification };
    }
    if ('result' in v) return isId(v.id) && isRecord(v.result) ? { kind: 'response', message: v as unknown as JsonRpcSuccess } : undefined;
    if ('error' in v) {
      const e = v.error;
      if ((v.id === undefined || v.id === null || isId(v.id)) && isRecord(e) && typeof e.code === 'number' && typeof e.message === 'string') {
        return { kind: 'response', message: { ...(v as unknown as JsonRpcFailure), id: (v.id ?? null) as RequestId | null } };
      }
    }
    return undefined;
  }

  function isId(v: unknown): v is RequestId {
    return typeof v === 'string' || typeof v === 'number';
  }
  function isParams(v: unknown): boolean {
    return v === undefined || isRecord(v);
  }

  export function isFailure(m: JsonRpcResponse): m is JsonRpcFailure {
    return 'error' in m;
  }

  function describe(error: z.core.$ZodError, what: string, value: unknown): string {
    return `invalid ${what}: ${formatZodIssues(error, 'message', value)}`;
  }
}

/**
 * Turns zod issues into one readable sentence that names the field,
 * for example `result.tools must be an array`.
 */
export function formatZodIssues(error: z.core.$ZodError, root: string, input?: unknown, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const path = [root, ...issue.path.map(String)].reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : `${acc}.${p}`));
    if (issue.code === 'invalid_type') {
      if (valueAt(input, issue.path) === undefined) return `${path} is required`;
      return `${path} must be ${article(String(issue.expected))}`;
    }
    if (issue.code === 'invalid_value') return `${path} must be one of ${(issue as { values: unknown[] }).values.map((x) => JSON.stringify(x)).join(', ')}`;
    if (issue.code === 'invalid_union') return `${path} does not match any allowed shape`;
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
