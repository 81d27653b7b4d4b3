import type { EntityManager } from '@mikro-orm/postgresql';
import { FeeBumpTransaction, TransactionBuilder, type Keypair, type Transaction } from '@stellar/stellar-sdk';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { Checkpoint } from './tlog.note';
import { keyReplaced, replacingKeyOf, signsAs } from './tlog.signing';

/**
 * Anchors (docs/bid-log.md): each checkpoint's size and root written on the Stellar ledger by a
 * `manage_data` operation on the log key's own account, under one name, so that a verifier holds
 * the root the log committed to at the time in a record the log cannot rewrite. One transaction
 * carries the checkpoints signed since the last anchor, an operation each.
 */
export const ANCHOR_DATA_NAME = 'bid-log-checkpoint';

/** The data entry's value: the tree size as a big-endian u64, then the 32-byte root. */
export function anchorValue(c: Pick<Checkpoint, 'size' | 'root'>): Buffer {
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(c.size));
  return Buffer.concat([size, c.root]);
}

/** A ledger transaction as GET /ledger/transactions/{hash} and Horizon serve it. */
export interface AnchorTransaction {
  hash: string;
  source_account: string;
  envelope_xdr: string;
  successful: boolean;
}

/**
 * Whether the ledger's transaction anchors this checkpoint: its envelope hashes to its hash, its
 * source is one of the log's accounts (its keys), and one of its operations writes the
 * checkpoint's size and root. The problem, or null.
 */
export function anchorProblem(checkpoint: Checkpoint, tx: AnchorTransaction, accounts: readonly string[], networkPassphrase: string): string | null {
  let decoded: Transaction;
  try {
    const envelope = TransactionBuilder.fromXDR(tx.envelope_xdr, networkPassphrase);
    if (envelope.hash().toString('hex') !== tx.hash) return `the anchor ${tx.hash}'s envelope does not hash to its hash`;
    decoded = envelope instanceof FeeBumpTransaction ? envelope.innerTransaction : envelope;
  } catch {
    return `the anchor ${tx.hash} is no transaction envelope of the network ${JSON.stringify(networkPassphrase)}`;
  }
  if (!tx.successful) return `the anchor ${tx.hash} failed on the ledger`;
  if (!accounts.includes(decoded.source)) return `the anchor ${tx.hash} was written by ${decoded.source}, not the log's account ${accounts.join(' or ')}`;
  const sizeOf = (v: Buffer) => (v.length === 40 ? Number(v.readBigUInt64BE(0)) : -1);
  const written = decoded.operations.flatMap((op) => (op.type === 'manageData' && op.name === ANCHOR_DATA_NAME && op.value ? [op.value] : []));
  const same = written.filter((v) => sizeOf(v) === checkpoint.size);
  if (!same.length) return `the anchor ${tx.hash} holds no root of size ${checkpoint.size}`;
  if (!same.some((v) => v.equals(anchorValue(checkpoint)))) {
    return `the checkpoint of size ${checkpoint.size} has root ${checkpoint.root.toString('base64')}, the ledger anchored ${same[0].subarray(8).toString('base64')}: the log rewrote its history`;
  }
  return null;
}

/** What the anchor job needs of the ledger (the ledger module's writer): data entries written on a key's own account. */
export interface LedgerData {
  write(em: EntityManager, key: Keypair, entries: readonly { name: string; value: Buffer }[]): Promise<{ hash: string; ledger: number; account: string }>;
}

/** Stellar takes at most 100 operations in a transaction. */
const MOST_PER_TRANSACTION = 100;

/** A checkpoint whose root waits for the ledger, its root in hex. */
interface UnanchoredRow {
  size: string;
  root: string;
}

/** The anchor job's work: the checkpoints not yet on the ledger, written there. */
export class LogAnchors {
  constructor(
    private readonly key: Keypair,
    private readonly writer: LedgerData,
  ) {}

  /**
   * Writes the roots of up to 100 unanchored checkpoints in one ledger transaction and records
   * it on each; answers how many. The rows stay locked meanwhile, so two runs never anchor the
   * same checkpoints; a failed write leaves them for the next run.
   */
  anchorPending(em: EntityManager): Promise<number> {
    return inTransaction({ em }, async (tx) => {
      // A replaced key signs nothing more (docs/bid-log.md, "The log's key"): anchored with it, the
      // new key's checkpoints would go on its old account, signed after its period closed.
      await rowsOf(tx, sql`select ${signsAs(this.key.publicKey())}`).catch((err) => {
        const current = replacingKeyOf(err);
        throw current === null ? err : keyReplaced(current);
      });
      const rows = await rowsOf<UnanchoredRow>(
        tx,
        sql`select size::text, encode(root, 'hex') as root from tlog_checkpoints where anchor_tx is null order by size limit ${MOST_PER_TRANSACTION} for update skip locked`,
      );
      if (!rows.length) return 0;
      const entries = rows.map((r) => ({ name: ANCHOR_DATA_NAME, value: anchorValue({ size: Number(r.size), root: Buffer.from(r.root, 'hex') }) }));
      const written = await this.writer.write(tx, this.key, entries);
      await rowsOf(
        tx,
        sql`update tlog_checkpoints set anchor_tx = ${written.hash}, anchor_ledger = ${written.ledger}, anchor_account = ${written.account}
             where size = any (${sql.array(rows.map((r) => r.size), 'bigint')})`,
      );
      return rows.length;
    });
  }
}
