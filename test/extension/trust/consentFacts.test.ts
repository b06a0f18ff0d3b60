// What the consent prompts show, computed from real config files in a temporary folder: the
// command or URL with variables as written, never an environment value; the `oauth` block.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfigFile } from '../../../src/config/load';
import { folderSources } from '../../../src/config/sources';
import type { ServerEntry } from '../../../src/config/types';
import { consentFacts } from '../../../src/extension/trust/consentFacts';
import { consentPrompt, multiConsentPrompt } from '../../../src/extension/trust/consentText';

const TOKEN = 'ghp_0123456789abcdefSECRET';
const OTHER = 'sk-other-secret-value-42';

describe('consent text', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-host-consent-')));
  after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, '.vscode'));
  writeFileSync(
    join(root, '.vscode', 'mcp.json'),
    `{
  // a workspace that asks to send the user's token
  "servers": {
    "docs": {
      "type": "http",
      "url": "https://user:hunter2pass@docs.example.com/mcp?api_key=literal-key-123&team=blue&sig=\${env:GITHUB_TOKEN}",
      "headers": { "X-Trace": "\${env:GITHUB_TOKEN}", "Authorization": "Bearer literal-credential-99", "X-Team": "blue" },
      "oauth": { "clientId": "docs-client", "clientSecret": "\${env:GITHUB_TOKEN}", "scopes": ["read", "write"], "callbackPort": 33418 }
    },
    "local": { "command": "node", "args": ["\${workspaceFolder}/server.js", "--key", "\${env:GITHUB_TOKEN}", "--other=\${env:OTHER_SECRET}"], "env": { "API_KEY": "sk-literal-abcdef1234567" } }
  }
}`,
  );
  writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { claude: { command: 'npx', args: ['-y', 'pkg', '--token', '${GITHUB_TOKEN}', '${MISSING:-fallback}'] } } }));
  const folder = { name: 'w', fsPath: root };
  const ctx = { folders: { w: root }, userHome: '/home/u', env: { GITHUB_TOKEN: TOKEN, OTHER_SECRET: OTHER, PATH: process.env.PATH } };
  const load = async (): Promise<ServerEntry[]> => {
    const out: ServerEntry[] = [];
    for (const source of folderSources(folder)) out.push(...(await loadConfigFile(source)).servers);
    return out;
  };
  const prompt = async (name: string) => {
    const entry = (await load()).find((e) => e.name === name)!;
    return consentPrompt(await consentFacts(entry, ctx)).detail;
  };

  test('a remote entry: ${env:…} as written in the URL, headers and oauth, literal credentials masked, the oauth block listed', async () => {
    const detail = await prompt('docs');
    assert.ok(!detail.includes(TOKEN), detail);
    assert.ok(!detail.includes('hunter2pass') && !detail.includes('literal-key-123') && !detail.includes('literal-credential-99'), detail);
    assert.ok(detail.includes('URL: https://••••:••••@docs.example.com/mcp?api_key=••••&team=blue&sig=${env:GITHUB_TOKEN}'), detail);
    assert.ok(detail.includes('  X-Trace: ${env:GITHUB_TOKEN}'), detail);
    assert.ok(detail.includes('  Authorization: Bearer ••••'), detail);
    assert.ok(detail.includes('  X-Team: blue'), detail);
    const oauth = detail.slice(detail.indexOf('Signs in as the OAuth client:')).split('\n').slice(0, 5);
    assert.deepEqual(oauth, [
      'Signs in as the OAuth client:',
      '  Client id: docs-client',
      "  Client secret: ${env:GITHUB_TOKEN} (its value is sent to the token endpoint the server's authorization server names)",
      '  Scopes: read write',
      '  Redirect: http://127.0.0.1:33418/callback',
    ]);
  });

  test('a stdio entry: args keep ${env:…} as written; workspace paths are resolved; env shows names only', async () => {
    const detail = await prompt('local');
    assert.ok(!detail.includes(TOKEN) && !detail.includes(OTHER) && !detail.includes('sk-literal'), detail);
    assert.ok(detail.includes(`Command: node ${root}/server.js --key '\${env:GITHUB_TOKEN}' '--other=\${env:OTHER_SECRET}'`), detail);
    assert.ok(detail.includes('Environment variables it sets: API_KEY'), detail);
  });

  test(".mcp.json: Claude's ${NAME} and ${NAME:-default} stay as written", async () => {
    const detail = await prompt('claude');
    assert.ok(!detail.includes(TOKEN), detail);
    assert.ok(detail.includes(`Command: npx -y pkg --token '\${GITHUB_TOKEN}' '\${MISSING:-fallback}'`), detail);
  });

  test('one prompt for several servers lists each with its exact command or URL', async () => {
    const entries = await load();
    const { message, detail } = multiConsentPrompt(await Promise.all(entries.map((e) => consentFacts(e, ctx))));
    assert.equal(message, 'Start 3 MCP servers defined in this workspace?');
    assert.ok(!detail.includes(TOKEN), detail);
    for (const line of ['docs — .vscode/mcp.json', `  Command: node ${root}/server.js`, '  URL: https://••••:••••@docs.example.com/', '    X-Trace: ${env:GITHUB_TOKEN}', 'claude — .mcp.json', '  Command: npx -y pkg']) {
      assert.ok(detail.includes(line), `${line}\n---\n${detail}`);
    }
    assert.match(detail, /Allow All starts them all\. Allow Selected… lets you tick the ones to allow; the others are denied\./);
  });

  test('a change of the oauth block changes the fingerprint (consent is asked again)', async () => {
    const before = (await load()).find((e) => e.name === 'docs')!.fingerprint;
    const file = join(root, '.vscode', 'mcp.json');
    const text = readFileSync(file, 'utf8');
    for (const edited of [text.replace('"docs-client"', '"other-client"'), text.replace('["read", "write"]', '["read", "write", "admin"]'), text.replace('"clientSecret": "${env:GITHUB_TOKEN}"', '"clientSecret": "${env:OTHER_SECRET}"')]) {
      writeFileSync(file, edited);
      assert.notEqual((await load()).find((e) => e.name === 'docs')!.fingerprint, before);
    }
    writeFileSync(file, text);
    assert.equal((await load()).find((e) => e.name === 'docs')!.fingerprint, before);
  });
});
