import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 (section 2.1): a leaf hashes as SHA-256(0x00 || data), a node as
 * SHA-256(0x01 || left || right), and a tree of n leaves splits at the largest power of two
 * below n. Proofs are built from the hashes of complete, aligned subtrees ("nodes": level k,
 * index i covers leaves [i·2^k, (i+1)·2^k)), which is what the log stores; any proof needs
 * O(log n) of them.
 */
export const leafHash = (data: Buffer): Buffer => createHash('sha256').update(Buffer.of(0)).update(data).digest();

export const nodeHash = (left: Buffer, right: Buffer): Buffer => createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();

/** The hash of an empty tree. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** A stored node: level 0 is a leaf's hash. */
export interface NodeKey {
  level: number;
  index: number;
}

export type NodeSource = (level: number, index: number) => Buffer;

/** The largest power of two strictly below n (n ≥ 2). */
const splitOf = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/** MTH(D[lo:hi]) for a range the RFC's recursion reaches: its left part is always a complete node. */
function rangeHash(node: NodeSource, lo: number, hi: number): Buffer {
  const size = hi - lo;
  if (isPowerOfTwo(size) && lo % size === 0) return node(Math.log2(size), lo / size);
  const k = splitOf(size);
  return nodeHash(rangeHash(node, lo, lo + k), rangeHash(node, lo + k, hi));
}

export const rootOf = (node: NodeSource, size: number): Buffer => (size === 0 ? EMPTY_ROOT : rangeHash(node, 0, size));

/** PATH(m, D[lo:hi]) of RFC 9162, 2.1.3.1. */
function path(node: NodeSource, m: number, lo: number, hi: number): Buffer[] {
  if (hi - lo <= 1) return [];
  const k = splitOf(hi - lo);
  return m < lo + k ? [...path(node, m, lo, lo + k), rangeHash(node, lo + k, hi)] : [...path(node, m, lo + k, hi), rangeHash(node, lo, lo + k)];
}

/** SUBPROOF(m, D[lo:hi], b) of RFC 9162, 2.1.4.1. */
function subproof(node: NodeSource, m: number, lo: number, hi: number, whole: boolean): Buffer[] {
  const n = hi - lo;
  if (m === n) return whole ? [] : [rangeHash(node, lo, hi)];
  const k = splitOf(n);
  return m <= k
    ? [...subproof(node, m, lo, lo + k, whole), rangeHash(node, lo + k, hi)]
    : [...subproof(node, m - k, lo + k, hi, false), rangeHash(node, lo, lo + k)];
}

export const inclusionProof = (node: NodeSource, leafIndex: number, size: number): Buffer[] => path(node, leafIndex, 0, size);

export const consistencyProof = (node: NodeSource, from: number, to: number): Buffer[] => (from === 0 || from === to ? [] : subproof(node, from, 0, to, true));

/**
 * The nodes a computation over the tree reads: the algorithms above walk the same ranges
 * whatever the hashes are, so a first run with placeholder hashes names the nodes to fetch.
 */
export function nodesRead(compute: (node: NodeSource) => unknown): NodeKey[] {
  const seen = new Map<string, NodeKey>();
  const placeholder = Buffer.alloc(32);
  compute((level, index) => {
    seen.set(`${level}:${index}`, { level, index });
    return placeholder;
  });
  return [...seen.values()];
}

/**
 * The nodes completed by appending leaves [from, to) to a tree of `from` leaves, from level 1
 * up, and the stored nodes they need (the left siblings on the old right edge).
 */
export function nodesCompleted(from: number, to: number): { made: NodeKey[]; needed: NodeKey[] } {
  const made: NodeKey[] = [];
  const needed: NodeKey[] = [];
  for (let level = 1; 2 ** level <= to; level++) {
    const first = Math.floor(from / 2 ** level);
    const end = Math.floor(to / 2 ** level);
    for (let index = first; index < end; index++) made.push({ level, index });
    const child = Math.floor(from / 2 ** (level - 1));
    // The old edge's odd child: its left sibling is stored, and the first new node of this level needs it.
    if (first < end && child % 2 === 1) needed.push({ level: level - 1, index: child - 1 });
  }
  return { made, needed };
}

const half = (n: number) => Math.floor(n / 2);
const odd = (n: number) => n % 2 === 1;

interface MemoryNode {
  hash: Buffer;
  left?: MemoryNode;
  right?: MemoryNode;
}

/** MTH(D[lo:hi]) of RFC 9162, 2.1.1, every node kept. */
function memoryNode(leaves: readonly Buffer[], lo: number, hi: number): MemoryNode {
  if (hi - lo === 1) return { hash: leaves[lo] };
  const k = splitOf(hi - lo);
  const left = memoryNode(leaves, lo, lo + k);
  const right = memoryNode(leaves, lo + k, hi);
  return { hash: nodeHash(left.hash, right.hash), left, right };
}

/**
 * A small tree held in memory (a bid round's batch of receipts): its root and each leaf's audit
 * path (RFC 9162, 2.1.3.1), every node hashed once for all the paths.
 */
export function memoryTree(leaves: readonly Buffer[]): { root: Buffer; path: (index: number) => Buffer[] } {
  const top = memoryNode(leaves, 0, leaves.length);
  return {
    root: top.hash,
    path: (index) => {
      const siblings: Buffer[] = [];
      let node = top;
      let lo = 0;
      let size = leaves.length;
      while (node.left && node.right) {
        const k = splitOf(size);
        if (index < lo + k) {
          siblings.push(node.right.hash);
          node = node.left;
          size = k;
        } else {
          siblings.push(node.left.hash);
          node = node.right;
          lo += k;
          size -= k;
        }
      }
      // Walked from the root down; the path lists the leaf's sibling first.
      return siblings.reverse();
    },
  };
}

/** RFC 9162, 2.1.3.2: does `proof` show the leaf at `leafIndex` in the tree of `size` with `root`? */
export function verifyInclusion(leafIndex: number, size: number, leaf: Buffer, proof: Buffer[], root: Buffer): boolean {
  if (!(leafIndex >= 0 && leafIndex < size)) return false;
  let fn = leafIndex;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162, 2.1.4.2: is the tree of `to` leaves with `toRoot` an extension of the tree of `from` leaves with `fromRoot`? */
export function verifyConsistency(from: number, to: number, fromRoot: Buffer, toRoot: Buffer, proof: Buffer[]): boolean {
  if (from > to || from < 0) return false;
  if (from === to) return proof.length === 0 && fromRoot.equals(toRoot);
  if (from === 0) return proof.length === 0;
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : proof;
  if (!path.length) return false;
  let fn = from - 1;
  let sn = to - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return fr.equals(fromRoot) && sr.equals(toRoot) && sn === 0;
}
