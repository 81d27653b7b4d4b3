import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { integerId } from '../../core/ids';
import { conflict, forbidden, invalid, notFound } from '../../core/errors';
import { formatMoney, type Money } from '../../core/money';
import { listBound } from '../../core/page';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { windowOf } from '../../db/window';
import { sql } from '../../db/sql';
import { managesLot, requireCaller } from '../../core/policies';
import { rfc3339 } from '../../core/time';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { Lot, LotState, findLot, isClosed } from '../lots';
import { NotificationType, type NotificationsService } from '../notifications';
import { reserveLapsed } from '../lots';
import { SECOND_CHANCE_DEFAULT_TTL, type RulesService } from '../rules';
import { Participant, ParticipantState, WinnerDetails, WINNER_DETAILS_FIELDS, requireId, requireManager, requireTradable, type WinnersService } from '../trading';
import { secondChanceAllowed } from './offers.eligibility';
import { SecondChanceOffer, type OfferState } from './offers.entity';
import { answerInput, offerInput, offersOfLotInput, type AnswerInput, type OfferInput, type OffersOfLotInput } from './offers.input';

const EXPIRY_BATCH = 100;

const openAlready = () => conflict('second_chance_offer_open', 'an offer of this lot is open already; wait for its answer or its expiry');
const notAllowed = () => invalid('second_chance_not_allowed', "a lot is offered a second time only while it is open and its winner's deal is canceled, or once its reserve lapsed without a winner");

/** A bidder offered none of the lot's second-chance offers sees none. */
const notOffered = () => forbidden('not_allowed', "only the lot's organizer, staff of its publisher and the bidders offered it see its second-chance offers");

/**
 * Second-chance offers (docs/auction-rules.md): after a winner's deal is canceled, or the lot's
 * reserve lapsed, the lot's managers offer it to one lost bidder at a time, at that bidder's highest bid; the bidder
 * accepts (and wins through the winner choice itself) or declines, or the offer expires. Every
 * change locks the lot's row first, so that offers, answers and expiry of one lot happen one
 * after the other on any number of instances.
 */
export class SecondChanceService {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly winners: Pick<WinnersService, 'award'>,
    private readonly rules: Pick<RulesService, 'ofLot'>,
  ) {}

  /** POST /lots/{id}/second_chance_offers: the lot's organizer or staff of its publisher. */
  async offer(ctx: RequestContext, input: Untrusted<OfferInput>): Promise<SecondChanceOffer> {
    const caller = requireCaller(ctx);
    return uniquely(
      () =>
        inTransaction(ctx, async (em, scope) => {
          const lot = await findLot(em, input.lotId, LockMode.PESSIMISTIC_WRITE);
          requireManager(ctx, lot, 'offer it a second time');
          const { accountId, expiresIn } = validateInput(offerInput, input);
          requireTradable(lot);
          if (!secondChanceAllowed(lot, await detailsOf(em, lot))) throw notAllowed();
          if (await em.count(SecondChanceOffer, { lotId: lot.id, state: 'open' })) throw openAlready();
          const ttl = (await this.rules.ofLot(em, lot))?.secondChanceTtl ?? SECOND_CHANCE_DEFAULT_TTL;
          if (expiresIn !== undefined && expiresIn > ttl) {
            throw invalid('second_chance_ttl_exceeded', `expiresIn: must be at most ${ttl} seconds on this lot`, { field: 'expiresIn' });
          }
          const { bidder, amount } = await nextBidder(em, lot, accountId);
          const offer = em.create(SecondChanceOffer, {
            lotId: lot.id,
            participantId: bidder.id,
            accountId: bidder.accountId,
            amount,
            currency: lot.currency,
            expiresAt: new Date(Date.now() + (expiresIn ?? ttl) * 1000),
            offeredBy: caller.accountId,
          });
          await em.flush();
          await this.notifications.emit(em, scope, NotificationType.SecondChanceOffered, [offer.accountId], {
            lot_id: lot.id,
            offer_id: offer.id,
            amount: formatMoney(offer.amount),
            currency: offer.currency,
            expires_at: rfc3339(offer.expiresAt),
          });
          return offer;
        }),
      openAlready,
    );
  }

  /** GET /lots/{id}/second_chance_offers: every offer to the lot's managers; to a bidder, the offers made to it. */
  async list(ctx: RequestContext, input: Untrusted<OffersOfLotInput>, last?: number): Promise<SecondChanceOffer[]> {
    const caller = requireCaller(ctx);
    const { lotId } = validateInput(offersOfLotInput, input);
    // The newest `last` (GraphQL bounds it: a lot may be offered to each of its bidders in turn),
    // answered oldest first; REST asks for no bound and lists them all.
    const bound = last === undefined ? undefined : listBound(last, 'last');
    const lot = await findLot(ctx.em, lotId);
    const manager = managesLot(caller, lot);
    const newest = await ctx.em.find(SecondChanceOffer, { lotId: lot.id, ...(manager ? {} : { accountId: caller.accountId }) }, { orderBy: { id: 'desc' }, limit: bound, refresh: true });
    const offers = newest.reverse();
    if (!manager && !offers.length) throw notOffered();
    return offers;
  }

  /**
   * Offers by id (`node(id:)`), shown as `list` shows a lot's: every offer to the lot's managers,
   * a bidder's own to the bidder. Any other id is absent, as one of no offer.
   */
  async visibleByIds(ctx: RequestContext, ids: readonly string[]): Promise<SecondChanceOffer[]> {
    const caller = requireCaller(ctx);
    const wellFormed = ids.filter((id) => integerId(id) !== null);
    const offers = wellFormed.length ? await ctx.em.find(SecondChanceOffer, { id: { $in: wellFormed } }, { refresh: true }) : [];
    const lotIds = [...new Set(offers.filter((o) => o.accountId !== caller.accountId).map((o) => o.lotId))];
    const lots = new Map((lotIds.length ? await ctx.em.find(Lot, { id: { $in: lotIds } }) : []).map((lot) => [String(lot.id), lot]));
    return offers.filter((o) => {
      const lot = lots.get(String(o.lotId));
      return o.accountId === caller.accountId || (lot !== undefined && managesLot(caller, lot));
    });
  }

  /**
   * `secondChanceOffersConnection`: the offers `list` shows, oldest first, one window paged in the
   * database; refused to a bidder offered none, as `list` is.
   */
  async window(ctx: RequestContext, input: Untrusted<OffersOfLotInput>, window: ListWindow): Promise<WindowPage<SecondChanceOffer>> {
    const caller = requireCaller(ctx);
    const { lotId } = validateInput(offersOfLotInput, input);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const lot = await findLot(ctx.em, lotId);
    const manager = managesLot(caller, lot);
    const page = await windowOf<Record<string, unknown>>(
      ctx.em,
      {
        columns: sql`o.*`,
        from: sql`second_chance_offers o`,
        where: manager ? sql`o.lot_id = ${lot.id}` : sql`o.lot_id = ${lot.id} and o.account_id = ${caller.accountId}`,
        order: { key: null, id: sql`o.id`, ascending: true },
      },
      window,
    );
    if (!manager && !page.items.length && !page.hasNextPage && !page.hasPreviousPage) throw notOffered();
    return { ...page, items: page.items.map((row) => ctx.em.map(SecondChanceOffer, row)) };
  }

  /**
   * PATCH /lots/{id}/second_chance_offers/{offer}: the bidder offered accepts or declines. An
   * answer after `expiresAt` expires the offer (committed, as the job would) and answers 409.
   */
  async answer(ctx: RequestContext, input: Untrusted<AnswerInput>): Promise<SecondChanceOffer> {
    const caller = requireCaller(ctx);
    const answered = await inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, input.lotId, LockMode.PESSIMISTIC_WRITE);
      const offerId = requireId(input.offerId, 'offerId');
      const offer = await em.findOne(SecondChanceOffer, { id: offerId, lotId: lot.id }, { refresh: true });
      if (!offer) throw notFound('second_chance_offer_not_found', 'the lot has no second-chance offer with this id');
      if (offer.accountId !== caller.accountId) throw forbidden('not_allowed', 'only the bidder offered may answer a second-chance offer');
      const { state } = validateInput(answerInput, input);
      if (offer.state !== 'open') throw conflict('second_chance_offer_closed', `the offer is ${offer.state} already`);
      if (offer.expiresAt.getTime() <= Date.now()) {
        await this.settle(em, scope, lot, offer, 'expired');
        return null;
      }
      if (state === 'accepted') await this.accept(em, scope, lot, offer);
      await this.settle(em, scope, lot, offer, state);
      return offer;
    });
    if (!answered) throw conflict('second_chance_offer_expired', 'the offer expired before this answer');
    return answered;
  }

  /** The expiry job: open offers whose time is up become expired, each in its own transaction. Answers how many. */
  async expireDue(em: EntityManager): Promise<number> {
    const due = await em.find(SecondChanceOffer, { state: 'open', expiresAt: { $lte: new Date() } }, { orderBy: { expiresAt: 'asc' }, limit: EXPIRY_BATCH, fields: ['id', 'lotId'], refresh: true });
    let expired = 0;
    for (const { id, lotId } of due) {
      const done = await inTransaction({ em: em.fork() }, async (tx, scope) => {
        const lot = await findLot(tx, lotId, LockMode.PESSIMISTIC_WRITE);
        const offer = await tx.findOneOrFail(SecondChanceOffer, { id }, { refresh: true });
        // Answered meanwhile, under the lot's lock: the answer stands.
        if (offer.state !== 'open' || offer.expiresAt.getTime() > Date.now()) return false;
        await this.settle(tx, scope, lot, offer, 'expired');
        return true;
      });
      if (done) expired += 1;
    }
    return expired;
  }

  /**
   * The bidder becomes the winner through the winner choice itself, so that all its rules hold:
   * the canceled winner steps aside, the bidder is back in the running, and the new deal starts
   * with winner details of its own (the canceled one's are dropped, deal_canceled with them).
   * A lapsed lot is finished: it goes back to pending for the winner choice, which wants an open
   * lot, and its organizer closes it sold as usual; it has ended, so it takes no bid meanwhile.
   * `lapsedAt` stays, as its history.
   */
  private async accept(em: EntityManager, scope: TransactionScope, lot: Lot, offer: SecondChanceOffer): Promise<void> {
    const details = await detailsOf(em, lot);
    if (!secondChanceAllowed(lot, details)) throw notAllowed();
    const participant = await em.findOneOrFail(Participant, { id: offer.participantId }, { refresh: true });
    if (participant.state === ParticipantState.Lost) participant.state = ParticipantState.Pending;
    if (details) WINNER_DETAILS_FIELDS.forEach((field) => Object.assign(details, { [field]: null }));
    lot.winnerId = null;
    if (isClosed(lot) && reserveLapsed(lot)) lot.lotState = LotState.Pending;
    // Written before the winner choice, whose reads refresh what they load.
    await em.flush();
    // The organizer offered the lot at this bidder's own highest bid: that is its consent to a price under a reserve.
    await this.winners.award(em, scope, lot, participant, { buyNow: false, acceptBelowReserve: true, chosenBy: 'state' });
  }

  /** An offer ends: its state, and the notice to the lot's organizer. */
  private async settle(em: EntityManager, scope: TransactionScope, lot: Lot, offer: SecondChanceOffer, state: Exclude<OfferState, 'open'>): Promise<void> {
    offer.state = state;
    offer.answeredAt = new Date();
    await em.flush();
    await this.notifications.emit(em, scope, NotificationType.SecondChanceAnswered, [lot.organizerId], { lot_id: lot.id, offer_id: offer.id, account_id: offer.accountId, state });
  }
}

async function detailsOf(em: EntityManager, lot: Lot): Promise<WinnerDetails | null> {
  return em.findOne(WinnerDetails, { lotId: lot.id }, { refresh: true });
}

/**
 * Whom the lot is offered to: a bidder that lost (it bid, and another won or the lot lapsed) and was never offered
 * this lot before; the highest bid first, or the one `accountId` names.
 */
async function nextBidder(em: EntityManager, lot: Lot, accountId: string | undefined): Promise<{ bidder: Participant; amount: Money }> {
  const offered = (await em.find(SecondChanceOffer, { lotId: lot.id }, { fields: ['participantId'] })).map((o) => o.participantId);
  const [bidder] = await em.find(
    Participant,
    { lotId: lot.id, state: ParticipantState.Lost, currentBid: { $ne: null }, ...(offered.length ? { id: { $nin: offered } } : {}), ...(accountId === undefined ? {} : { accountId }) },
    { orderBy: { currentBid: 'desc', id: 'asc' }, limit: 1, refresh: true },
  );
  if (bidder?.currentBid) return { bidder, amount: bidder.currentBid };
  if (accountId !== undefined) throw invalid('second_chance_bidder_ineligible', 'account_id names no lost bidder of this lot that was not offered it already', { field: 'accountId' });
  throw invalid('no_second_chance_bidder', 'no bidder of this lot is left to offer it to');
}
