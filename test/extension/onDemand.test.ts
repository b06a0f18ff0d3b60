import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OnDemand } from '../../src/extension/onDemand';

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

  test('a failed creation rejects get()', async () => {
    const broken = new OnDemand<Part>(async () => {
      throw new Error('no module');
    });
    await assert.rejects(broken.get(), /no module/);
    assert.equal(broken.current, undefined);
  });
});
