import type { RequestContext } from '../../core/context';
import { DomainError, forbidden, invalid, notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import { MAX_PAGE_SIZE } from '../../core/page';
import { isStaffOf, requireCaller, seesLiveBidder } from '../../core/policies';
import type { LiveSource } from '../../live/live.port';
import { LiveStream } from '../../live/live.stream';
import type { BidPlacedEvent, NotificationEvent } from '../../live/live.topics';
import { FoldedReads, type FoldedRead } from './live.folded-reads';
import { PerMessage } from './live.per-message';
import { NotificationType } from '../notifications';
import { findLot, type LotsService, type LotsView } from '../lots';
import type { ParticipationService } from '../trading';
import { bidsAt, BidReplays, ReplayTurns } from './live.replay';

/** A bid as one subscriber sees it: the bidder only where it may. */
export interface BidView extends Omit<BidPlacedEvent, 'bidderId'> {
  bidderId: string | null;
}

/** The most lots one `lotsUpdated` follows: a page of them. */
export const MAX_LOTS_PER_SUBSCRIPTION = MAX_PAGE_SIZE;

/** What happened to one of the viewer's participations (`viewerUpdated`). */
export type ViewerChangeKind = 'outbid' | 'leading' | 'won' | 'extended';

export interface ViewerChange {
  kind: ViewerChangeKind;
  lotId: string;
  at: Date;
}

/** The notices to a participant that are changes of its participation. */
const NOTICE_KINDS = new Map<number, ViewerChangeKind>([
  [NotificationType.Overbid, 'outbid'],
  [NotificationType.Winner, 'won'],
  [NotificationType.LotExtended, 'extended'],
]);

/** What a subscription keeps of its lot. */
interface SubscribedLot {
  id: string;
  publisherId: string;
}

/** A view and the key it is pushed with: one per message and visibility. */
interface Keyed {
  view: BidView;
  key: string;
}

/**
 * The streams behind the GraphQL subscriptions: each checks what it is asked
 * for, listens to the live source, and ends (unsubscribing) when the stream is returned.
 */
export class LiveFeeds {
  /** The reads of changed lots, folded per lot and instance and shared by their subscribers. */
  private readonly reads = new FoldedReads<LotsView>();
  private readonly loads = new PerMessage<FoldedRead<LotsView>>();
  /**
   * The two views of a bid, made once per message and instance and shared by the subscribers
   * that see it alike: with the bidder, and without. Each is pushed with a key naming the message
   * and the visibility, which lets LiveFanout execute an operation once per view.
   */
  private readonly views = new PerMessage<{ shown: Keyed; hidden: Keyed }>();

  private readonly replays: BidReplays;
  /** The turns in which every replay pushes its bids, so that many together leave the loop to others. */
  private readonly turns = new ReplayTurns();
  /** The views of the bids replays read, while any replay holds them (the events are shared by the replays of one read). */
  private readonly replayViews = new WeakMap<BidPlacedEvent, { shown: Keyed; hidden: Keyed }>();
  /** Lookups of the lots being subscribed to, by the id asked for, while they run. */
  private readonly lookups = new Map<string, Promise<SubscribedLot>>();

  /** Reads of the database for replays so far. */
  get replayReads(): number {
    return this.replays.reads;
  }

  constructor(
    private readonly source: LiveSource,
    private readonly lots: LotsService,
    private readonly participation: Pick<ParticipationService, 'standingsOfCaller'>,
    /** Most bids a replay (`after`) yields before it ends with `replay_truncated` (REPLAY_MAX_BIDS). */
    private readonly maxReplayed: number,
  ) {
    this.replays = new BidReplays(maxReplayed);
  }

  /**
   * `bidPlaced(lotId, after)`: with `after`, first the bids of the lot after that bid id (from the
   * database, at most `maxReplayed`, else the stream ends with `replay_truncated` after that
   * many), then the live bids, with no gap and no duplicate: it listens before it reads, buffers
   * what arrives meanwhile, and drops buffered or live bids already replayed.
   */
  async bids(ctx: RequestContext, lotId: string, after?: string | null): Promise<LiveStream<BidView>> {
    const lot = await this.lotOf(ctx, lotId);
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
    const lost = (err: unknown) => stream.fail(err);
    if (from === null) {
      stream.onEnd(await this.source.onBid(lot.id, live, lost));
      return stream;
    }
    const buffered: BidPlacedEvent[] = [];
    const replay = { to: null as bigint | null };
    stream.onEnd(
      await this.source.onBid(lot.id, (e, message) => {
        if (replay.to === null) buffered.push(e);
        else if (BigInt(e.id) > replay.to) live(e, message);
      }, lost),
    );
    // Pushed after the stream is handed over, in turns: a long replay to many subscribers leaves the loop to others between chunks.
    this.replay(ctx, lot.id, BigInt(from), stream, sees, buffered).then(
      (to) => (replay.to = to),
      (err: unknown) => stream.fail(err),
    );
    return stream;
  }

  /** Bids as `bidPlaced` shows them to the caller, as a replay yields them (`node(id:)` of a BidEvent); null for an id of no bid. */
  async bidsById(ctx: RequestContext, bidIds: readonly string[]): Promise<(BidView | null)[]> {
    const ids = bidIds.map(integerId);
    const read = new Map((await bidsAt(ctx.em, ids.filter((id) => id !== null))).map((b) => [b.event.id, b]));
    return ids.map((id) => {
      const bid = id === null ? undefined : read.get(id);
      if (!bid) return null;
      return seesLiveBidder(ctx.caller, bid, bid.event.bidderId) ? bid.event : hidden(bid.event);
    });
  }

  /**
   * Pushes the bids after `from`, then the buffered ones after those, and answers the last id
   * pushed; past `maxReplayed` bids, fails the stream with `replay_truncated` instead. Each
   * replayed bid is pushed with a key naming it and its visibility, so that the subscribers of
   * one operation replaying together execute each bid once.
   */
  private async replay(ctx: RequestContext, lotId: string, from: bigint, stream: LiveStream<BidView>, sees: (e: BidPlacedEvent) => boolean, buffered: BidPlacedEvent[]): Promise<bigint | null> {
    const { events, truncated } = await this.replays.read(() => ctx.em.fork(), lotId, from);
    let pushed = 0;
    let lastPushed: BidPlacedEvent | null = null;
    const push = (e: BidPlacedEvent) => {
      const views = this.replayed(e);
      const { view, key } = sees(e) ? views.shown : views.hidden;
      stream.push(view, key);
      lastPushed = e;
      pushed++;
    };
    const last = () => (lastPushed === null ? from : BigInt((lastPushed as BidPlacedEvent).id));
    if (!(await this.turns.push(events, push, () => stream.ended))) return null;
    const replayedTo = last();
    const rest = buffered.filter((b) => BigInt(b.id) > replayedTo);
    buffered.length = 0;
    for (const e of rest.slice(0, this.maxReplayed - pushed)) push(e);
    if (truncated || pushed < events.length + rest.length) {
      stream.fail(invalid('replay_truncated', `more than ${this.maxReplayed} bids were placed after ${from}: read them (Lot.bidsConnection, or the bid log of lot ${lotId}) and subscribe again with a later after`, { field: 'after' }));
      return null;
    }
    return last();
  }

  /** The two views of a replayed bid, made once for all the replays it is read for, with keys naming it and the visibility. */
  private replayed(e: BidPlacedEvent): { shown: Keyed; hidden: Keyed } {
    let views = this.replayViews.get(e);
    if (!views) {
      views = { shown: { view: e, key: `replay:${e.id}:shown` }, hidden: { view: hidden(e), key: `replay:${e.id}:hidden` } };
      this.replayViews.set(e, views);
    }
    return views;
  }

  /**
   * The lot a subscription names, looked up once for the subscriptions asking at the same time:
   * a thousand subscribing at once would otherwise take the pool's connections from every request.
   */
  private lotOf(ctx: RequestContext, lotId: string): Promise<SubscribedLot> {
    let lookup = this.lookups.get(lotId);
    if (!lookup) {
      const made = findLot(ctx.em.fork(), lotId).then((l) => ({ id: l.id, publisherId: l.publisherId }));
      const forget = () => void (this.lookups.get(lotId) === made && this.lookups.delete(lotId));
      made.then(forget, forget);
      this.lookups.set(lotId, made);
      lookup = made;
    }
    return lookup;
  }

  /**
   * `lotUpdated(lotId)`: the lot as it is after each committed change, in the order of the
   * changes; changes that come while the lot is read are shown together, by the next read.
   */
  async lot(ctx: RequestContext, lotId: string): Promise<LiveStream<LotsView>> {
    return this.changes(ctx, [await this.lotOf(ctx, lotId)]);
  }

  /**
   * `lotsUpdated(ids)`: each of up to MAX_LOTS_PER_SUBSCRIPTION lots as it is after each committed
   * change, in the order of the changes; a dashboard follows its lots in one operation. Each lot
   * costs what its selection costs (the cost counts the ids), so that the budgets bound the whole.
   */
  async lotsChanged(ctx: RequestContext, ids: readonly string[]): Promise<LiveStream<LotsView>> {
    const unique = [...new Set(ids)];
    if (!unique.length || unique.length > MAX_LOTS_PER_SUBSCRIPTION) {
      throw invalid('invalid_field', `ids must name 1 to ${MAX_LOTS_PER_SUBSCRIPTION} lots`, { field: 'ids' });
    }
    return this.changes(ctx, await Promise.all(unique.map((id) => this.lotOf(ctx, id).catch((err: unknown) => Promise.reject(namingEntry(err, ids.indexOf(id)))))));
  }

  private async changes(ctx: RequestContext, lots: readonly SubscribedLot[]): Promise<LiveStream<LotsView>> {
    const stream = new LiveStream<LotsView>();
    let delivered: Promise<void> = Promise.resolve();
    const awaited = new Map<string, FoldedRead<LotsView>>();
    for (const lot of lots) {
      stream.onEnd(
        await this.source.onLotChanged(lot.id, (_, message) => {
          // One read for all the listeners of a message, which the bus calls one after the other.
          const read = this.loads.get(message, () => this.reads.after(lot.id, () => this.lots.get({ ...ctx, em: ctx.em.fork() }, { id: lot.id })));
          // The changes that arrive while a read waits to begin are all in it: the stream takes it once.
          if (awaited.get(lot.id) === read) return;
          awaited.set(lot.id, read);
          // Keyed by the read: the subscribers of one selection and visibility share its result.
          delivered = delivered.then(() => read.value).then(
            (v) => stream.push(v, read.key),
            (err: unknown) => stream.fail(err),
          );
        }, (err) => stream.fail(err)),
      );
    }
    return stream;
  }

  /**
   * `viewerUpdated`: the changes of the caller's participations. Outbid, won and extended are the
   * notices the caller receives of them (to it alone); leading is each bid of the caller that is
   * its lot's highest once placed, on the lots of its newest 100 participations when it subscribed.
   */
  async viewerChanges(ctx: RequestContext): Promise<LiveStream<ViewerChange>> {
    const caller = requireCaller(ctx);
    const stream = new LiveStream<ViewerChange>();
    const lost = (err: unknown) => stream.fail(err);
    stream.onEnd(
      await this.source.onNotification(caller.accountId, (n) => {
        const kind = NOTICE_KINDS.get(n.type);
        if (kind && n.meta.lot_id) stream.push({ kind, lotId: n.meta.lot_id, at: n.createdAt });
      }, lost),
    );
    const standings = await this.participation.standingsOfCaller({ ...ctx, em: ctx.em.fork() });
    for (const lotId of new Set(standings.map((s) => s.lotId))) {
      if (stream.ended) break;
      stream.onEnd(
        await this.source.onBid(lotId, (e) => {
          if (e.bidderId === caller.accountId && e.amount === e.highestBid) stream.push({ kind: 'leading', lotId: e.lotId, at: e.createdAt });
        }, lost),
      );
    }
    return stream;
  }

  /** `platformActivity(platformId)`: every accepted bid on the platform's lots, bidders named, for staff of the platform alone. */
  async platformBids(ctx: RequestContext, platformId: string): Promise<LiveStream<BidView>> {
    const caller = requireCaller(ctx);
    if (!isStaffOf(caller, platformId)) throw forbidden('not_allowed', "only staff of the platform may follow its activity");
    const stream = new LiveStream<BidView>();
    stream.onEnd(await this.source.onPlatformBid(platformId, (e, message) => stream.push(e, `${message}:shown`), (err) => stream.fail(err)));
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

/** A missing lot among `ids` named by its place in the list: of 100 ids, the one to drop. */
function namingEntry(err: unknown, index: number): unknown {
  if (!(err instanceof DomainError) || err.items[0].code !== 'lot_not_found') return err;
  return notFound('lot_not_found', `ids.${index} names no lot`, { field: `ids.${index}` });
}
