import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, suite, test } from 'node:test';
import { resolveEntry } from '../../src/config/variables';
import { serverTooltip } from '../../src/extension/tree/serverRowText';
import { formatFrame } from '../../src/extension/logs/logFormat';
import { serverDetails } from '../../src/usecases/serverInfo';
import { Redactor, formatCommandLine } from '../../src/protocol/redaction';
import { disposeRegistries, entries, fixture, makeRegistry, NODE, variableContext } from './support';

after(disposeRegistries);

suite('secrets never reach a log line or a shown text', () => {
  test('values from ${env:…}, the envFile, literal env entries and a password input with a quote are redacted everywhere', async () => {
    // A random part in each, so a leak in any form (raw, quoted, escaped) is found by searching for it.
    const tag = () => randomBytes(6).toString('hex');
    const secrets = {
      fromEnv: `env-token-${tag()}`,
      fromEnvFile: `file-secret-${tag()}`,
      literal: `literal-key-${tag()}`,
      // A quote and a space: the command line is shell-quoted, which used to hide it from the redactor.
      input: `pa'ss word-${tag()}`,
    };
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-secrets-'));
    const envFile = path.join(dir, 'server.env');
    await fs.writeFile(envFile, `FILE_SECRET=${secrets.fromEnvFile}\n`);
    process.env.MCP_HOST_TEST_TOKEN = secrets.fromEnv;
    try {
      const { registry, logs } = makeRegistry();
      const list = entries(
        {
          leaky: {
            command: NODE,
            args: [fixture('lifecycle.mjs'), 'ok', '--stderr-env', 'FROM_ENV,FILE_SECRET,LITERAL,PASSWORD', '--token=${env:MCP_HOST_TEST_TOKEN}', '--password=${input:pw}'],
            env: { FROM_ENV: '${env:MCP_HOST_TEST_TOKEN}', LITERAL: secrets.literal, PASSWORD: '${input:pw}', CACHE: '${workspaceFolder}/.cache', DEBUG: 'true' },
            envFile,
          },
        },
        [{ id: 'pw', type: 'promptString', password: true }],
      );
      const frames: string[] = [];
      registry.onDidCreateClient(({ client }) => client.onFrame((frame) => frames.push(formatFrame(frame, 0, shown))));
      // What the VS Code layer does: one redactor fed with every resolved server's secrets.
      const shown = new Redactor();
      const ctx = variableContext({ pw: secrets.input });
      await registry.update(list, async (entry) => {
        const resolved = await resolveEntry(entry, ctx);
        shown.add(...resolved.secretValues);
        return resolved;
      });
      const h = registry.get(list[0].id)!;
      assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
      // The env tool answers with the whole environment: a frame full of secrets.
      await h.client!.callTool('env');
      const stats = h.client!.stats();

      const resolved = h.resolved!;
      assert.equal(resolved.type, 'stdio');
      if (resolved.type !== 'stdio') return;
      const texts = [
        ...logs.map((l) => l.text),
        ...frames,
        serverTooltip({ name: 'leaky', status: 'running', origin: 'o', sourceLabel: 's', commandLine: shown.redact(formatCommandLine(resolved.command, resolved.args)) }),
        JSON.stringify(serverDetails({ server: h, client: h.client, stats, health: undefined, noise: [], redact: (t: string) => shown.redact(t), now: Date.now() })),
      ];
      await registry.stop(h.id);
      texts.push(...logs.map((l) => l.text));

      // The test would prove nothing if the secrets never came near the text.
      assert.ok(logs.some((l) => l.text.startsWith('starting: ')), 'the command line was logged');
      assert.ok(logs.some((l) => l.text === 'stderr: LITERAL is ••••'), logs.map((l) => l.text).join('\n'));
      assert.ok(frames.some((f) => f.includes('FILE_SECRET')), 'the env tool result was traced');
      assert.equal(resolved.env.CACHE.endsWith('/.cache'), true);
      assert.ok(texts.some((t) => t.includes(`${resolved.env.CACHE}`)), 'a workspace path is not a secret: the CACHE value stays readable');
      assert.ok(frames.some((f) => f.includes('\\"DEBUG\\":\\"true\\"')), 'a boolean setting is no secret: hiding every "true" would wreck the traces');
      for (const [kind, secret] of Object.entries(secrets)) {
        const random = secret.slice(-12);
        const leaks = texts.filter((t) => t.includes(random));
        assert.deepEqual(leaks, [], `the ${kind} secret leaked`);
      }
    } finally {
      delete process.env.MCP_HOST_TEST_TOKEN;
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
