import { resource, type Resource } from '../../rest/document';
import type { LogKey } from './tlog.keys';
import type { LogEntry, Proof, SignedCheckpoint } from './tlog.service';

/** `{type: checkpoints, id: <size>}`: the signed note is the checkpoint; the rest repeats it for convenience. */
export const presentCheckpoint = (c: SignedCheckpoint): Resource =>
  resource('checkpoints', String(c.size), {
    size: c.size,
    root_hash: c.rootHash,
    note: c.note,
    signer: c.signer,
    created_at: c.createdAt.toISOString(),
    anchor: c.anchor,
    cosignatures: c.cosignatures.map((w) => ({ witness: w.witness, key_id: w.keyId, timestamp: w.timestamp })),
  });

export const presentInclusionProof = (p: Proof): Resource =>
  resource('inclusion_proofs', `${p.leafIndex}:${p.treeSize}`, { leaf_index: p.leafIndex as number, tree_size: p.treeSize as number, hashes: p.hashes });

export const presentConsistencyProof = (p: Proof): Resource =>
  resource('consistency_proofs', `${p.from}:${p.to}`, { from: p.from as number, to: p.to as number, hashes: p.hashes });

export const presentLogEntry = (e: LogEntry): Resource => resource('log_entries', String(e.leafIndex), { leaf_index: e.leafIndex, leaf_hash: e.leafHash, data: e.data });

export const presentLogKey = (k: LogKey): Resource =>
  resource('log_keys', k.publicKey, {
    public_key: k.publicKey,
    since: k.since.toISOString(),
    until: k.until === null ? null : k.until.toISOString(),
    from_size: k.fromSize,
    to_size: k.toSize,
    leaf_index: k.leafIndex,
  });
