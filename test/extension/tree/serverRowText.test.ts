import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from '../../../src/client/schemas';
import { annotationWords, itemDescription, schemaType, summarizeInputSchema, toolTooltip } from '../../../src/extension/tree/itemTooltips';
import { capabilitiesText, hostOf, problemLabel, serverDescription, serverRowMarks, serverStateText, serverTooltip, statusIcon, statusWord, type StatusKind } from '../../../src/extension/tree/serverRowText';
import { consentPrompt } from '../../../src/extension/trust/consentText';
import { countStatuses, statusBarText } from '../../../src/extension/tree/statusBarText';
import { escapeMarkdown, plainPickText } from '../../../src/content/untrustedText';
import { offsetToPosition } from '../../../src/extension/config/textPosition';
import { relativeTime, rootsDescription } from '../../../src/extension/tree/rowTime';
import { transportLabel } from '../../../src/protocol/redaction';

describe('escapeMarkdown', () => {
  test('server text cannot form links, HTML, images or code', () => {
    const hostile = '[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> ![i](http://x/y.png) `code` **b**';
    const out = escapeMarkdown(hostile);
    // Every punctuation character is escaped, so none of the constructs survive.
    let i = 0;
    while (i < out.length) {
      if (out[i] === '\\') i += 2;
      else {
        assert.equal(/[[\]()<>!`*_]/.test(out[i]), false, `unescaped ${out[i]} at ${i}`);
        i++;
      }
    }
    assert.ok(out.includes('\\[click\\]\\(command\\:'));
    // Unescaping gives back the text exactly.
    assert.equal(out.replace(/\\(.)/g, '$1'), hostile);
  });

  test('line breaks become hard breaks', () => {
    assert.equal(escapeMarkdown('a\r\nb\nc'), 'a  \nb  \nc');
  });
});

describe('input schema summaries', () => {
  test('parameters with types and required flags', () => {
    const params = summarizeInputSchema({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where' },
        count: { type: ['integer', 'null'] },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { enum: ['fast', 'slow'] },
        opt: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        nested: { type: 'object', properties: { a: {} } },
        free: {},
      },
      required: ['path', 'tags'],
    });
    assert.deepEqual(
      params.map((p) => [p.name, p.type, p.required]),
      [
        ['path', 'string', true],
        ['count', 'integer | null', false],
        ['tags', 'array<string>', true],
        ['mode', 'enum("fast", "slow")', false],
        ['opt', 'string | number', false],
        ['nested', 'object', false],
        ['free', 'any', false],
      ],
    );
    assert.equal(params[0].description, 'Where');
    assert.deepEqual(summarizeInputSchema(undefined), []);
    assert.equal(schemaType(true), 'any');
  });

  test('tool tooltip lists description, parameters and annotations, escaped', () => {
    const tool: Tool = {
      name: 'write_file',
      description: 'Writes <b>a</b> file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path'] },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    };
    const md = toolTooltip(tool);
    assert.ok(md.startsWith('**write\\_file**'));
    assert.ok(md.includes('Writes \\<b\\>a\\<\\/b\\> file'));
    assert.ok(md.includes('- path: string (required)'));
    assert.ok(md.includes('- content: string'));
    assert.equal(md.includes('content: string (required)'), false);
    assert.ok(md.includes('may modify its environment · destructive · idempotent · closed world'));
    assert.deepEqual(annotationWords(undefined), []);
  });
});

describe('server rows', () => {
  test('description: protocol and server when running, state otherwise, always the origin', () => {
    assert.equal(
      serverDescription({ status: 'running', origin: '.vscode/mcp.json', protocolVersion: '2025-06-18', serverInfo: { name: 'everything', version: '1.0.0' } }),
      'everything 1.0.0 · .vscode/mcp.json · MCP 2025-06-18',
    );
    assert.equal(
      serverDescription({ status: 'running', origin: '.vscode/mcp.json', protocolVersion: '2025-06-18', era: 'legacy', serverInfo: { name: 'everything', version: '1.0.0' } }),
      'everything 1.0.0 · .vscode/mcp.json · MCP 2025-06-18',
      'a legacy version names its era by itself',
    );
    assert.equal(
      serverDescription({ status: 'running', origin: '.vscode/mcp.json', protocolVersion: '2026-07-28', era: 'modern', serverInfo: { name: 'eras', version: '2.0.0' } }),
      'eras 2.0.0 · .vscode/mcp.json · MCP 2026-07-28 (modern)',
    );
    assert.equal(serverDescription({ status: 'stopped', origin: 'User settings' }), 'stopped · User settings');
    assert.equal(serverDescription({ status: 'stopping', origin: '.mcp.json' }), 'stopping · .mcp.json');
    assert.equal(serverDescription({ status: 'waiting', origin: '.mcp.json', waitingFor: 'consent' }), 'waiting for consent · .mcp.json');
    assert.equal(
      serverDescription({ status: 'stopped', origin: '.vscode/mcp.json', remote: { host: hostOf('https://mcp.example.com:8443/mcp?x=1'), transport: transportLabel('http') } }),
      'stopped · mcp.example.com:8443 · HTTP · .vscode/mcp.json',
    );
    assert.equal(
      serverDescription({ status: 'running', origin: '.mcp.json', protocolVersion: '2024-11-05', remote: { host: hostOf('http://127.0.0.1:3001/sse'), transport: transportLabel('http', 'sse') } }),
      '127.0.0.1:3001 · HTTP+SSE · .mcp.json · MCP 2024-11-05',
    );
  });

  test('a server waiting for consent says so in the same words on its row and in its tooltip', () => {
    const facts = { name: 'notes', status: 'waiting', waitingFor: 'consent', origin: '.mcp.json', sourceLabel: '.mcp.json' } as const;
    assert.equal(serverStateText(facts), 'waiting for consent');
    assert.ok(serverDescription(facts).startsWith('waiting for consent'));
    assert.match(serverTooltip(facts), /^\*\*notes\*\* — waiting for consent/);
    assert.equal(serverStateText({ status: 'error', reconnecting: true }), 'reconnecting…');
  });

  test('capabilities and tooltip; instructions are escaped', () => {
    assert.equal(capabilitiesText({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: false }, logging: {} }), 'tools (listChanged), resources (subscribe), logging');
    assert.equal(capabilitiesText(undefined), 'none');
    const md = serverTooltip({
      name: 'notes',
      status: 'running',
      origin: '.vscode/mcp.json',
      sourceLabel: '.vscode/mcp.json (demo)',
      commandLine: 'node server.mjs',
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      instructions: 'Use [me](https://evil) first',
    });
    assert.ok(md.includes('Use \\[me\\]\\(https\\:'));
    assert.ok(md.includes('Capabilities: tools'));
    assert.match(md.replace(/\\(.)/g, '$1'), /@mcp asks with its tools\. VS Code runs @mcp \(even \/tools\) only with a model selected in the chat/, 'the tooltip says what @mcp needs');
    const remote = serverTooltip({ name: 'docs', status: 'running', origin: 'User settings', sourceLabel: 'User settings', remote: { host: 'mcp.example', transport: 'Streamable HTTP' }, signIn: 'signed in, token expires in 52 min 0 s (12:52:00), refreshed automatically' });
    assert.ok(remote.includes(`\n\nSign-in: ${escapeMarkdown('signed in, token expires in 52 min 0 s (12:52:00), refreshed automatically')}`), remote);
    assert.ok(!md.includes('Sign-in:'), 'a server without sign-in says nothing of it');
  });
});

/** Every state a server row can show, with the codicon and theme color a person sees. */
const STATUS_ICONS: Record<StatusKind, { id: string; color?: string }> = {
  starting: { id: 'loading~spin' },
  waiting: { id: 'shield', color: 'list.warningForeground' },
  running: { id: 'pass', color: 'testing.iconPassed' },
  stopped: { id: 'circle-outline' },
  error: { id: 'error', color: 'errorForeground' },
  blocked: { id: 'circle-slash', color: 'list.warningForeground' },
  stopping: { id: 'debug-stop' },
  signin: { id: 'account', color: 'list.warningForeground' },
};

describe('statusIcon', () => {
  test('each state has its codicon and color', () => {
    for (const [kind, icon] of Object.entries(STATUS_ICONS) as [StatusKind, { id: string; color?: string }][]) {
      assert.deepEqual(statusIcon(kind), icon, kind);
    }
  });

  test('no two states look alike, and only a start in progress spins', () => {
    const kinds = Object.keys(STATUS_ICONS) as StatusKind[];
    const looks = kinds.map((k) => JSON.stringify(statusIcon(k)));
    assert.equal(new Set(looks).size, kinds.length, looks.join('\n'));
    assert.deepEqual(kinds.filter((k) => statusIcon(k).id.endsWith('~spin')), ['starting']);
    // Every state has its word too (the tooltip and the quick picks show it).
    assert.equal(new Set(kinds.map(statusWord)).size, kinds.length);
  });
  // That VS Code knows each codicon and color: test/e2e/codicons.test.ts (against the code-server under test).
});

describe('small texts', () => {
  test('relative times', () => {
    const now = 1_000_000_000;
    assert.equal(relativeTime(now - 500, now), 'just now');
    assert.equal(relativeTime(now - 12_000, now), '12s ago');
    assert.equal(relativeTime(now - 185_000, now), '3m ago');
    assert.equal(relativeTime(now - 2 * 3600_000, now), '2h ago');
    assert.equal(rootsDescription(1, now - 12_000, now), '1 root · asked 12s ago');
    assert.equal(rootsDescription(2, undefined, now), '2 roots · not asked yet');
  });

  test('status bar text, hidden when nothing is configured', () => {
    assert.equal(statusBarText(countStatuses([], 0)), undefined);
    assert.equal(statusBarText(countStatuses(['running', 'running', 'error'], 0)), '$(server) MCP 2 running, 1 error');
    assert.equal(statusBarText(countStatuses(['stopped', 'blocked'], 2)), '$(server) MCP 0 running, 1 blocked, 2 config problems');
    assert.equal(statusBarText(countStatuses(['running', 'waiting', 'waiting'], 0), 'consent'), '$(server) MCP 1 running, 2 waiting for consent');
    assert.equal(statusBarText(countStatuses(['running', 'signin'], 0)), '$(server) MCP 1 running, 1 to sign in');
  });

  test('a row description does not repeat the title before the description', () => {
    assert.equal(itemDescription('Echo Tool', 'Echoes back the input string\nMore.'), 'Echoes back the input string');
    assert.equal(itemDescription('Echo Tool', undefined), 'Echo Tool');
    assert.equal(itemDescription(undefined, '\n  Second line first  '), 'Second line first');
  });

  test('problem labels', () => {
    assert.equal(problemLabel('mcp.json', 12, 5, 'args must be an array of strings'), 'mcp.json:12:5 — args must be an array of strings');
  });

  test('the consent prompt shows the command, cwd and env names, never env values', () => {
    const p = consentPrompt({ name: 'notes', sourceLabel: '.vscode/mcp.json (demo)', command: 'node', args: ['s.mjs', '/my dir'], cwd: '/w', envNames: ['TOKEN', 'A'] });
    assert.equal(p.message, 'Start the MCP server "notes" defined in this workspace?');
    assert.ok(p.detail.includes("Command: node s.mjs '/my dir'"));
    assert.match(p.detail, /Deny is remembered.*Cancel decides nothing/s);
    const w = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-host-consent-')));
    try {
      mkdirSync(join(w, 'demo'));
      mkdirSync(join(w, 'node_modules', 'e'), { recursive: true });
      writeFileSync(join(w, 'node_modules', 'e', 'index.js'), '');
      const shown = consentPrompt({ name: 'e', sourceLabel: 'x', command: 'node', args: [`${w}/demo/../node_modules/./e/index.js`, 'stdio', '../rel'], cwd: `${w}/demo/`, envNames: [] });
      assert.ok(shown.detail.includes(`Command: node ${w}/node_modules/e/index.js stdio ../rel`), shown.detail);
      assert.ok(shown.detail.includes(`Working directory: ${w}/demo\n`), shown.detail);
      // Through a symbolic link ".." is not where it looks: the consent shows the path as written.
      symlinkSync(join(w, 'node_modules', 'e'), join(w, 'demo', 'evil'));
      writeFileSync(join(w, 'demo', 'index.js'), '');
      const crafted = consentPrompt({ name: 'e', sourceLabel: 'x', command: 'node', args: [`${w}/demo/evil/../index.js`], cwd: w, envNames: [] });
      assert.ok(crafted.detail.includes(`Command: node ${w}/demo/evil/../index.js`), crafted.detail);
    } finally {
      rmSync(w, { recursive: true, force: true });
    }
    assert.ok(p.detail.includes('Working directory: /w'));
    assert.ok(p.detail.includes('Environment variables it sets: A, TOKEN'));
  });

  test('the consent prompt of a remote server shows the URL, the transport and each header, secret ones masked', () => {
    const p = consentPrompt({
      type: 'sse',
      name: 'cloud',
      sourceLabel: '.vscode/mcp.json (demo)',
      url: 'https://mcp.example.com/sse',
      headers: [
        { name: 'Authorization', value: 'Bearer ${input:token}' },
        { name: 'X-Team', value: 'blue' },
      ],
    });
    assert.equal(p.message, 'Start the MCP server "cloud" defined in this workspace?');
    assert.deepEqual(p.detail.split('\n').slice(0, 6), [
      'Defined in: .vscode/mcp.json (demo)',
      'URL: https://mcp.example.com/sse',
      'Transport: HTTP+SSE',
      'Headers it sends:',
      '  Authorization: Bearer ${input:token}',
      '  X-Team: blue',
    ]);
  });
});

describe('offsetToPosition', () => {
  test('0-based lines and characters across LF, CRLF and CR', () => {
    const text = 'ab\ncd\r\nef\rgh';
    assert.deepEqual(offsetToPosition(text, 0), { line: 0, character: 0 });
    assert.deepEqual(offsetToPosition(text, 4), { line: 1, character: 1 });
    assert.deepEqual(offsetToPosition(text, 5), { line: 1, character: 2 }, 'on the CR of CRLF');
    assert.deepEqual(offsetToPosition(text, 6), { line: 1, character: 3 }, 'between CR and LF');
    assert.deepEqual(offsetToPosition(text, 7), { line: 2, character: 0 });
    assert.deepEqual(offsetToPosition(text, 10), { line: 3, character: 0 });
    assert.deepEqual(offsetToPosition(text, 99), { line: 3, character: 2 }, 'clamped to the end');
  });
});

test('text from a server or a workspace shows in a quick pick as written, never as an icon', () => {
  assert.equal(plainPickText('$(pass-filled) verified'), '\\$(pass-filled) verified');
  assert.equal(plainPickText('a $(x) and $(y~spin)'), 'a \\$(x) and \\$(y~spin)');
  assert.equal(plainPickText('costs $5 (maybe)'), 'costs $5 (maybe)', 'a dollar sign without a parenthesis is left alone');
  assert.equal(plainPickText(undefined), undefined);
});

test('a server row says first that Record Session records it, then that it is unresponsive or shared', () => {
  assert.equal(serverRowMarks({ recording: true, unresponsive: true, shared: true }), '● recording · unresponsive · shared with chat · ');
  assert.equal(serverRowMarks({}), '');
  const md = serverTooltip({ name: 'notes', status: 'running', origin: '.mcp.json', sourceLabel: '.mcp.json', recording: true });
  assert.match(md, /Recording its session/);
});
