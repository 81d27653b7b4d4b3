import { leafHash } from './tlog.merkle';
import type { Leaf } from './tlog.leaves';

/**
 * The leaf a rotation of the log's key appends (docs/bid-log.md, "A key's period"): the new key
 * and the one it replaces, at the index where the new key's period begins. In the tree, the
 * rotation point is held by every later checkpoint, witness and anchor, so it cannot be served
 * otherwise later without a fork.
 */
export interface KeyLeaf {
  v: 'bid_tlog/1';
  kind: 'key';
  key: string;
  replaces: string;
  at: string;
}

export const keyLeafOf = (key: string, replaces: string, at: Date): Leaf => {
  const fields: KeyLeaf = { v: 'bid_tlog/1', kind: 'key', key, replaces, at: at.toISOString() };
  const data = JSON.stringify(fields);
  return { data, hash: leafHash(Buffer.from(data, 'utf8')) };
};

/** The rotation a leaf's text logs, or null when it logs none. */
export function parseKeyLeaf(data: string): KeyLeaf | null {
  try {
    const value = JSON.parse(data) as KeyLeaf;
    return value?.v === 'bid_tlog/1' && value.kind === 'key' && typeof value.key === 'string' && typeof value.replaces === 'string' ? value : null;
  } catch {
    return null;
  }
}
