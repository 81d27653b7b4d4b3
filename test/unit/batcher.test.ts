import { KeyedBatcher, type Settled } from '../../src/core/batcher';

/** A round function that records its batches and holds each until released. */
function recorder() {
  const batches: { key: string; items: number[] }[] = [];
  const releases: (() => void)[] = [];
  const run = (key: string, items: number[]): Promise<Settled<string>[]> => {
    batches.push({ key, items });
    return new Promise((resolve) =>
      releases.push(() => resolve(items.map((i) => (i < 0 ? { ok: false, error: new Error(`refused ${i}`) } : { ok: true, value: `${key}:${i}` })))),
    );
  };
  return { batches, releases, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedBatcher', () => {
  it('runs a lone item at once, and the items that arrive meanwhile together as the next batch', async () => {
    const r = recorder();
    const b = new KeyedBatcher(r.run, 10);
    const first = b.submit('lot', 1);
    await tick();
    const later = [b.submit('lot', 2), b.submit('lot', 3)];
    expect(r.batches).toEqual([{ key: 'lot', items: [1] }]);
    r.releases[0]();
    await expect(first).resolves.toBe('lot:1');
    await tick();
    expect(r.batches[1]).toEqual({ key: 'lot', items: [2, 3] });
    r.releases[1]();
    await expect(Promise.all(later)).resolves.toEqual(['lot:2', 'lot:3']);
  });

  it('keeps keys apart: another key does not wait', async () => {
    const r = recorder();
    const b = new KeyedBatcher(r.run, 10);
    void b.submit('a', 1);
    void b.submit('b', 1);
    await tick();
    expect(r.batches.map((x) => x.key)).toEqual(['a', 'b']);
  });

  it('settles each item with its own outcome, and a failed round rejects only its batch', async () => {
    const failing = jest.fn(async (_key: string, items: number[]): Promise<Settled<string>[]> => {
      if (items.includes(99)) throw new Error('round failed');
      return items.map((i) => (i < 0 ? { ok: false, error: new Error(`refused ${i}`) } : { ok: true, value: `ok ${i}` }));
    });
    const b = new KeyedBatcher(failing, 10);
    await expect(b.submit('k', 99)).rejects.toThrow('round failed');
    const results = await Promise.allSettled([b.submit('k', 1), b.submit('k', -1)]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'ok 1' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('refused -1') });
  });

  it('caps a batch at its size and runs the rest next', async () => {
    const r = recorder();
    const b = new KeyedBatcher(r.run, 2);
    void b.submit('k', 0);
    await tick();
    const rest = [1, 2, 3].map((i) => b.submit('k', i));
    r.releases[0]();
    await tick();
    expect(r.batches[1].items).toEqual([1, 2]);
    r.releases[1]();
    await tick();
    expect(r.batches[2].items).toEqual([3]);
    r.releases[2]();
    await expect(Promise.all(rest)).resolves.toEqual(['k:1', 'k:2', 'k:3']);
  });
});
