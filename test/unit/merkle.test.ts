import { createHash } from 'node:crypto';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  nodeHash,
  nodesCompleted,
  nodesRead,
  rootOf,
  verifyConsistency,
  verifyInclusion,
  type NodeSource,
} from '../../src/modules/bidlog/tlog.merkle';

/** MTH of RFC 9162, straight from its definition. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leafHash(leaves[0]);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const data = Array.from({ length: 70 }, (_, i) => Buffer.from(`leaf ${i}`));

/** The nodes a log stores, grown as the log grows them: leaves, then each batch's completed nodes. */
function grow(batches: number[]): Map<string, Buffer> {
  const store = new Map<string, Buffer>();
  let size = 0;
  for (const n of batches) {
    const to = size + n;
    for (let i = size; i < to; i++) store.set(`0:${i}`, leafHash(data[i]));
    const { made, needed } = nodesCompleted(size, to);
    for (const k of needed) expect(store.has(`${k.level}:${k.index}`)).toBe(true);
    for (const k of made) store.set(`${k.level}:${k.index}`, nodeHash(store.get(`${k.level - 1}:${2 * k.index}`) as Buffer, store.get(`${k.level - 1}:${2 * k.index + 1}`) as Buffer));
    size = to;
  }
  return store;
}

const sourceOf = (store: Map<string, Buffer>): NodeSource => (level, index) => {
  const h = store.get(`${level}:${index}`);
  if (!h) throw new Error(`node ${level}:${index} not stored`);
  return h;
};

describe('the RFC 9162 Merkle tree', () => {
  const node = sourceOf(grow([1, 2, 5, 1, 13, 8, 40]));

  it('hashes the empty tree and leaves as the RFC does', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(rootOf(node, 0)).toEqual(EMPTY_ROOT);
  });

  it('has the root of the definition at every size, from nodes stored in batches of any size', () => {
    for (let n = 1; n <= 70; n++) expect(rootOf(node, n).equals(mth(data.slice(0, n)))).toBe(true);
  });

  it('proves and verifies inclusion of every leaf at every size, and refuses a wrong leaf, index or root', () => {
    for (let n = 1; n <= 70; n++) {
      const root = mth(data.slice(0, n));
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(node, m, n);
        expect(verifyInclusion(m, n, leafHash(data[m]), proof, root)).toBe(true);
        expect(verifyInclusion(m, n, leafHash(Buffer.from('forged')), proof, root)).toBe(false);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, leafHash(data[m]), proof, root)).toBe(false);
      }
      expect(verifyInclusion(n, n, leafHash(data[0]), [], root)).toBe(false);
    }
  });

  it('proves and verifies consistency between every two sizes, and refuses a rewritten past', () => {
    for (let n = 1; n <= 70; n++) {
      const root = mth(data.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(node, m, n);
        expect(verifyConsistency(m, n, mth(data.slice(0, m)), root, proof)).toBe(true);
        const rewritten = [...data.slice(0, m - 1), Buffer.from('rewritten')];
        if (m < n) expect(verifyConsistency(m, n, mth(rewritten), root, proof)).toBe(false);
      }
    }
  });

  it('reads O(log n) nodes for a proof', () => {
    const n = 2 ** 20 + 12345;
    const reads = Math.max(
      nodesRead((s) => inclusionProof(s, 777_777, n)).length,
      nodesRead((s) => consistencyProof(s, 2 ** 19 + 3, n)).length,
      nodesRead((s) => rootOf(s, n)).length,
    );
    expect(reads).toBeLessThanOrEqual(2 * 21);
  });
});
