// docs/cli.md names every command and every flag `mcp-host --help` prints (the built dist/cli.js,
// as a user runs it), so the reference cannot fall behind the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, read } from './markdown';

const CLI = join(ROOT, 'dist', 'cli.js');

/** The commands and flags of a help text: the names under "Commands:", and every --flag and -h. */
export function helpVocabulary(help: string): { commands: string[]; flags: string[] } {
  const section = /\nCommands:\n([\s\S]*?)\n\n/.exec(help)?.[1] ?? '';
  const commands = [...section.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
  const flags = [...new Set([...help.matchAll(/(?<![\w-])(--[a-z][a-z-]*|-h)\b/g)].map((m) => m[1]))];
  return { commands, flags };
}

describe('the CLI reference', () => {
  test('docs/cli.md has a row for every command and names every flag of mcp-host --help', () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: build first (node esbuild.mjs)`);
    const r = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { commands, flags } = helpVocabulary(r.stdout);
    assert.ok(commands.length >= 12 && flags.length >= 30, `the help's vocabulary was read: ${commands.length} commands, ${flags.length} flags`);
    const page = read(join('docs', 'cli.md'));
    const missingCommands = commands.filter((c) => !new RegExp(`^\\| \`${c}\\b`, 'm').test(page));
    const missingFlags = flags.filter((f) => !page.includes('`' + f));
    assert.deepEqual({ missingCommands, missingFlags }, { missingCommands: [], missingFlags: [] });
  });

  test('the reader of the help finds a command and a flag the page would lack', () => {
    const help = 'Usage: x\n\nCommands:\n  inspect   a\n  frobnicate  b\n\nOptions:\n  --json  x\n  --new-flag N  y\n  -h, --help\n';
    const { commands, flags } = helpVocabulary(help);
    assert.deepEqual(commands, ['inspect', 'frobnicate']);
    assert.deepEqual(flags, ['--json', '--new-flag', '-h', '--help']);
  });
});
