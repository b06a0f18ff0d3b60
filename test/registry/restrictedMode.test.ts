import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, suite, test } from 'node:test';
import { parseSettingsValue } from '../../src/config/parse';
import { settingsSource } from '../../src/config/sources';
import { VariableContext, resolveEntry } from '../../src/config/variables';
import { disposeRegistries, fixture, makeRegistry, NODE, REPO } from './support';

after(disposeRegistries);

const posix = process.platform !== 'win32';

/**
 * A repository that tries to take over a server from the user's settings: its
 * `node_modules/.bin/mcp-notes` shadows the user's own `mcp-notes`, and it would be found
 * through the relative PATH entry `node_modules/.bin` (common in shell setups) or an absolute
 * entry into the repository, if the server ran there.
 */
suite('Restricted Mode: a server from the user settings is not steered by the untrusted folder', { skip: !posix }, () => {
  let tmp: string;
  let repo: string;
  let home: string;
  let marker: string;
  let ctx: (trusted: boolean) => VariableContext;

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-restricted-')));
    repo = path.join(tmp, 'evil-repo');
    home = path.join(tmp, 'home');
    marker = path.join(tmp, 'pwned');
    const userBin = path.join(tmp, 'user-bin');
    const lifecycle = path.join(REPO, fixture('lifecycle.mjs'));
    for (const dir of [path.join(repo, 'node_modules', '.bin'), path.join(repo, 'bin'), home, userBin]) await fs.mkdir(dir, { recursive: true });
    const script = async (file: string, body: string) => {
      await fs.writeFile(file, `#!/bin/sh\n${body}\n`);
      await fs.chmod(file, 0o755);
    };
    // The user's own server, and the repository's impostors: they run the same server but leave a mark.
    await script(path.join(userBin, 'mcp-notes'), `exec "${NODE}" "${lifecycle}" ok`);
    for (const dir of ['node_modules/.bin', 'bin']) await script(path.join(repo, dir, 'mcp-notes'), `echo "${dir}" >> "${marker}"; exec "${NODE}" "${lifecycle}" ok`);
    ctx = (trusted) => ({
      workspaceFolder: repo,
      folders: { 'evil-repo': repo },
      userHome: home,
      env: { ...process.env, PATH: ['node_modules/.bin', path.join(repo, 'bin'), userBin, path.dirname(NODE), '/usr/bin', '/bin'].join(':') },
      untrustedFolders: trusted ? [] : [repo],
      resolveInput: () => Promise.reject(new Error('no inputs')),
    });
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  const userEntries = (servers: Record<string, unknown>) => parseSettingsValue(servers, settingsSource('user')).servers;

  /** Starts `mcp-notes` from the user settings and reads the child's cwd and env; stops it again. */
  async function runNotes(trusted: boolean) {
    await fs.rm(marker, { force: true });
    const { registry, logsOf } = makeRegistry();
    const list = userEntries({ notes: { command: 'mcp-notes' } });
    await registry.update(list, (entry) => resolveEntry(entry, ctx(trusted)));
    const h = registry.get(list[0].id)!;
    assert.equal(h.status.kind, 'running', JSON.stringify(h.status));
    const child: { cwd: string; env: Record<string, string> } = JSON.parse(((await h.client!.callTool('env')).content[0] as { text: string }).text);
    await registry.stop(h.id);
    return { ...child, log: logsOf(h.id).join('\n') };
  }

  test('untrusted: it runs in the home directory, finds the user\'s command, and the log says where and why', async () => {
    const { cwd, env, log } = await runNotes(false);
    assert.equal(cwd, home);
    assert.ok(!env.PATH.split(':').some((dir: string) => dir.startsWith(repo) || !path.isAbsolute(dir)), `the child's PATH has no relative entry and none into the repository: ${env.PATH}`);
    await assert.rejects(fs.stat(marker), 'no impostor from the repository ran');
    assert.match(log, new RegExp(`working directory ${home}: your home directory: the workspace is not trusted \\(Restricted Mode\\)`));
    assert.match(log, new RegExp(`PATH entries that are relative or inside it are not searched: node_modules/.bin, ${repo}/bin`));
  });

  test('untrusted: a cwd or envFile the settings point into the repository is refused with a clear error', async () => {
    const { registry } = makeRegistry();
    const list = userEntries({
      inRepo: { command: 'mcp-notes', cwd: '${workspaceFolder}' },
      envFromRepo: { command: 'mcp-notes', envFile: '${workspaceFolder}/.env' },
    });
    await registry.update(list, (entry) => resolveEntry(entry, ctx(false)));
    for (const [h, field] of [[registry.get(list[0].id)!, 'cwd'], [registry.get(list[1].id)!, 'envFile']] as const) {
      assert.equal(h.status.kind, 'error');
      assert.match((h.status as { message: string }).message, new RegExp(`${field}: ${repo}.* is inside the workspace folder ${repo}, which is not trusted \\(Restricted Mode\\)`));
    }
  });

  test('trusted: the same entry runs in the first workspace folder as before, and the repository\'s PATH entries count', async () => {
    const { cwd, log } = await runNotes(true);
    assert.equal(cwd, repo);
    assert.equal((await fs.readFile(marker, 'utf8')).trim(), 'node_modules/.bin', 'trusted: the folder may supply the command, as a shell there would');
    assert.match(log, /working directory .*: the first workspace folder, "evil-repo"/);
  });
});
