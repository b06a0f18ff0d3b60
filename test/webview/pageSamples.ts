// Every MCP Host webview page in the states a user sees, as the messages the extension posts to
// reach them. The messages come from the product's own builders (the form model, the result
// display, the elicitation and sampling views, Server Details), so a change there shows here.
import { buildFormModel, fallbacks, type ObjectField } from '../../src/forms/model';
import { initialState } from '../../src/forms/state';
import { checkFormState } from '../../src/serverRequests/elicitation';
import { sharedSchemaValidator } from '../../src/schema/validator';
import { parseElicitation, initialFormState } from '../../src/serverRequests/elicitation';
import type { WebviewPage } from './pageHarness';
import { parseCreateMessage, samplingView } from '../../src/serverRequests/sampling';
import type { DialogOutbound } from '../../src/serverRequests/dialogMessages';
import { appContentSecurityPolicy, injectAppCsp, NO_DOMAINS, pageCspAdditions } from '../../src/apps/appCsp';
import { THEME_VARIABLES } from '../../src/apps/hostContext';
import type { ViewOutbound } from '../../src/apps/viewMessages';
import type { HistoryItem, OutboundMessage } from '../../src/usecases/panelMessages';
import { promptDisplay, resourceDisplay, toolResultDisplay } from '../../src/usecases/resultModel';
import { TIMELINE_SCHEMA } from '../../src/timeline/timelineView';
import type { ServerDetailsView } from '../../src/usecases/serverInfo';
import { APP_FRAME_ASSETS, DETAILS_FEATURE, DIALOG_ASSETS, PANEL_ASSETS, TIMELINE_FEATURE, type AppPageOptions, type WebviewFeature } from '../../src/extension/webview/webviewPage';

export interface PageSample {
  /** What a person sees, e.g. "tool panel, with a result". */
  readonly name: string;
  readonly feature: WebviewFeature;
  readonly app?: AppPageOptions;
  /** Posted in order once the page said `ready`. */
  readonly messages: readonly unknown[];
  /** The page's first message, when not `ready`. */
  readonly readyType?: string;
}

/** A tool with most kinds of fields, a long default URL (reflow), an output schema and a description. */
export const TOOL = {
  name: 'deploy-service',
  title: 'Deploy service',
  description: 'Deploys a service to the chosen region and reports what changed.',
  inputSchema: {
    type: 'object',
    properties: {
      message: { type: 'string', description: 'What to say in the release note', maxLength: 200 },
      endpoint: { type: 'string', format: 'uri', default: 'https://deployments.example.com/api/v2/services/payments-gateway/regions/europe-west/rollouts?dryRun=false&notify=true' },
      replicas: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
      region: { type: 'string', enum: ['eu-west', 'us-east', 'ap-south'] },
      canary: { type: 'boolean', description: 'Roll out to one replica first' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['message', 'region'],
  },
  outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
} as const;

const toolModel = buildFormModel(TOOL.inputSchema);

const history: HistoryItem[] = [
  { id: 'h2', outcome: 'ok', summary: 'ok: true — deployed payments-gateway to eu-west with 2 replicas', durationMs: 1240, time: Date.UTC(2026, 10, 29, 6, 1), arguments: '{"message":"ship it","region":"eu-west"}', canRerun: true, canShow: true },
  { id: 'h1', outcome: 'error', summary: 'MCP error -32602: region must be one of eu-west, us-east, ap-south', durationMs: 35, time: Date.UTC(2026, 10, 29, 6, 0), arguments: '{"message":"try","region":"mars"}', canRerun: true, canShow: true },
];

export function initTool(): OutboundMessage {
  return {
    type: 'initTool',
    header: { serverName: 'everything', name: TOOL.name, title: TOOL.title, description: TOOL.description, annotations: { destructiveHint: true, readOnlyHint: false }, hasOutputSchema: true, fallbacks: fallbacks(toolModel) },
    model: toolModel,
    input: { mode: 'form', state: initialState(toolModel) ?? {} },
    timeoutSeconds: 60,
    timeoutNote: 'mcpHost.requestTimeoutSeconds',
    history,
  };
}

export function toolResult(callId: string): OutboundMessage {
  const display = toolResultDisplay(
    { content: [{ type: 'text', text: 'Deployed payments-gateway to eu-west: 2 replicas, 0 restarts.' }], structuredContent: { ok: true } },
    TOOL.outputSchema,
    sharedSchemaValidator,
  );
  return { type: 'toolResult', callId, display, durationMs: 1240 };
}

export function toolFailure(callId: string): OutboundMessage {
  return { type: 'failure', callId, failure: { kind: 'protocol', code: -32602, message: 'region must be one of eu-west, us-east, ap-south', meaning: 'Invalid params' }, durationMs: 35 };
}

export const RUNNING: readonly OutboundMessage[] = [
  { type: 'running', callId: 'c1', startedAt: Date.now(), arguments: '{\n  "message": "ship it",\n  "region": "eu-west"\n}' },
  { type: 'progress', callId: 'c1', progress: 3, total: 10, message: 'Rolling out replica 1 of 2' },
];

const PROMPT_MODEL = buildFormModel({ type: 'object', properties: { department: { type: 'string', description: 'Which team' }, tone: { type: 'string' } }, required: ['department'] });

export const promptInit: OutboundMessage = {
  type: 'initTool',
  header: { kind: 'prompt', completions: true, serverName: 'everything', name: 'completable-prompt', description: 'A prompt whose arguments are completed', hasOutputSchema: false, fallbacks: [] },
  model: PROMPT_MODEL,
  input: { mode: 'form', state: initialState(PROMPT_MODEL) ?? {} },
  timeoutSeconds: 60,
  timeoutNote: 'mcpHost.requestTimeoutSeconds',
  history: [],
};

const promptResult: OutboundMessage = {
  type: 'promptResult',
  callId: 'p1',
  display: promptDisplay({ description: 'For the Engineering team', messages: [{ role: 'user', content: { type: 'text', text: 'Write a short welcome for the Engineering team.' } }] }),
};

/** An elicitation form with required and optional fields of every kind the restricted subset has. */
export function elicitationForm(): DialogOutbound {
  const parsed = parseElicitation(
    {
      mode: 'form',
      message: 'Please tell us about the release.',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Release name', description: 'Shown in the changelog', minLength: 3 },
          email: { type: 'string', title: 'Contact email', format: 'email' },
          count: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10 },
          urgent: { type: 'boolean', title: 'Urgent', default: false },
          colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
        },
        required: ['name', 'email'],
      },
    },
    ['form', 'url'],
  );
  if (parsed.mode !== 'form') throw new Error('expected a form');
  const model: ObjectField = parsed.model;
  return { type: 'form', server: { name: 'everything', id: 'everything' }, view: { requestId: '7', message: parsed.params.message, model, state: initialFormState(model) } };
}

/**
 * The elicitation form sample opened in `page` and submitted as it starts (its required fields
 * empty) by `submit` (a click, or Enter on Submit); the extension's check of what the page sent
 * goes back to it. Returns the form sample.
 */
export async function submitFormEmpty(page: WebviewPage, submit: () => Promise<void>): Promise<Extract<DialogOutbound, { type: 'form' }>> {
  const form = elicitationForm();
  if (form.type !== 'form') throw new Error('a form sample');
  await page.send(form);
  await submit();
  const accepted = await page.waitForPosted('formAccept');
  const checked = checkFormState(form.view.model as ObjectField, accepted.state as never);
  await page.send({ type: 'formErrors', errors: checked.ok ? [] : checked.errors });
  return form;
}

function samplingDialog(): DialogOutbound {
  const params = parseCreateMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the release notes in one sentence.' } }], systemPrompt: 'You are terse.', maxTokens: 200, temperature: 0.2 });
  return { type: 'sampling', server: { name: 'everything', id: 'everything' }, request: { ...samplingView('12', params), plannedModel: { label: 'Test model', reason: 'the first model VS Code lists' } }, imagesToModel: false };
}

const details: ServerDetailsView = {
  name: 'everything',
  facts: [
    ['Status', 'running'],
    ['Defined in', '.vscode/mcp.json'],
    ['Process id', '4242'],
    ['Protocol version', '2025-11-25'],
  ],
  capabilities: 'tools (list changes), resources (subscribe, list changes), prompts, logging, completions',
  instructions: 'Use the echo tool to test.',
  command: { line: 'node server-everything/dist/index.js stdio', resolved: true, cwd: '/work/project', envNames: ['API_KEY'], path: '/usr/local/bin:/usr/bin:/bin' },
  traffic: { facts: [['Requests', '12']], methods: [{ method: 'tools/call', requests: 4, errors: 1, timeouts: 0, cancelled: 1, p50: '12 ms', p95: '900 ms', max: '1.2 s' }] },
  roots: { askedAt: Date.now() - 7_000, roots: [{ name: 'project', uri: 'file:///work/project' }] },
  noise: ['a line that was not JSON'],
  stderr: ['Starting server-everything', 'Listening on stdio'],
};

const APP_HTML = injectAppCsp('<!DOCTYPE html><html><head><title>Budget</title></head><body><h1>Budget</h1><p>An app view.</p></body></html>', appContentSecurityPolicy(NO_DOMAINS));
export const appShow: Extract<ViewOutbound, { type: 'appShow' }> = { type: 'appShow', viewId: 'v1', html: APP_HTML, allow: '', title: 'Budget allocator', subtitle: 'budget · ui://budget/app.html', mode: 'fullscreen', inlineAvailable: true, themeVariables: THEME_VARIABLES as Record<string, readonly string[]> };

/** Every page of every MCP Host webview, in the states the accessibility checks cover. */
export const PAGE_SAMPLES: readonly PageSample[] = [
  { name: 'tool panel, idle', feature: PANEL_ASSETS, messages: [initTool()] },
  { name: 'tool panel, running', feature: PANEL_ASSETS, messages: [initTool(), ...RUNNING] },
  { name: 'tool panel, with a result', feature: PANEL_ASSETS, messages: [initTool(), RUNNING[0], toolResult('c1')] },
  { name: 'tool panel, with an error', feature: PANEL_ASSETS, messages: [initTool(), RUNNING[0], toolFailure('c1')] },
  { name: 'prompt panel, with a result', feature: PANEL_ASSETS, messages: [promptInit, { type: 'running', callId: 'p1', startedAt: Date.now(), arguments: '{}' }, promptResult] },
  {
    name: 'resource view',
    feature: PANEL_ASSETS,
    messages: [{ type: 'initView', title: 'Resource 1', subtitle: 'test://static/resource/1' }, { type: 'resourceResult', callId: 'r1', uri: 'test://static/resource/1', parts: resourceDisplay({ contents: [{ uri: 'test://static/resource/1', mimeType: 'text/plain', text: 'Resource 1: This is a plaintext resource' }] }) }],
  },
  { name: 'server details', feature: DETAILS_FEATURE, messages: [{ type: 'details', view: details }] },
  { name: 'sampling dialog', feature: DIALOG_ASSETS, messages: [samplingDialog()] },
  { name: 'elicitation form', feature: DIALOG_ASSETS, messages: [elicitationForm()] },
  { name: 'app tab', feature: APP_FRAME_ASSETS, app: { csp: pageCspAdditions(APP_HTML, NO_DOMAINS) }, readyType: 'appReady', messages: [appShow] },
  { name: 'tool panel, with an app view', feature: PANEL_ASSETS, app: { csp: pageCspAdditions(APP_HTML, NO_DOMAINS) }, messages: [initTool(), RUNNING[0], toolResult('c1'), { ...appShow, mode: 'inline' }] },
  { name: 'timeline', feature: TIMELINE_FEATURE, messages: [{ type: 'init', schema: TIMELINE_SCHEMA, mode: 'live', title: 'Timeline — all servers' }] },
];
