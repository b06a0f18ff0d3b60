// The client the official conformance suite tests (scripts/conformance.mjs runs it, built to
// dist/conformance-client.js). Following the suite's convention, the server URL is the last
// argument and the scenario name is in MCP_CONFORMANCE_SCENARIO. It is the product's own core —
// McpClient over the HTTP transport a `"type": "http"` entry gets, elicitation answered by the
// product's ElicitationService — and only chooses, per scenario, what a user would do: which tool
// to call with which arguments, and to accept an elicitation form as it is. Nothing here writes
// wire messages itself. Exit status 0 when the flow completed, 1 with one line on stderr if not.
//
// Authorization (the `auth/*` scenarios) is the product's OAuthSession on the transport, as the
// CLI uses it: the loopback redirect on 127.0.0.1, a memory token store, and a "browser" that
// follows the authorization URL (the suite's authorization servers approve at once and redirect
// to the loopback listener). What the driver chooses is what a user configures: the sign-in is
// confirmed, the client id metadata document URL is the suite's convention for clients that
// have one, and a pre-registered client comes from the scenario's context
// (MCP_CONFORMANCE_CONTEXT `client_id` / `client_secret`). The authorization extensions' scenarios
// hand over what a user would configure for a grant without a browser (a client secret or private
// key, the enterprise identity provider and its ID token, a workload token): the driver configures
// that grant, as an entry's `oauth.grant` does. DPoP needs no configuration (used when offered).
import { loopbackRedirect, MachineGrant, MemoryTokenStore, OAuthSession, PreRegisteredClient } from '../../src/auth';
import { McpClient } from '../../src/client/client';
import { McpLocalError } from '../../src/protocol/errors';
import { describeSkippedItem, type Tool } from '../../src/client/schemas';
import { attachServerRequests, clientCapabilitiesFor, requestHandlersFor } from '../../src/serverRequests/attach';
import { DialogQueue } from '../../src/serverRequests/dialogQueue';
import { ElicitationPrompter, ElicitationService } from '../../src/serverRequests/elicitation';
import type { ServerIdentity } from '../../src/serverRequests/types';
import { createHttpTransport } from '../../src/transport/httpTransport';
import { listSkills } from '../../src/skills/catalog';
import { SkillLoader } from '../../src/skills/loader';
import { SkillVerificationError } from '../../src/skills/verification';
import { withSkillsCapability } from '../../src/skills/wire';

const CLIENT_INFO = { name: 'mcp-host-conformance', version: '0.1.0' };
/**
 * The client id metadata document URL the suite's clients use (its example clients and
 * auth/basic-cimd); a user gives theirs with mcpHost.oauth.clientMetadataUrl or --client-metadata-url.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const SERVER: ServerIdentity = { id: 'conformance', name: 'conformance server' };

/** What the driver does once connected, per scenario; a scenario not listed gets `lists`. */
type Flow = (client: McpClient) => Promise<void>;

function log(text: string): void {
  process.stderr.write(`[driver] ${text}\n`);
}

function findTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`the server lists no tool named ${name} (it lists: ${tools.map((t) => t.name).join(', ') || 'none'})`);
  return tool;
}

/** What the host does after connecting: read the lists the server declared. */
const lists: Flow = async (client) => {
  if (client.serverCapabilities?.tools) log(`tools: ${(await client.listTools()).map((t) => t.name).join(', ') || 'none'}`);
};

/**
 * A request for a capability the server did not declare: the client must refuse it locally
 * (McpLocalError 'capability', nothing sent). Anything else — the server declaring it after all,
 * the request answered, another error — fails the flow.
 */
async function expectCapabilityRefusal(client: McpClient, capability: 'tools' | 'resources' | 'prompts', request: () => Promise<unknown>): Promise<void> {
  if (client.serverCapabilities?.[capability]) throw new Error(`the server declares ${capability}; the flow expected it not to`);
  const outcome = await request().then(
    () => new Error(`a ${capability} request was answered although the server declares no ${capability}`),
    (error: unknown) => (McpLocalError.is(error, 'capability') ? undefined : new Error(`expected the client to refuse the ${capability} request itself, got: ${String(error)}`)),
  );
  if (outcome) throw outcome;
  log(`${capability}: refused by the client (the server declares no ${capability}), as expected`);
}

/** Lists the tools, then calls one with the arguments a user would fill in. */
function callTool(name: string, args: Record<string, unknown>): Flow {
  return async (client) => {
    findTool(await client.listTools(), name);
    const result = await client.callTool(name, args);
    log(`${name}: ${JSON.stringify(result.content)}`);
  };
}

/** What a host does on a protected server: list the tools, then call one (both may need authorization). */
const listThenCall: Flow = async (client) => {
  const tools = await client.listTools();
  log(`tools: ${tools.map((t) => t.name).join(', ') || 'none'}`);
  const result = await client.callTool(findTool(tools, 'test-tool').name, {});
  log(`test-tool: ${JSON.stringify(result.content)}`);
};

/** The tool calls a scenario hands the driver in MCP_CONFORMANCE_CONTEXT (`{ toolCalls: [{ name, arguments }] }`). */
function contextToolCalls(): Array<{ name: string; arguments: Record<string, unknown> }> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> };
  return (context.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments ?? {} }));
}

/** Arguments a user would type for a tool: each required string property gets the same neutral text, nothing else. */
function requiredStrings(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  return Object.fromEntries(required.filter((k) => schema.properties?.[k]?.type === 'string').map((k) => [k, 'example']));
}

/** What a host does on connecting to a skills server: lists the skills (name, description), reads none of their files. */
const listSkillsOnly: Flow = async (client) => {
  const { skills } = await listSkills(client);
  log(`skills: ${skills.map((s) => `${s.frontmatter.name} (${s.uri})`).join(', ') || 'none'}`);
};

/**
 * The user selects the first listed skill: it is loaded (SKILL.md read and verified). The server
 * of these scenarios serves a SKILL.md that fails verification, so the flow expects the refusal,
 * of the kind the scenario names; a skill that loads, or another error, fails the flow.
 */
function loadRefused(kind: 'digest' | 'size' | 'frontmatter'): Flow {
  return async (client) => {
    const { skills } = await listSkills(client);
    if (!skills[0]) throw new Error('the server lists no skill');
    const refusal = await new SkillLoader(client).load(skills[0]).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!SkillVerificationError.is(refusal, kind)) throw new Error(`expected the ${kind} check to refuse ${skills[0].uri}, got: ${refusal === undefined ? 'the skill loaded' : String(refusal)}`);
    log(`refused as expected: ${refusal.message}`);
  };
}

const FLOWS: Record<string, Flow> = {
  // Skills (SEP-2640): listing reads no file; loading verifies size, digest and frontmatter.
  'sep-2640-client-no-prefetch': listSkillsOnly,
  'sep-2640-client-verify-digest': loadRefused('digest'),
  'sep-2640-client-verify-size': loadRefused('size'),
  'sep-2640-client-verify-frontmatter': loadRefused('frontmatter'),
  initialize: lists,
  tools_call: callTool('add_numbers', { a: 2, b: 3 }),
  // The server elicits during the call; the prompter below accepts the form untouched.
  'elicitation-sep1034-client-defaults': callTool('test_client_elicitation_defaults', {}),
  // The server ends the call's SSE stream after a priming event; the answer comes on the resumed stream.
  'sse-retry': callTool('test_reconnection', {}),
  // Everything a host does with a server: every list, every tool called, every resource read, every prompt got.
  'http-standard-headers': async (client) => {
    for (const tool of await client.listTools()) await client.callTool(tool.name, requiredStrings(tool));
    for (const resource of await client.listResources()) await client.readResource(resource.uri);
    for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name);
  },
  // The calls the scenario asks for, with its arguments (the x-mcp-header ones become Mcp-Param-* headers).
  'http-custom-headers': async (client) => {
    const tools = await client.listTools();
    for (const call of contextToolCalls()) {
      findTool(tools, call.name);
      await client.callTool(call.name, call.arguments);
    }
  },
  // Calls every tool the client kept: the ones with invalid x-mcp-header must not be among them.
  'http-invalid-tool-headers': async (client) => {
    const tools = await client.listTools({ onSkipped: (items) => items.forEach((item) => log(`dropped: ${describeSkippedItem(item)}`)) });
    for (const tool of tools) await client.callTool(tool.name, requiredStrings(tool));
  },
  // 2026-07-28: the server asks for input (an elicitation) and expects its requestState back
  // unchanged on the retry, a new id, nothing carried into an unrelated call, and a result
  // without resultType taken as complete.
  'sep-2322-client-request-state': async (client) => {
    const tools = await client.listTools();
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type']) {
      findTool(tools, name);
      log(`${name}: ${JSON.stringify((await client.callTool(name, {})).content)}`);
    }
  },
  // 2026-07-28: the server refuses the first request with -32022; every request carries _meta.
  // It declares no tools, so the host refuses a tool call itself, without sending it.
  'request-metadata': async (client) => {
    await lists(client);
    await expectCapabilityRefusal(client, 'tools', () => client.callTool('any_tool', {}));
  },
  // Hands the focal tool's inputSchema, as this client parsed it, back to the echo tool.
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listTools();
    const focal = findTool(tools, 'json_schema_2020_12_tool');
    findTool(tools, 'json_schema_echo');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
};

/**
 * The user of an elicitation form: submits it without filling any field, so every value the
 * server gets comes from the schema defaults the ElicitationService fills in.
 */
const acceptUntouched: ElicitationPrompter = {
  form: async (_server, view) => {
    log(`elicitation form: ${view.message} (fields: ${view.model.properties.map((p) => p.name).join(', ')})`);
    return { action: 'accept', content: {} };
  },
  url: async () => 'decline',
  awaitCompletion: async () => false,
  notify: (_server, level, text) => log(`${level}: ${text}`),
};

/** The pre-registered client a scenario's context names, if any. */
function preRegisteredClient(): PreRegisteredClient | undefined {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return undefined;
  const context = JSON.parse(raw) as { client_id?: unknown; client_secret?: unknown };
  if (typeof context.client_id !== 'string') return undefined;
  return { clientId: context.client_id, ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}) };
}

/** What a scenario's context holds for the authorization extensions (all strings). */
type GrantContext = Partial<Record<'client_id' | 'client_secret' | 'private_key_pem' | 'signing_algorithm' | 'idp_client_id' | 'idp_id_token' | 'idp_issuer' | 'idp_token_endpoint' | 'valid_jwt', string>>;

/** The grant a user would configure for an authorization extension's scenario; undefined for the others (the authorization code flow). */
function machineGrant(scenario: string): MachineGrant | undefined {
  const c = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as GrantContext;
  const need = (key: keyof GrantContext): string => {
    const value = c[key];
    if (typeof value !== 'string') throw new Error(`the scenario's context has no ${key}`);
    return value;
  };
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return { kind: 'client-credentials', clientId: need('client_id'), clientSecret: need('client_secret') };
    case 'auth/client-credentials-jwt':
      return { kind: 'client-credentials', clientId: need('client_id'), privateKey: need('private_key_pem'), ...(c.signing_algorithm ? { signingAlgorithm: c.signing_algorithm } : {}) };
    case 'auth/enterprise-managed-authorization':
      return {
        kind: 'enterprise-managed',
        clientId: need('client_id'),
        clientSecret: need('client_secret'),
        idp: { issuer: need('idp_issuer'), tokenEndpoint: need('idp_token_endpoint'), clientId: need('idp_client_id') },
        idToken: need('idp_id_token'),
      };
    case 'auth/wif-jwt-bearer':
      return { kind: 'workload-identity', clientId: need('client_id'), assertion: need('valid_jwt') };
    default:
      return undefined;
  }
}

/** The browser: opens the authorization page and follows its redirects, which end at the loopback listener. */
async function openInBrowser(authorizationUrl: URL): Promise<void> {
  const page = await fetch(authorizationUrl, { signal: AbortSignal.timeout(30_000) });
  await page.body?.cancel();
  log(`browser: the authorization page ended at HTTP ${page.status}`);
}

function signIn(url: string, scenario: string): OAuthSession {
  const grant = machineGrant(scenario);
  const client = grant ? undefined : preRegisteredClient();
  return new OAuthSession({
    serverUrl: url,
    store: new MemoryTokenStore(),
    redirect: loopbackRedirect({ timeoutMs: 30_000 }),
    userAgent: openInBrowser,
    confirmSignIn: async (request) => {
      log(`${request.reason} at ${request.issuer} confirmed (scopes: ${request.scopes?.join(' ') ?? 'none asked'})`);
      return true;
    },
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(client ? { client } : {}),
    ...(grant ? { grant: async () => grant } : {}),
    log: (text, level) => log(`auth${level === 'warn' ? ' (warn)' : ''}: ${text}`),
  });
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!/^https?:\/\//.test(url ?? '')) throw new Error(`usage: conformance-client <server-url> (got ${JSON.stringify(url)})`);
  const flow = FLOWS[scenario] ?? (scenario.startsWith('auth/') ? listThenCall : lists);
  log(`scenario ${scenario || '(none)'} against ${url}`);

  const queue = new DialogQueue(() => 0);
  const elicitation = new ElicitationService({
    queue,
    prompter: acceptUntouched,
    openUrl: async () => false,
    log: (_id, level, text) => log(`${level}: ${text}`),
    modes: ['form'],
  });
  const client = new McpClient({ clientInfo: CLIENT_INFO, capabilities: withSkillsCapability(clientCapabilitiesFor({ elicitation })), handlers: requestHandlersFor(SERVER, { elicitation }), requestTimeoutMs: 45_000 });
  attachServerRequests(client, SERVER, { elicitation });
  client.onTransportLog((entry) => log(`${entry.kind}: ${entry.text}`));
  try {
    const init = await client.connect(createHttpTransport({ url, headers: {}, mode: 'auto', auth: signIn(url, scenario) }));
    log(`connected: ${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion} (${client.era} era)`);
    await flow(client);
  } finally {
    await client.close();
    queue.dispose();
  }
}

const started = Date.now();
main().then(
  () => {
    log(`done in ${Date.now() - started} ms`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`conformance-client: ${error instanceof Error ? error.message : String(error)} (after ${Date.now() - started} ms)\n`);
    process.exit(1);
  },
);
