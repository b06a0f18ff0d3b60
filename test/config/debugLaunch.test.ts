import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { DEBUGPY_IMPORT_CHECK, debugTypeOf, debugpyLaunch, isPythonCommand, nodeInspectorLaunch } from '../../src/config/debugLaunch';
import type { ResolvedServer, ResolvedStdioServer } from '../../src/config/variables';

function stdio(command: string, args: string[], env: Record<string, string> = {}): ResolvedStdioServer {
  return { type: 'stdio', command, args, env, cwd: '/work', secretValues: [] } as unknown as ResolvedStdioServer;
}

suite('debugLaunch: dev.debug types', () => {
  test('node, debugpy and python (debugpy’s other name) are known; anything else is not', () => {
    assert.equal(debugTypeOf('node'), 'node');
    assert.equal(debugTypeOf('debugpy'), 'debugpy');
    assert.equal(debugTypeOf('python'), 'debugpy');
    assert.equal(debugTypeOf('gdb'), undefined);
    assert.equal(debugTypeOf(undefined), undefined);
  });
});

suite('debugLaunch: a Node server with the inspector', () => {
  test('NODE_OPTIONS gains --inspect on a free loopback port, after what it had', () => {
    const launched = nodeInspectorLaunch(stdio('node', ['server.js'], { NODE_OPTIONS: '--max-old-space-size=512' }));
    assert.equal(launched.type === 'stdio' && launched.env.NODE_OPTIONS, '--max-old-space-size=512 --inspect=127.0.0.1:0');
    assert.deepEqual(launched.type === 'stdio' && launched.args, ['server.js']);
  });

  test('an inspector already asked for is left alone; a remote server is as it is', () => {
    const own = stdio('node', ['server.js'], { NODE_OPTIONS: '--inspect-brk=9230' });
    assert.equal(nodeInspectorLaunch(own), own);
    const remote = { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: {}, secretValues: [], secretHeaderNames: [] } as unknown as ResolvedServer;
    assert.equal(nodeInspectorLaunch(remote), remote);
  });
});

suite('debugLaunch: a Python server under debugpy', () => {
  test('the interpreter is recognised by its name, with a version or .exe, on any path', () => {
    for (const c of ['python', 'python3', 'python3.12', '/usr/bin/python3', '.venv/bin/python', 'C:\\Python312\\python.exe', 'pythonw', 'py']) assert.ok(isPythonCommand(c), c);
    for (const c of ['uv', 'uvx', 'node', 'pipx', 'python-server', 'mypython']) assert.ok(!isPythonCommand(c), c);
  });

  test('a script: -m debugpy --listen 127.0.0.1:PORT goes before it, its arguments after', () => {
    const launch = debugpyLaunch(stdio('python3', ['server.py', '--verbose']), 5678);
    assert.equal(launch.kind, 'ok');
    assert.deepEqual(launch.kind === 'ok' && launch.resolved.args, ['-m', 'debugpy', '--listen', '127.0.0.1:5678', 'server.py', '--verbose']);
    assert.equal(launch.kind === 'ok' && launch.python, 'python3');
  });

  test('a module (-m pkg) and code (-c) keep their form after debugpy', () => {
    const module = debugpyLaunch(stdio('python', ['-m', 'notes_server', '--db', 'x.db']), 6000);
    assert.deepEqual(module.kind === 'ok' && module.resolved.args, ['-m', 'debugpy', '--listen', '127.0.0.1:6000', '-m', 'notes_server', '--db', 'x.db']);
    const code = debugpyLaunch(stdio('python', ['-c', 'import s; s.main()']), 6001);
    assert.deepEqual(code.kind === 'ok' && code.resolved.args, ['-m', 'debugpy', '--listen', '127.0.0.1:6001', '-c', 'import s; s.main()']);
  });

  test('interpreter options stay before debugpy, with the value of those that take one', () => {
    const launch = debugpyLaunch(stdio('python3', ['-u', '-X', 'dev', '-W', 'ignore', 'server.py']), 7000);
    assert.deepEqual(launch.kind === 'ok' && launch.resolved.args, ['-u', '-X', 'dev', '-W', 'ignore', '-m', 'debugpy', '--listen', '127.0.0.1:7000', 'server.py']);
  });

  test('an entry already under debugpy is left as written', () => {
    const own = stdio('python', ['-m', 'debugpy', '--listen', '5679', 'server.py']);
    const launch = debugpyLaunch(own, 7001);
    assert.equal(launch.kind === 'ok' && launch.resolved, own);
  });

  test('a launcher (uv, uvx) or a remote server cannot be started so, and the reason says what to do', () => {
    const uv = debugpyLaunch(stdio('uv', ['run', 'server.py']), 7002);
    assert.equal(uv.kind, 'unsupported');
    assert.match(uv.kind === 'unsupported' ? uv.reason : '', /its command \(uv\) is not a Python interpreter; make "command" the interpreter/);
    const remote = debugpyLaunch({ type: 'sse', url: 'http://127.0.0.1:1/sse', headers: {}, secretValues: [], secretHeaderNames: [] } as unknown as ResolvedServer, 7003);
    assert.match(remote.kind === 'unsupported' ? remote.reason : '', /only a stdio server/);
  });

  test('the import check fails for an interpreter without debugpy (the warning path), as a real interpreter answers it', (t) => {
    const python = ['python3', 'python'].find((p) => spawnSync(p, ['-c', 'pass']).status === 0);
    if (!python) return t.skip('no Python interpreter on this machine');
    const has = spawnSync(python, DEBUGPY_IMPORT_CHECK, { encoding: 'utf8' });
    const plain = spawnSync(python, ['-c', 'import json'], { encoding: 'utf8' });
    assert.equal(plain.status, 0, 'the check runs the interpreter');
    // Whatever this machine has installed, the check's answer is the import's.
    const importable = spawnSync(python, ['-c', 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("debugpy") else 1)']).status === 0;
    assert.equal(has.status === 0, importable);
    if (!importable) assert.match(has.stderr, /No module named 'debugpy'/);
  });
});
