import type { EntityManager } from '@mikro-orm/postgresql';
import type { Keypair } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { formatMoney } from '../../core/money';
import { seesLotRow } from '../../core/policies';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { LOT_STATE_NAMES, LotState, type Lot, findLot } from '../lots';
import { bidderCommitment, GENESIS, headMessage, type ChainedEntry, type ChainHead } from './bidlog.chain';
import type { ServedHead } from './bidlog.verify';
import type { TransparencyLog } from './tlog.service';

/** An entry as the caller sees it: the bidder named, with its salt, only to whom the contract names it. */
export interface SeenEntry extends ChainedEntry {
  hash: string;
  bidderId: string | null;
  bidderSalt: string | null;
}

export interface SignedHead extends ChainHead {
  signer: string;
  signature: string;
}

export interface BidLog {
  lotId: string;
  entries: SeenEntry[];
  /** Null until the lot closes. */
  head: SignedHead | null;
  /** The key that signs heads (the master key), for a verifier that has no other copy. */
  signer: string;
}

interface EntryRow {
  lot_id: string;
  seq: number;
  bid_id: string;
  account_id: string;
  amount: string;
  created_at: Date;
  by_proxy: boolean;
  request_digest: string | null;
  bidder_salt: string;
  hash: string;
}

/** A lot's chain as stored: its entries in order, and its signed head once it closed. */
export interface StoredLog {
  rows: EntryRow[];
  head: SignedHead | null;
}

/** What tells who may see a lot's bidders. */
type LotRef = Pick<Lot, 'id' | 'organizerId' | 'publisherId'>;

/**
 * The verifiable bid log (docs/bid-log.md): the bid round appends the entries (bidlog.append.ts);
 * this reads them as a caller may see them, and signs the head when the lot closes.
 */
export class BidLogService {
  constructor(
    private readonly master: Keypair,
    private readonly tlog: TransparencyLog,
  ) {}

  /** GET /lots/{id}/bid_log: public; the bidders hidden behind commitments but from whom may know them. */
  async get(ctx: RequestContext, input: { lotId: unknown }): Promise<BidLog> {
    const lot = await findLot(ctx.em, input.lotId);
    const [log] = await storedLogs(ctx.em, [lot.id]);
    return this.seen(ctx, lot, log);
  }

  /** The stored logs of the lots, in their order (a GraphQL request's batch); `seen` shows each as the caller may see it. */
  storedOf(ctx: RequestContext, lotIds: readonly string[]): Promise<StoredLog[]> {
    return storedLogs(ctx.em, lotIds);
  }

  /** A lot's stored log as the caller may see it (GraphQL's `Lot.bidLog` reads the stored logs of a page of lots at once). */
  seen(ctx: RequestContext, lot: LotRef, { rows, head }: StoredLog): BidLog {
    let previous = GENESIS;
    const entries = rows.map((r): SeenEntry => {
      const shown = seesLotRow(ctx.caller, lot, r.account_id);
      const entry: SeenEntry = {
        seq: r.seq,
        bidId: r.bid_id,
        lotId: lot.id,
        amount: r.amount,
        createdAt: new Date(r.created_at).toISOString(),
        byProxy: r.by_proxy,
        requestDigest: r.request_digest,
        bidderCommitment: bidderCommitment(r.bidder_salt, r.account_id),
        previous,
        hash: r.hash,
        bidderId: shown ? r.account_id : null,
        bidderSalt: shown ? r.bidder_salt : null,
      };
      previous = r.hash;
      return entry;
    });
    return { lotId: lot.id, entries, head, signer: this.master.publicKey() };
  }

  /**
   * Signs the head of a closing lot's chain, in the close's transaction (the lot row is locked,
   * so no bid is appended meanwhile); `lot` carries its new state and its winner. A lapsed lot
   * sold through a second-chance offer closes twice: the second head replaces the lapse's.
   * Each close is also a leaf of the transparency log, checkpointed in the same transaction.
   */
  async seal(em: EntityManager, lot: Lot): Promise<SignedHead> {
    const rows = await entriesOf(em, [lot.id]);
    const last = rows[rows.length - 1];
    const won = lot.winnerId ? rows.filter((r) => r.account_id === lot.winnerId).pop() : undefined;
    const head: ChainHead = {
      lotId: lot.id,
      entries: rows.length,
      head: last?.hash ?? GENESIS,
      highestBid: lot.highestBid === null ? null : formatMoney(lot.highestBid),
      winnerId: lot.winnerId,
      winnerSeq: won?.seq ?? null,
      winnerSalt: won?.bidder_salt ?? null,
      lotState: LOT_STATE_NAMES[lot.lotState],
      signedAt: new Date().toISOString(),
    };
    const signed: SignedHead = { ...head, signer: this.master.publicKey(), signature: this.master.sign(headMessage(head)).toString('base64') };
    await rowsOf(
      em,
      sql`insert into bid_log_heads (lot_id, entries, head, highest_bid, winner_id, winner_seq, winner_salt, lot_state, signed_at, signer, signature)
          values (${lot.id}, ${head.entries}, ${head.head}, ${head.highestBid}, ${head.winnerId}, ${head.winnerSeq}, ${head.winnerSalt}, ${head.lotState},
                  ${head.signedAt}, ${signed.signer}, ${signed.signature})
          on conflict (lot_id) do update set entries = excluded.entries, head = excluded.head, highest_bid = excluded.highest_bid, winner_id = excluded.winner_id,
             winner_seq = excluded.winner_seq, winner_salt = excluded.winner_salt, lot_state = excluded.lot_state, signed_at = excluded.signed_at,
             signer = excluded.signer, signature = excluded.signature`,
    );
    await this.tlog.appendOutcome(em, {
      kind: lot.lapsedAt !== null && lot.lotState === LotState.Finished ? 'lapse' : 'close',
      lot_id: lot.id,
      lot_state: head.lotState,
      highest_bid: head.highestBid,
      winner_id: head.winnerId,
      bids: await bidLeavesOf(em, lot.id),
      at: head.signedAt,
    });
    return signed;
  }
}

interface CountRow {
  n: string;
}

const bidLeavesOf = async (em: EntityManager, lotId: string): Promise<number> =>
  Number((await rowsOf<CountRow>(em, sql`select count(*)::text as n from tlog_leaves where lot_id = ${lotId} and kind = 'bid'`))[0].n);

/** A row of `bid_log_heads`, read with HEAD_COLUMNS (ids and the amount as text): the head as the log serves it. */
type HeadRow = ServedHead;

const HEAD_COLUMNS = sql`lot_id::text, entries, head, highest_bid::text, winner_id, winner_seq, winner_salt, lot_state, signed_at, signer, signature`;

/**
 * The stored logs of the lots, in the order of `lotIds`: two statements whatever their number
 * (the request's loader reads a page of lots' logs at once).
 */
export async function storedLogs(em: EntityManager, lotIds: readonly string[]): Promise<StoredLog[]> {
  const rows = await entriesOf(em, lotIds);
  const heads = await rowsOf<HeadRow>(em, sql`select ${HEAD_COLUMNS} from bid_log_heads where lot_id = any (${sql.array(lotIds, 'bigint')})`);
  const logs = new Map(lotIds.map((id): [string, StoredLog] => [id, { rows: [], head: null }]));
  for (const r of rows) logs.get(r.lot_id)?.rows.push(r);
  for (const h of heads) (logs.get(h.lot_id) as StoredLog).head = signedHeadOf(h);
  return lotIds.map((id) => logs.get(id) as StoredLog);
}

function entriesOf(em: EntityManager, lotIds: readonly string[]): Promise<EntryRow[]> {
  return rowsOf<EntryRow>(
    em,
    sql`select e.lot_id::text, e.seq, e.bid_id::text, b.account_id, b.amount::text, b.created_at, b.placed_by_proxy as by_proxy, e.request_digest, e.bidder_salt, e.hash
          from bid_log e left join bids b on b.id = e.bid_id
         where e.lot_id = any (${sql.array(lotIds, 'bigint')}) order by e.lot_id, e.seq`,
  );
}

function signedHeadOf(r: HeadRow): SignedHead {
  return {
    lotId: r.lot_id,
    entries: Number(r.entries),
    head: r.head,
    highestBid: r.highest_bid,
    winnerId: r.winner_id,
    winnerSeq: r.winner_seq === null ? null : Number(r.winner_seq),
    winnerSalt: r.winner_salt,
    lotState: r.lot_state,
    signedAt: r.signed_at,
    signer: r.signer,
    signature: r.signature,
  };
}
