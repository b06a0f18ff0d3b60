import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OnDemand, loadPartOnce } from '../../src/extension/onDemand';

/** A part that counts its disposals. */
class Part {
  disposed = 0;
  dispose(): void {
    this.disposed++;
  }
}

describe('OnDemand', () => {
  test('creates the part once, on the first get(), however many ask at the same time', async () => {
    let created = 0;
    const part = new OnDemand(async () => (created++, new Part()));
    assert.equal(created, 0, 'nothing is created before it is asked for');
    assert.equal(part.current, undefined);
    const [a, b] = await Promise.all([part.get(), part.get()]);
    assert.equal(created, 1);
    assert.equal(a, b);
    assert.equal(part.current, a);
    assert.equal(await part.get(), a);
  });

  test('dispose() releases a created part; one never asked for is never created', async () => {
    let created = 0;
    const unused = new OnDemand(async () => (created++, new Part()));
    unused.dispose();
    assert.equal(created, 0);
    const used = new OnDemand(async () => new Part());
    const p = await used.get();
    used.dispose();
    assert.equal(p.disposed, 1);
    assert.equal(used.current, undefined);
  });

  test('a part whose creation settles after dispose() is released at once', async () => {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const late = new OnDemand(async () => (await gate, new Part()));
    const pending = late.get();
    late.dispose();
    finish();
    const p = await pending;
    assert.equal(p.disposed, 1);
    assert.equal(late.current, undefined);
  });

  test('a failed creation rejects get(), every get() waiting on it, and is tried again by the next get()', async () => {
    let attempts = 0;
    const flaky = new OnDemand<Part>(async () => {
      attempts++;
      if (attempts === 1) throw new Error('no module');
      return new Part();
    });
    const [first, meanwhile] = [flaky.get(), flaky.get()];
    await assert.rejects(first, /no module/);
    await assert.rejects(meanwhile, /no module/);
    assert.equal(attempts, 1, 'the calls made while it loaded share its failure');
    assert.equal(flaky.current, undefined);
    const part = await flaky.get();
    assert.equal(attempts, 2);
    assert.equal(flaky.current, part);
    assert.equal(await flaky.get(), part, 'once created, it is not created again');
    assert.equal(attempts, 2);
  });
});

describe('loadPartOnce', () => {
  test('a failed load names the part and keeps its cause; the next call loads again; a loaded part is kept', async () => {
    let attempts = 0;
    const missing = new Error("Cannot find module './chunk-TEST.js'");
    const load = loadPartOnce('the configuration parser', async () => {
      attempts++;
      if (attempts === 1) throw missing;
      return { parse: 'loaded' };
    });
    await assert.rejects(load(), (error: Error) => {
      assert.equal(error.message, "the configuration parser of MCP Host could not be loaded: Cannot find module './chunk-TEST.js'");
      assert.equal(error.cause, missing);
      return true;
    });
    const part = await load();
    assert.deepEqual(part, { parse: 'loaded' });
    assert.equal(await load(), part);
    assert.equal(attempts, 2);
  });
});
