// F10: a recording is a new file of mode 0600, made without following a link at its path, and its
// header names the server without the credentials given on its command line.
import assert from 'node:assert/strict';
import { lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EVERYTHING, cliTestHooks, runCliInProcess } from './cliProcess';
import { displayCommandLine, maskCredentialArguments } from '../../src/protocol/redaction';
import { recordedServerLabel } from '../../src/usecases/recordingFile';

const dir = cliTestHooks('mcp-host-record-');

describe('--record FILE', { timeout: 60_000 }, () => {
  test('over an existing 0644 file: the recording is a new file of mode 0600', async () => {
    const file = join(dir, 'existing.jsonl');
    writeFileSync(file, 'old content\n', { mode: 0o644 });
    assert.equal(statSync(file).mode & 0o777, 0o644);
    const r = await runCliInProcess(['ping', '--record', file, '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /old content/);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
  });

  test('a symbolic link at the path is replaced, its target left as it was', async () => {
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'do not overwrite\n', { mode: 0o644 });
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    const r = await runCliInProcess(['ping', '--record', link, '--', ...EVERYTHING]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(target, 'utf8'), 'do not overwrite\n');
    assert.ok(!lstatSync(link).isSymbolicLink(), 'the link was replaced by the recording');
    assert.equal(lstatSync(link).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(link, 'utf8').split('\n')[0]).mcpHostRecording, 1);
  });

  test('credential arguments of the server command are masked in the header', async () => {
    const file = join(dir, 'token.jsonl');
    // server-everything ignores arguments after its transport name.
    const r = await runCliInProcess(['ping', '--record', file, '--', ...EVERYTHING, '--token', 'sk_live_abcdef123456', '--api-key=key-987654321', '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /sk_live_abcdef123456|key-987654321/);
    const header = JSON.parse(text.split('\n')[0]) as { server: string };
    assert.match(header.server, /--token •••• --api-key=•••• --verbose$/);
  });
});

describe('masking credential arguments (one definition: consent, Server Details, recordings)', () => {
  test('values of credential flags are masked, other arguments and variable references kept', () => {
    assert.deepEqual(maskCredentialArguments(['--token', 'abc123456', '--port', '8080', '--api-key=k-1234567', '--client-secret', '${input:s}', '--auth-file', 'a.json', '--verbose']), ['--token', '••••', '--port', '8080', '--api-key=••••', '--client-secret', '${input:s}', '--auth-file', 'a.json', '--verbose']);
    assert.deepEqual(maskCredentialArguments(['--token', '--next']), ['--token', '--next'], 'a flag after a credential flag is not its value');
    assert.equal(displayCommandLine('npx', ['server', '--password', 'hunter22']), "npx server --password ••••");
    assert.equal(recordedServerLabel({ type: 'stdio', command: 'node', args: ['s.js', '--access-token=t0k3n1234'] } as never), "node s.js --access-token=••••");
    assert.equal(recordedServerLabel({ type: 'http', url: 'https://u:p4ss@h.example/mcp?api_key=sk_1234' } as never), 'https://••••:••••@h.example/mcp?api_key=••••');
  });
});
