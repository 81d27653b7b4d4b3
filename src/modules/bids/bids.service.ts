import { z } from 'zod';
import { KeyedBatcher, type Settled } from '../../core/batcher';
import type { RequestContext } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import { formatMoney, priceInput } from '../../core/money';
import { requireCaller } from '../../core/policies';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import { rawTransaction } from '../../db/raw';
import { bidEvent, type LiveBus } from '../live/live.bus';
import type { NotificationsService } from '../notifications/notifications.service';
import { runRound, type BidRequest, type PlacedBids } from './bids.round';
import { openRound } from './bids.sql';

export type { PlacedBids } from './bids.round';

const bidInput = z
  .object({ lot_id: z.union([z.number().int(), z.string().regex(/^\d{1,18}$/)]).optional(), amount: priceInput.optional(), max_amount: priceInput.optional() })
  .superRefine((v, ctx) => {
    if (v.amount === undefined && v.max_amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount (or max_amount) is required' });
  });

/** The most requests one round decides: enough to drain a burst, few enough to keep the lock short. */
const ROUND_SIZE = 64;

interface Pending extends BidRequest {
  ctx: RequestContext;
}

/**
 * Bids (PROTOCOL.md §6). The bids on a lot are decided in rounds under the lot's row lock, so they
 * are serialised by the database whichever instance receives them: accepted amounts are strictly
 * increasing and the lot's highest_bid is the greatest of them. Within an instance, requests that
 * arrive while a round of their lot runs wait and form the next round together.
 */
export class BidsService {
  private readonly rounds = new KeyedBatcher<Pending, PlacedBids>(async (lotId, requests) => {
    const bidders = [...new Set(requests.map((r) => r.caller.accountId))];
    const round = await rawTransaction(requests[0].ctx.em, openRound(lotId, bidders), (tx, opened) => runRound(tx, opened, requests, this.notifications));
    this.notifications.announce(round.notifications);
    this.announce(round.outcomes);
    return round.outcomes;
  }, ROUND_SIZE);

  constructor(
    private readonly notifications: NotificationsService,
    private readonly live: LiveBus,
  ) {}

  async place(ctx: RequestContext, lotId: string, input: ResourceInput): Promise<PlacedBids> {
    const caller = requireCaller(ctx);
    const attrs = validateAttributes(bidInput, input.attributes);
    if (attrs.lot_id !== undefined && String(attrs.lot_id) !== lotId) {
      throw invalid('invalid_field', 'lot_id must be the lot of the path', { attribute: 'lot_id' });
    }
    const id = integerId(lotId);
    if (id === null) throw notFound('lot_not_found', 'no lot with this id');
    return this.rounds.submit(id, { ctx, caller, amount: attrs.amount, maxAmount: attrs.max_amount, at: new Date() });
  }

  /**
   * Each accepted bid in the order it was placed, then the lot's change. Every bid carries the
   * highest bid its round's transaction left, as a replay from the database rebuilds it.
   */
  private announce(outcomes: Settled<PlacedBids>[]): void {
    const bids = outcomes.flatMap((o) => (o.ok ? o.value.bids : []));
    if (!bids.length) return;
    bids.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const highest = formatMoney(bids[bids.length - 1].amount);
    for (const b of bids) this.live.publishBid(bidEvent(b, highest));
    this.live.publishLotChanged(bids[0].lotId);
  }
}
