import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandRegistry, registerLazyCommands } from '../../src/extension/lazyCommands';

/** Commands as VS Code keeps them: one handler per id, a second registration of an id throws. */
class Commands implements CommandRegistry {
  readonly handlers = new Map<string, (...args: unknown[]) => unknown>();
  registerCommand(id: string, run: (...args: unknown[]) => unknown) {
    if (this.handlers.has(id)) throw new Error(`command '${id}' already exists`);
    this.handlers.set(id, run);
    return { dispose: () => this.handlers.get(id) === run && this.handlers.delete(id) };
  }
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const run = this.handlers.get(id);
    if (!run) throw new Error(`command '${id}' not found`);
    return run(...args);
  }
}

/** A module whose register() adds the real commands, as a lazily loaded feature does. */
function feature(commands: Commands) {
  const calls: string[] = [];
  let loads = 0;
  const load = async () => (loads++, { register: () => ['a', 'b'].map((id) => commands.registerCommand(id, (...args) => (calls.push(`${id}(${args.join(',')})`), `${id} done`))) });
  return { calls, loads: () => loads, load };
}

describe('registerLazyCommands', () => {
  test('the ids are registered at once and nothing loads until one runs', () => {
    const commands = new Commands();
    const f = feature(commands);
    registerLazyCommands(commands, ['a', 'b'], f.load, (m) => m.register());
    assert.deepEqual([...commands.handlers.keys()], ['a', 'b']);
    assert.equal(f.loads(), 0);
  });

  test('the first run loads the module once, reaches the real command with its arguments and answer; runs made meanwhile too', async () => {
    const commands = new Commands();
    const f = feature(commands);
    registerLazyCommands(commands, ['a', 'b'], f.load, (m) => m.register());
    const answers = await Promise.all([commands.executeCommand('a', 1, 2), commands.executeCommand('b'), commands.executeCommand('a', 3)]);
    assert.deepEqual(answers, ['a done', 'b done', 'a done']);
    assert.deepEqual(f.calls, ['a(1,2)', 'b()', 'a(3)']);
    assert.equal(f.loads(), 1);
    // The real commands hold the ids now: a later run goes straight to them.
    assert.equal(await commands.executeCommand('b', 'x'), 'b done');
    assert.equal(f.loads(), 1);
  });

  test('dispose() removes the placeholders, or the real commands once loaded', async () => {
    const commands = new Commands();
    const unused = registerLazyCommands(commands, ['a', 'b'], feature(commands).load, (m) => m.register());
    unused.dispose();
    assert.equal(commands.handlers.size, 0);
    const used = registerLazyCommands(commands, ['a', 'b'], feature(commands).load, (m) => m.register());
    await commands.executeCommand('a');
    used.dispose();
    assert.equal(commands.handlers.size, 0);
  });

  test('a module that fails to load fails the run, keeps the ids, and loads again on the next run', async () => {
    const commands = new Commands();
    const f = feature(commands);
    let fail = true;
    registerLazyCommands(commands, ['a', 'b'], async () => {
      if (fail) throw new Error('chunk missing');
      return f.load();
    }, (m) => m.register());
    await assert.rejects(commands.executeCommand('a'), /chunk missing/);
    assert.deepEqual([...commands.handlers.keys()], ['a', 'b']);
    fail = false;
    assert.equal(await commands.executeCommand('a', 7), 'a done');
  });

  test('load() loads the module and puts the real commands in place before any run; a run after it goes straight to them', async () => {
    const commands = new Commands();
    const f = feature(commands);
    const lazy = registerLazyCommands(commands, ['a', 'b'], f.load, (m) => m.register());
    await Promise.all([lazy.load(), lazy.load()]);
    assert.equal(f.loads(), 1);
    assert.equal(await commands.executeCommand('b', 1), 'b done');
    assert.deepEqual(f.calls, ['b(1)']);
    await lazy.load();
    assert.equal(f.loads(), 1);
  });
});
