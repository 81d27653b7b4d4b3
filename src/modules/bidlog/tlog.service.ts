import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Keypair } from '@stellar/stellar-sdk';
import { signEd25519 } from '../../auth/keys';
import type { RequestContext } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import { loggable } from '../../core/loggable';
import { logger } from '../../core/logger';
import { inTransaction } from '../../core/transaction';
import { databaseFault, isOutage } from '../../db/faults';
import { anyIn, rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { windowOf } from '../../db/window';
import { listBound } from '../../core/page';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { leafOf, type Leaf, type OutcomeLeaf } from './tlog.leaves';
import { consistencyProof, inclusionProof, memoryTree, rootOf } from './tlog.merkle';
import { checkpointBody, signNote } from './tlog.note';
import { batchLeaf, receiptMessage, type AnyReceipt, type BatchReceipt, type HashReceipt, type Receipt } from './tlog.receipt';
import { appendLeaf, integrate, overTree, sequenceAlone } from './tlog.store';
import { logKeyHistory, type LogKey } from './tlog.keys';
import { keyReplaced, replacingKeyOf, signsAs } from './tlog.signing';
import { KeyedBatcher, type Settled } from '../../core/batcher';

/**
 * How long a request waits for its leaves' indexes (a run takes milliseconds): a database that
 * stopped answering would otherwise hold every bid's answer for a run's whole time-out, and the
 * runs queued behind it for theirs; the leaves are numbered by the next run that reaches them.
 */
const RECEIPT_WAIT_MS = 2000;

/** The most requests whose leaves one run of the sequencer answers. */
const SEQUENCE_BATCH = 1000;

/** A request whose bids' leaves committed and wait for their indexes, and the time of its round. */
interface Unsequenced {
  ctx: Pick<RequestContext, 'em'>;
  leafHashes: Buffer[];
  at: Date;
}

/** The most checkpoints or entries one read answers. */
export const TLOG_PAGE = 100;

interface LeafRow {
  idx: string;
  hash: string;
  data: string;
}

/** A leaf's index, as a statement that looks one up answers it. */
type IndexRow = Pick<LeafRow, 'idx'>;

/** The size of the latest checkpoint. */
type SizeRow = Pick<CheckpointRow, 'size'>;

const LEAF_COLUMNS = sql`l.idx::text as idx, encode(l.hash, 'base64') as hash, l.data`;
const entryOf = (r: LeafRow): LogEntry => ({ leafIndex: Number(r.idx), leafHash: r.hash, data: r.data });

/** The leaves from index `from` on (of the lot `lotId`, if given); either argument refused naming it. */
function leavesFrom(input: { from: unknown; lotId?: unknown }): Sql {
  const lotId = input.lotId === undefined ? null : integerId(input.lotId);
  if (input.lotId !== undefined && lotId === null) throw invalid('invalid_parameter', 'lotId must be a lot id', { field: 'lotId' });
  const from = count(input.from, 'from', 0);
  return lotId === null ? sql`l.idx >= ${from}` : sql`l.idx >= ${from} and l.lot_id = ${lotId}`;
}

export interface SignedCheckpoint {
  size: number;
  /** Base64, as in the note. */
  rootHash: string;
  /** The signed note, the witnesses' co-signature lines appended. */
  note: string;
  signer: string;
  createdAt: Date;
  /** Where its root was written on the Stellar ledger; null until the anchor job ran. */
  anchor: { transaction: string; ledger: number; account: string } | null;
  cosignatures: { witness: string; keyId: string; timestamp: number }[];
}

export interface Proof {
  leafIndex?: number;
  treeSize?: number;
  from?: number;
  to?: number;
  /** Base64 hashes, in the order of RFC 9162. */
  hashes: string[];
}

export interface LogEntry {
  leafIndex: number;
  leafHash: string;
  data: string;
}

interface CheckpointRow {
  size: string;
  root: string;
  note: string;
  signer: string;
  created_at: Date;
  anchor_tx: string | null;
  anchor_ledger: string | null;
  anchor_account: string | null;
  cosignatures: { witness: string; key_id: string; signed_at: number; line: string }[] | null;
}

const checkpointOf = (r: CheckpointRow): SignedCheckpoint => ({
  size: Number(r.size),
  rootHash: Buffer.from(r.root, 'hex').toString('base64'),
  note: r.note + (r.cosignatures ?? []).map((c) => c.line).join(''),
  signer: r.signer,
  createdAt: new Date(r.created_at),
  anchor: r.anchor_tx ? { transaction: r.anchor_tx, ledger: Number(r.anchor_ledger), account: r.anchor_account ?? r.signer } : null,
  cosignatures: (r.cosignatures ?? []).map((c) => ({ witness: c.witness, keyId: c.key_id, timestamp: Number(c.signed_at) })),
});

const SELECT_CHECKPOINT = sql`select size::text, encode(root, 'hex') as root, note, signer, created_at, anchor_tx, anchor_ledger::text, anchor_account,
    (select json_agg(json_build_object('witness', c.witness, 'key_id', encode(c.key_id, 'hex'), 'signed_at', c.signed_at, 'line', c.line) order by c.witness)
       from tlog_cosignatures c where c.size = tlog_checkpoints.size) as cosignatures
  from tlog_checkpoints`;

/** The size of the newest checkpoint anchored (or not) with at least `cosignatures` co-signatures (`tlog_witnessed`, kept by the database), as SQL. */
const witnessedSize = (anchored: boolean, cosignatures: number) =>
  sql`(select size from tlog_witnessed where anchored = ${anchored} and cosignatures = ${cosignatures})`;

/** The checkpoint of this size, or null. */
export async function checkpointOfSize(em: EntityManager, size: number): Promise<SignedCheckpoint | null> {
  const [row] = await rowsOf<CheckpointRow>(em, sql`${SELECT_CHECKPOINT} where size = ${size}`);
  return row ? checkpointOf(row) : null;
}

/** A leaf hash of the query: SHA-256, in hex (64 digits) or base64 (as receipts and proofs carry it). */
function leafHashOf(value: unknown): Buffer {
  const text = typeof value === 'string' ? value : '';
  const hash = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (!hash) throw invalid('invalid_parameter', 'leafHash must be a SHA-256 hash: 64 hex digits, or 44 base64 characters', { field: 'leafHash' });
  return hash;
}

/** A size or index of the query, at least `min`. */
function count(value: unknown, field: string, min: number): number {
  const n = typeof value === 'number' ? value : integerId(value);
  if (n === null || !Number.isSafeInteger(Number(n)) || Number(n) < min) throw invalid('invalid_parameter', `${field} must be an integer of at least ${min}`, { field });
  return Number(n);
}

/**
 * The transparency log of bids (docs/bid-log.md): one RFC 9162 Merkle tree for the whole service,
 * whose leaves the bid round and the closes append in their transactions; checkpoints (signed
 * tree heads in the C2SP format) signed by the log's own key; proofs of inclusion and consistency
 * read from the stored complete subtrees in O(log n).
 */
export class TransparencyLog {
  /** SHA-256 of the log key's raw public key, base64, as CT names a log. */
  readonly logId: string;
  /** The log key (G…), encoded once: every receipt names it. */
  readonly signer: string;

  constructor(
    /** The log's signing key, the one the start loaded and agreed on (infrastructure's `logKey`). */
    readonly key: Keypair,
    readonly origin: string,
    /** False only in the bench's baseline (TLOG_APPEND=off): bids make and append no leaf, and get no receipt. */
    readonly appending = true,
  ) {
    this.logId = createHash('sha256').update(key.rawPublicKey()).digest('base64');
    this.signer = key.publicKey();
  }

  /**
   * Rounds' leaves committed meanwhile are numbered together, in one short transaction of their
   * own (`sequenceAlone`); another run of this instance waits for it, another instance's for its
   * lock. The run's requests get their receipts as a round's do, under one signature; null for a
   * request whose leaves it did not find numbered.
   */
  private readonly sequencer = new KeyedBatcher<Unsequenced, BatchReceipt | null>(async (_key, items): Promise<Settled<BatchReceipt | null>[]> => {
    const indexes = await sequenceAlone(
      items[0].ctx.em,
      items.flatMap((i) => i.leafHashes),
    );
    const receipts = this.roundReceipts(items.map((i) => ({ at: i.at, leaves: i.leafHashes.map((leafHash) => ({ leafHash, leafIndex: indexes.get(leafHash.toString('hex')) })) })));
    return receipts.map((value) => ({ ok: true, value }));
  }, SEQUENCE_BATCH);

  /** The key that replaced this instance's since it started (a rotation by another instance): it then signs nothing more. */
  private replacedBy: string | null = null;

  /** The key whose log a bid round appends to, null in the bench's baseline (no leaves). */
  get appendsAs(): string | null {
    return this.appending ? this.signer : null;
  }

  /** False once another instance rotated the log's key: this one appends and signs nothing more, and is not ready. */
  get signing(): boolean {
    return this.replacedBy === null;
  }

  /** Refuses, without a statement, work that would append to the log or sign once this instance's key was replaced. */
  requireSigning(): void {
    if (this.replacedBy !== null) throw keyReplaced(this.replacedBy);
  }

  /** `err`, or `log_key_replaced` when it is the database's refusal of a replaced key: this instance then stops signing, and says so once. */
  refused(err: unknown): unknown {
    const current = replacingKeyOf(err);
    if (current === null) return err;
    if (this.replacedBy === null) {
      this.replacedBy = current;
      logger.error({ key: this.signer, replacedBy: current }, `the bid log's key was replaced by ${current}: this instance no longer appends to the log nor signs, and is not ready; restart it with the log's key`);
    }
    return keyReplaced(current);
  }

  /**
   * The receipt of bids whose round committed without numbering their leaves (`roundReceipts`
   * answers the others), signed as the log's promise to include them in its next checkpoint: once
   * the sequencer numbered them (version 3, one signature for its run's requests), or by hash alone
   * (version 2) when the numbering failed or did not answer within `RECEIPT_WAIT_MS` after the
   * round's commit: the leaves committed, so the promise holds. A request that placed no bid gets
   * one of no entries (version 1).
   */
  async receiptOf(ctx: Pick<RequestContext, 'em'>, leaves: { bidId: string; leafHash: Buffer }[], at: Date): Promise<AnyReceipt | null> {
    // The bench's baseline keeps no log, and so promises nothing.
    if (!this.appending) return null;
    if (!leaves.length) return this.receipt([], at);
    const bids = leaves.map((l) => l.bidId);
    let receipt: BatchReceipt | null | 'late';
    try {
      const numbered = this.sequencer.submit('log', { ctx, leafHashes: leaves.map((l) => l.leafHash), at });
      numbered.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, RECEIPT_WAIT_MS, 'late')));
      receipt = await Promise.race([numbered, late]).finally(() => clearTimeout(timer));
    } catch (err) {
      // The round committed: its bids stand whatever stopped the numbering (the database going
      // away, say), and an error would tell the bidder they did not. The checkpoint job numbers
      // the leaves later.
      if (databaseFault(err) !== null || isOutage(err)) logger.warn({ bids }, 'bids receipted by leaf hash: the database went out of reach before the log numbered their leaves');
      else logger.error({ bids, err: loggable(err) }, 'bids receipted by leaf hash: the log could not number their leaves');
      return this.hashReceipt(leaves, at);
    }
    if (receipt === 'late') {
      logger.warn({ bids }, 'bids receipted by leaf hash: the log did not number their leaves in time');
      return this.hashReceipt(leaves, at);
    }
    if (receipt === null) {
      logger.error({ bids }, 'bids receipted by leaf hash: the log numbered their leaves but did not find them');
      return this.hashReceipt(leaves, at);
    }
    return receipt;
  }

  /**
   * The receipts (version 3) of a round's requests whose leaves the round numbered, or of a
   * sequencer's run, under one signature: the Merkle root of their entries, each receipt carrying
   * its audit path, so a hot lot's round of dozens of requests costs one Ed25519 signature, not one
   * each. Null for the requests `receiptOf` answers instead: no leaf, a leaf left to the
   * sequencer, the bench's baseline without the log.
   */
  roundReceipts(requests: readonly ({ leaves: { leafHash: Buffer; leafIndex?: number }[]; at: Date } | null)[]): (BatchReceipt | null)[] {
    const numbered = requests.map((r) => r !== null && r.leaves.length > 0 && r.leaves.every((l) => l.leafIndex !== undefined));
    const batch = requests.flatMap((r, i) => (r && numbered[i] ? [r.leaves.map((l) => ({ leaf_index: l.leafIndex as number, leaf_hash: l.leafHash.toString('base64') }))] : []));
    if (!batch.length) return requests.map(() => null);
    const size = batch.length;
    const tree = memoryTree(batch.map(batchLeaf));
    const root = tree.root.toString('base64');
    // One time for the batch: a round's (`runRound`'s `now`), or the latest of a run's rounds, so that no receipt dates its promise before its round.
    const timestamp = new Date(Math.max(...requests.flatMap((r, i) => (r && numbered[i] ? [r.at.getTime()] : [])))).toISOString();
    const unsigned = batch.map((entries, index) => ({
      version: 3 as const,
      origin: this.origin,
      log_id: this.logId,
      timestamp,
      entries,
      batch: { size, index, root, path: tree.path(index).map((h) => h.toString('base64')) },
    }));
    // The message holds the batch's size and root, not its entries: every receipt of the round shares the signature.
    const signature = this.signed(receiptMessage(unsigned[0]));
    let next = 0;
    return numbered.map((n) => (n ? { ...unsigned[next++], signer: this.signer, signature } : null));
  }

  private receipt(entries: { leafIndex: number; leafHash: Buffer }[], at: Date): Receipt {
    const unsigned = {
      origin: this.origin,
      log_id: this.logId,
      timestamp: at.toISOString(),
      entries: entries.map((e) => ({ leaf_index: e.leafIndex, leaf_hash: e.leafHash.toString('base64') })),
    };
    return { ...unsigned, signer: this.signer, signature: this.signed(receiptMessage(unsigned)) };
  }

  private hashReceipt(leaves: { leafHash: Buffer }[], at: Date): HashReceipt {
    const unsigned = { version: 2 as const, origin: this.origin, log_id: this.logId, timestamp: at.toISOString(), entries: leaves.map((l) => ({ leaf_hash: l.leafHash.toString('base64') })) };
    return { ...unsigned, signer: this.signer, signature: this.signed(receiptMessage(unsigned)) };
  }

  /** Through Node's native Ed25519: a receipt is signed per request, where the SDK's JavaScript signing costs milliseconds of CPU. */
  private signed(message: Buffer): string {
    return signEd25519(this.key, message).toString('base64');
  }

  /** Appends an outcome of a lot in the close's transaction, then checkpoints the log there, so the close is in a checkpoint when it commits. */
  async appendOutcome(em: EntityManager, fields: Omit<OutcomeLeaf, 'v' | 'backfilled_at'>): Promise<number> {
    this.requireSigning();
    const leaf: Leaf = leafOf({ v: 'bid_tlog/1', ...fields, backfilled_at: null });
    const index = await appendLeaf(em, fields.lot_id, leaf, fields.kind, this.signer).catch((err) => {
      throw this.refused(err);
    });
    await this.checkpoint(em);
    return index;
  }

  /**
   * Hashes what was appended and, when the tree grew, signs and keeps a checkpoint of it
   * (checkpoints are kept forever). Run by the checkpoint job every few seconds and by every close.
   */
  async checkpoint(em: EntityManager): Promise<SignedCheckpoint | null> {
    this.requireSigning();
    // The tree's row first, then the key: a rotation holds that row while it ends the key's period,
    // so a checkpoint either commits before it (no larger than the period) or finds the key replaced.
    await rowsOf(em, sql`select from tlog_tree for update`);
    await rowsOf(em, sql`select ${signsAs(this.signer)}`).catch((err) => {
      throw this.refused(err);
    });
    const size = await integrate(em);
    const [last] = await rowsOf<SizeRow>(em, sql`select size::text from tlog_checkpoints order by tlog_checkpoints.size desc limit 1`);
    if (last && Number(last.size) >= size) return null;
    const root = await overTree(em, (node) => rootOf(node, size));
    const note = signNote(checkpointBody({ origin: this.origin, size, root }), this.origin, this.key);
    const [row] = await rowsOf<CheckpointRow>(
      em,
      sql`insert into tlog_checkpoints (size, root, note, signer) values (${size}, decode(${root.toString('hex')}, 'hex'), ${note}, ${this.signer})
          returning size::text, encode(root, 'hex') as root, note, signer, created_at, anchor_tx, anchor_ledger::text, anchor_account, null as cosignatures`,
    );
    return checkpointOf(row);
  }

  /**
   * The checkpoint job: numbers the leaves whose request ended before the sequencer answered it
   * (an instance stopped in between), then a checkpoint of what was appended since the last,
   * each in a transaction of its own so that bids never wait for the hashing.
   */
  async checkpointNow(ctx: Pick<RequestContext, 'em'>): Promise<SignedCheckpoint | null> {
    if (!this.signing) return null;
    // Numbering holds the log's counter, which bid rounds then skip, leaving their leaves to the sequencer: only when a leaf waits.
    if (await anyIn(ctx.em, sql`tlog_leaves where idx is null`)) await sequenceAlone(ctx.em, []);
    return inTransaction(ctx, (em) => this.checkpoint(em)).catch((err) => {
      // Said once, by `refused`: the job has nothing more to do here.
      if (!this.signing) return null;
      throw err;
    });
  }

  /**
   * GET /log/checkpoint: the latest checkpoint; a new log's first read signs its first (of the
   * empty tree, or of what was backfilled). With `anchored`, the latest whose root is on the
   * ledger; with `cosignatures`, the latest that many witnesses co-signed.
   */
  async latest(ctx: RequestContext, input: { anchored?: unknown; cosignatures?: unknown } = {}): Promise<SignedCheckpoint> {
    const anchored = input.anchored === true;
    const cosignatures = input.cosignatures === undefined || input.cosignatures === null ? 0 : count(input.cosignatures, 'cosignatures', 1);
    const [row] = await rowsOf<CheckpointRow>(
      ctx.em,
      anchored || cosignatures
        ? // The row found still has what was asked (a checkpoint's anchor or co-signatures deleted in the database are not vouched for).
          sql`${SELECT_CHECKPOINT} where tlog_checkpoints.size = ${witnessedSize(anchored, cosignatures)} and (not ${anchored} or anchor_tx is not null)
                and (select count(*) from tlog_cosignatures c where c.size = tlog_checkpoints.size) >= ${cosignatures}`
        : sql`${SELECT_CHECKPOINT} order by tlog_checkpoints.size desc limit 1`,
    );
    if (row) return checkpointOf(row);
    if (anchored || cosignatures) {
      const asked = [anchored ? 'anchored' : '', cosignatures ? `co-signed by ${cosignatures} witnesses` : ''].filter(Boolean).join(' and ');
      throw notFound('checkpoint_not_found', `no checkpoint is ${asked} yet`, { field: cosignatures ? 'cosignatures' : 'anchored' });
    }
    const made = await this.checkpointNow(ctx);
    if (made) return made;
    this.requireSigning();
    return this.latest(ctx);
  }

  /** GET /log/checkpoints: the checkpoints of sizes from..to (both included), oldest first, at most TLOG_PAGE. */
  async between(ctx: RequestContext, input: { from?: unknown; to?: unknown }): Promise<SignedCheckpoint[]> {
    const from = input.from === undefined ? 0 : count(input.from, 'from', 0);
    const to = input.to === undefined ? null : count(input.to, 'to', 0);
    if (to !== null && to < from) throw invalid('invalid_parameter', 'to must not be below from', { field: 'to' });
    const rows = await rowsOf<CheckpointRow>(
      ctx.em,
      sql`${SELECT_CHECKPOINT} where size >= ${from} ${to === null ? sql`` : sql`and size <= ${to}`} order by tlog_checkpoints.size limit ${TLOG_PAGE}`,
    );
    return rows.map(checkpointOf);
  }

  /**
   * GET /log/proof/inclusion: the leaf's audit path in the tree of a checkpointed size; the leaf
   * given by its index, or by its hash (RFC 9162's get-proof-by-hash), whose index it answers.
   */
  async inclusion(ctx: RequestContext, input: { leafIndex?: unknown; leafHash?: unknown; treeSize: unknown }): Promise<Proof> {
    const byHash = input.leafHash !== undefined && input.leafHash !== null;
    if (byHash && input.leafIndex !== undefined && input.leafIndex !== null) throw invalid('invalid_parameter', 'the leaf is given by its index or by its hash, not both', { field: 'leafHash' });
    const hash = byHash ? leafHashOf(input.leafHash) : null;
    const treeSize = await this.checkpointed(ctx, count(input.treeSize, 'treeSize', 1), 'treeSize');
    const leafIndex = hash ? await this.indexOf(ctx, hash, treeSize) : count(input.leafIndex, 'leafIndex', 0);
    if (leafIndex >= treeSize) throw invalid('invalid_parameter', `leafIndex must be below the tree size, ${treeSize}`, { field: 'leafIndex' });
    const hashes = await overTree(ctx.em, (node) => inclusionProof(node, leafIndex, treeSize));
    return { leafIndex, treeSize, hashes: hashes.map((h) => h.toString('base64')) };
  }

  /** GET /log/proof/consistency: that the tree of `to` leaves extends the tree of `from`. */
  async consistency(ctx: RequestContext, input: { from: unknown; to: unknown }): Promise<Proof> {
    const from = count(input.from, 'from', 1);
    const to = await this.checkpointed(ctx, count(input.to, 'to', 1), 'to');
    if (from > to) throw invalid('invalid_parameter', 'from must not exceed to', { field: 'from' });
    const hashes = await overTree(ctx.em, (node) => consistencyProof(node, from, to));
    return { from, to, hashes: hashes.map((h) => h.toString('base64')) };
  }

  /** GET /log/entries: the leaves from `from` on (at most TLOG_PAGE), or a lot's leaves, in log order. */
  async entries(ctx: RequestContext, input: { from: unknown; lotId?: unknown }): Promise<LogEntry[]> {
    const rows = await rowsOf<LeafRow>(ctx.em, sql`select ${LEAF_COLUMNS} from tlog_leaves l where ${leavesFrom(input)} order by l.idx limit ${TLOG_PAGE}`);
    return rows.map(entryOf);
  }

  /** `logEntriesConnection`: the leaves `entries` reads, by index, one window paged in the database. */
  async entriesWindow(ctx: RequestContext, input: { from?: unknown; lotId?: unknown }, window: ListWindow): Promise<WindowPage<LogEntry>> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const page = await windowOf<LeafRow>(
      ctx.em,
      { columns: LEAF_COLUMNS, from: sql`tlog_leaves l`, where: leavesFrom({ from: input.from ?? 0, lotId: input.lotId }), order: { key: null, id: sql`l.idx`, ascending: true } },
      window,
    );
    return { ...page, items: page.items.map(entryOf) };
  }

  /** GET /log/keys: every key the log has signed with, oldest first, the current one last without `until`. */
  keys(ctx: RequestContext): Promise<LogKey[]> {
    return logKeyHistory(ctx.em);
  }

  /** The index of the leaf with this hash in the tree of `treeSize` leaves. */
  private async indexOf(ctx: RequestContext, hash: Buffer, treeSize: number): Promise<number> {
    const [row] = await rowsOf<IndexRow>(
      ctx.em,
      sql`select idx::text from tlog_leaves where hash = decode(${hash.toString('hex')}, 'hex') and idx < ${treeSize} order by tlog_leaves.idx limit 1`,
    );
    if (!row) throw notFound('leaf_not_found', `no leaf with this hash is in the tree of size ${treeSize}`, { field: 'leafHash' });
    return Number(row.idx);
  }

  /** Proofs are given for the sizes of checkpoints only: a verifier holds their roots signed. */
  private async checkpointed(ctx: RequestContext, size: number, field: string): Promise<number> {
    const [row] = await rowsOf(ctx.em, sql`select 1 from tlog_checkpoints where size = ${size}`);
    if (!row) throw notFound('checkpoint_not_found', `no checkpoint has size ${size}`, { field });
    return size;
  }
}
