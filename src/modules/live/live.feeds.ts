import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { invalid } from '../../core/errors';
import { integerId } from '../../core/ids';
import { formatMoney } from '../../core/money';
import { requireCaller, seesLiveBidder } from '../../core/policies';
import type { LiveSource } from '../../live/live.port';
import { LiveStream } from '../../live/live.stream';
import type { BidPlacedEvent, NotificationEvent } from '../../live/live.topics';
import { PerMessage } from '../../live/per-message';
import { Bid } from '../bids/bids.entity';
import { NotificationType } from '../notifications/notifications.entity';
import { bidEvent } from '../bids/bids.events';
import { findLot } from '../lots/lots.find';
import type { LotsService, LotsView } from '../lots/lots.service';

/** A bid as one subscriber sees it: the bidder only where it may (PROTOCOL.md §9). */
export interface BidView extends Omit<BidPlacedEvent, 'bidderId'> {
  bidderId: string | null;
}

/** A view and the key it is pushed with: one per message and visibility. */
interface Keyed {
  view: BidView;
  key: string;
}

/**
 * The streams behind the GraphQL subscriptions (PROTOCOL.md §8, §9): each checks what it is asked
 * for, listens to the live source, and ends (unsubscribing) when the stream is returned.
 */
export class LiveFeeds {
  /** One load of a changed lot per message and instance, shared by its subscribers. */
  private readonly loads = new PerMessage<Promise<LotsView>>();
  /**
   * The two views of a bid, made once per message and instance and shared by the subscribers
   * that see it alike: with the bidder, and without. Each is pushed with a key naming the message
   * and the visibility, which lets LiveFanout execute an operation once per view.
   */
  private readonly views = new PerMessage<{ shown: Keyed; hidden: Keyed }>();

  constructor(
    private readonly source: LiveSource,
    private readonly lots: LotsService,
  ) {}

  /**
   * `bidPlaced(lotId, after)`: with `after`, first every bid of the lot after that bid id (from
   * the database), then the live bids, with no gap and no duplicate: it listens before it reads,
   * buffers what arrives meanwhile, and drops buffered or live bids already replayed.
   */
  async bids(ctx: RequestContext, lotId: string, after?: string | null): Promise<LiveStream<BidView>> {
    const lot = await findLot(ctx.em.fork(), lotId);
    const from = after === undefined || after === null ? null : integerId(after);
    if (after !== undefined && after !== null && from === null) throw invalid('invalid_field', 'after must be a bid id', { field: 'after' });
    // The closure keeps what visibility needs, not the lot (and with it the entity manager that loaded it).
    const { caller } = ctx;
    const publisher = { publisherId: lot.publisherId };
    const sees = (e: BidPlacedEvent) => seesLiveBidder(caller, publisher, e.bidderId);
    const stream = new LiveStream<BidView>();
    const live = (e: BidPlacedEvent, message: string) => {
      const views = this.views.get(message, () => viewsOf(e, message));
      const { view, key } = sees(e) ? views.shown : views.hidden;
      stream.push(view, key);
    };
    // Replayed bids are this subscriber's own reads: pushed without a key, executed for it alone.
    const replayed = (e: BidPlacedEvent) => stream.push(sees(e) ? e : hidden(e));
    const lost = (err: unknown) => stream.fail(err);
    if (from === null) {
      stream.onEnd(await this.source.onBid(lot.id, live, lost));
      return stream;
    }
    const buffered: BidPlacedEvent[] = [];
    let replayedTo: bigint | null = null;
    stream.onEnd(
      await this.source.onBid(lot.id, (e, message) => {
        if (replayedTo === null) buffered.push(e);
        else if (BigInt(e.id) > replayedTo) live(e, message);
      }, lost),
    );
    try {
      const missed = await bidsAfter(ctx.em.fork(), lot.id, from);
      const last = BigInt(missed.length ? missed[missed.length - 1].id : from);
      for (const e of [...missed, ...buffered.filter((b) => BigInt(b.id) > last)]) replayed(e);
      replayedTo = last;
      buffered.length = 0;
    } catch (err) {
      await stream.return();
      throw err;
    }
    return stream;
  }

  /** `lotUpdated(lotId)`: the lot as it is after each committed change, in the order of the changes. */
  async lot(ctx: RequestContext, lotId: string): Promise<LiveStream<LotsView>> {
    const lot = await findLot(ctx.em.fork(), lotId);
    const stream = new LiveStream<LotsView>();
    let delivered: Promise<void> = Promise.resolve();
    stream.onEnd(
      await this.source.onLotChanged(lot.id, (e, message) => {
        const load = this.loads.get(message, () => this.lots.get({ ...ctx, em: ctx.em.fork() }, { id: e.lotId }));
        delivered = delivered.then(() => load).then(
          (v) => stream.push(v),
          (err: unknown) => stream.fail(err),
        );
      }, (err) => stream.fail(err)),
    );
    return stream;
  }

  /** `notificationAdded`: the caller's own notifications (401 for anonymous callers). */
  async notifications(ctx: RequestContext): Promise<LiveStream<NotificationEvent>> {
    const caller = requireCaller(ctx);
    const stream = new LiveStream<NotificationEvent>();
    stream.onEnd(await this.source.onNotification(caller.accountId, (n) => stream.push(n), (err) => stream.fail(err)));
    return stream;
  }

  /** `savedSearchMatched`: the caller's notifications that a lot matched a saved search (new, or its price fell) (docs/saved-searches.md). */
  async savedSearchMatches(ctx: RequestContext): Promise<LiveStream<NotificationEvent>> {
    const caller = requireCaller(ctx);
    const stream = new LiveStream<NotificationEvent>();
    stream.onEnd(
      await this.source.onNotification(caller.accountId, (n) => {
        if (n.type === NotificationType.SavedSearchMatched) stream.push(n);
      }),
    );
    return stream;
  }
}

const hidden = (e: BidPlacedEvent): BidView => ({ ...e, bidderId: null });

const viewsOf = (e: BidPlacedEvent, message: string) => ({
  shown: { view: e, key: `${message}:shown` },
  hidden: { view: hidden(e), key: `${message}:hidden` },
});

/**
 * The lot's bids after `from`, as events. `highestBid` is, as in the live events, the lot's
 * highest bid once the request that placed the bid committed: the last of the bids that share
 * its `created_at` (one request stamps all of its bids with one time).
 */
async function bidsAfter(em: EntityManager, lotId: string, from: string): Promise<BidPlacedEvent[]> {
  const rows = await em.find(Bid, { lotId, id: { $gt: from } }, { orderBy: { id: 'asc' } });
  let highest = '';
  return rows
    .reverse()
    .map((b, i, desc) => {
      if (i === 0 || desc[i - 1].createdAt.getTime() !== b.createdAt.getTime()) highest = formatMoney(b.amount);
      return bidEvent(b, highest);
    })
    .reverse();
}
