import { KeyedBatcher, type Settled } from '../../core/batcher';
import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import { formatMoney } from '../../core/money';
import { requireCaller } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { unavailableAfter } from '../../db/faults';
import { rawTransaction } from '../../db/raw';
import type { LivePublisher } from '../../live/live.port';
import type { LotClock } from '../lots';
import type { AnyReceipt, TransparencyLog } from '../bidlog';
import type { NotificationsService } from '../notifications';
import { bidEvent } from './bids.events';
import { placeBidInput, type PlaceBidInput } from './bids.input';
import { runRound, type BidRequest, type PlacedBids } from './bids.round';
import { openRound, type LotRow } from './bids.sql';
import { seenBids, type SeenBid } from './bids.view';
import { bidsOfAccounts, bidWindowsOfAccounts } from './bids.accounts.sql';
import type { ListWindow, WindowPage } from '../../core/list-window';
import type { BidRow } from './bids.entity';
import { mayBid } from './bids.eligibility';
import { listBound } from '../../core/page';
import type { LotType, LotState } from '../lots';
import type { ParticipantState } from '../trading';

/** The most requests one round decides: enough to drain a burst, few enough to keep the lock short. */
export const ROUND_SIZE = 64;
/** A request places at most its own bid and two proxy answers (`resolveProxies`). */
const BIDS_PER_REQUEST = 3;

/**
 * A round's outcomes, and its seconds from asking the pool for a connection to its commit
 * answered (the lot's lock is held within them).
 */
type RoundWatcher = (outcomes: readonly Settled<PlacedBids>[], seconds: number) => void;

interface Pending extends BidRequest {
  ctx: RequestContext;
}

/**
 * Bids. The bids on a lot are decided in rounds under the lot's row lock, so they
 * are serialised by the database whichever instance receives them: accepted amounts are strictly
 * increasing and the lot's highest_bid is the greatest of them. Within an instance, requests that
 * arrive while a round of their lot runs wait and form the next round together.
 */
export class BidsService {
  private readonly rounds = new KeyedBatcher<Pending, PlacedBids>(async (lotId, requests) => {
    const bidders = [...new Set(requests.map((r) => r.caller.accountId))];
    const began = performance.now();
    const signer = this.tlog.appendsAs;
    const round = await rawTransaction(requests[0].ctx.em, openRound(lotId, bidders, BIDS_PER_REQUEST * requests.length, signer !== null), (tx, opened) =>
      runRound(tx, opened, requests, this.notifications, signer),
    ).catch((err) => {
      throw this.tlog.refused(err);
    });
    const seconds = (performance.now() - began) / 1000;
    const receipts = this.tlog.roundReceipts(round.outcomes.map((o) => (o.ok ? o.value : null)));
    round.outcomes.forEach((o, i) => o.ok && receipts[i] && (o.value.receipt = receipts[i]));
    this.notifications.announce(round.notifications);
    this.announce(round.outcomes);
    if (round.extended) await this.clock.lotTimesSet([round.extended]);
    for (const watch of this.roundWatchers) watch(round.outcomes, seconds);
    return round.outcomes;
    // A round that found the database out of reach answers the requests waiting behind it at once.
  }, ROUND_SIZE, unavailableAfter);
  private readonly roundWatchers: RoundWatcher[] = [];

  constructor(
    private readonly notifications: NotificationsService,
    private readonly live: LivePublisher,
    /** Moves the lot's time-based jobs when soft close moved its end. */
    private readonly clock: LotClock,
    /** Signs each request's receipt for the leaves its bids appended. */
    private readonly tlog: TransparencyLog,
  ) {}

  /** `watch` sees every decided round after it committed (the metrics count outcomes, round sizes and times). */
  onRound(watch: RoundWatcher): void {
    this.roundWatchers.push(watch);
  }

  /**
   * The lot as the bids left it, the bids placed, each naming its bidder only to those who may
   * know it, and the receipt of their leaves in the transparency log (docs/bid-log.md), null when
   * the database went out of reach once the bids were placed, or in the bench's baseline without the log.
   */
  async place(ctx: RequestContext, input: Untrusted<PlaceBidInput>): Promise<{ lot: LotRow; bids: SeenBid[]; receipt: AnyReceipt | null }> {
    const caller = requireCaller(ctx);
    const { lotId, amount, maxAmount } = validateInput(placeBidInput, input);
    const id = integerId(lotId);
    if (id === null) throw notFound('lot_not_found', 'no lot with this id');
    this.tlog.requireSigning();
    const { lot, bids, leaves, at, receipt } = await this.rounds.submit(id, { ctx, caller, amount, maxAmount, at: new Date() });
    return { lot, bids: seenBids(caller, lot, bids), receipt: receipt ?? (await this.tlog.receiptOf(ctx, leaves, at)) };
  }

  /**
   * The newest `last` bids (by default and at most 100) of each account that the caller may see
   * as that account's (a GraphQL request's batch); none for an anonymous caller.
   */
  async ofAccounts(ctx: RequestContext, accountIds: readonly string[], last?: number): Promise<BidRow[]> {
    const bound = listBound(last, 'last');
    return ctx.caller ? bidsOfAccounts(ctx.em, ctx.caller, accountIds, bound) : [];
  }

  /**
   * The same window of each account's bids that the caller may see as that account's (as
   * `ofAccounts` shows them), newest first; empty pages for an anonymous caller.
   */
  async windowsOfAccounts(ctx: RequestContext, accountIds: readonly string[], window: ListWindow): Promise<WindowPage<BidRow>[]> {
    if (ctx.caller) return bidWindowsOfAccounts(ctx.em, ctx.caller, accountIds, window);
    return accountIds.map(() => ({ items: [], positions: [], hasNextPage: false, hasPreviousPage: false, totalCount: 0 }));
  }

  /** Whether the caller may bid on the lot now, as its participant `participant` (null: it takes no part). */
  canBid(
    ctx: RequestContext,
    lot: { lotType: LotType; lotState: LotState; winnerId: string | null; startTime: Date; endTime: Date },
    participant: { state: ParticipantState } | null,
  ): boolean {
    return mayBid(ctx.caller, lot, participant, new Date());
  }

  /**
   * Each accepted bid in the order it was placed, then the lot's change. Every bid carries the
   * highest bid its round's transaction left, as a replay from the database rebuilds it.
   */
  private announce(outcomes: Settled<PlacedBids>[]): void {
    const placed = outcomes.flatMap((o) => (o.ok ? [o.value] : []));
    const bids = placed.flatMap((p) => p.bids);
    if (!bids.length) return;
    // Every outcome of a round holds the one lot row, its end moved by soft close where it was.
    const { lot } = placed[0];
    bids.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const highest = formatMoney(bids[bids.length - 1].amount);
    for (const b of bids) this.live.publishBid(bidEvent(b, highest, lot));
    this.live.publishLotChanged(bids[0].lotId);
  }
}
