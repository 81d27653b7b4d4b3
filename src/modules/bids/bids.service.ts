import { LockMode } from '@mikro-orm/core';
import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid } from '../../core/errors';
import { priceInput, type Money } from '../../core/money';
import { requireActive, requireCaller } from '../../core/policies';
import { inTransaction } from '../../core/transaction';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import { LotState, LotType, type Lot } from '../lots/lots.entity';
import { findLot } from '../lots/lots.find';
import { Participant, ParticipantState } from '../trading/trading.entity';
import { refusalOf, minimumNext, resolveProxies, type PlannedBid, type Standing } from './bids.auction';
import { NotificationType } from '../notifications/notifications.entity';
import { staffOf } from '../notifications/notifications.recipients';
import type { NotificationsService } from '../notifications/notifications.service';
import { Bid } from './bids.entity';

const bidInput = z
  .object({ lot_id: z.union([z.number().int(), z.string().regex(/^\d{1,18}$/)]).optional(), amount: priceInput.optional(), max_amount: priceInput.optional() })
  .superRefine((v, ctx) => {
    if (v.amount === undefined && v.max_amount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount (or max_amount) is required' });
  });

export interface PlacedBids {
  lot: Lot;
  bids: Bid[];
  /** The account that led before, when the lead changed hands. */
  previousLeader: string | null;
}

/**
 * Bids (PROTOCOL.md §6). Every bid on a lot runs under the lot's row lock, so bids are serialised
 * by the database whichever instance receives them: accepted amounts are strictly increasing and
 * the lot's highest_bid is the greatest of them.
 */
export class BidsService {
  constructor(private readonly notifications: NotificationsService) {}

  async place(ctx: RequestContext, lotId: string, input: ResourceInput): Promise<PlacedBids> {
    const caller = requireCaller(ctx);
    const attrs = validateAttributes(bidInput, input.attributes);
    if (attrs.lot_id !== undefined && String(attrs.lot_id) !== lotId) {
      throw invalid('invalid_field', 'lot_id must be the lot of the path', { attribute: 'lot_id' });
    }
    return inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, lotId, LockMode.PESSIMISTIC_WRITE);
      if (lot.lotType !== LotType.Eng) throw invalid('lot_not_auction', 'bids are taken by auctions only');
      // The caller, the live max bids and the leader (whose current bid is the highest), in one query.
      const involved = await em.find(Participant, {
        lotId,
        $or: [{ accountId: caller.accountId }, { state: ParticipantState.Pending, maxBid: { $ne: null } }, ...(lot.highestBid ? [{ currentBid: lot.highestBid }] : [])],
      });
      const participant = involved.find((p) => p.accountId === caller.accountId);
      if (!participant) throw forbidden('not_participant', 'the caller does not participate in this lot');
      requireActive(caller);
      if (participant.state === ParticipantState.Rejected) throw forbidden('participant_rejected', 'the participant was rejected');
      if (participant.state === ParticipantState.DepositPending) throw forbidden('deposit_not_paid', 'the deposit is not paid');
      const now = new Date();
      const active =
        lot.lotState === LotState.Pending && lot.winnerId === null && participant.state === ParticipantState.Pending && lot.startTime <= now && now < lot.endTime;
      if (!active) throw invalid('lot_not_active', 'the lot takes no bids now');

      const holder = lot.highestBid === null ? undefined : involved.find((p) => p.currentBid !== null && p.currentBid.eq(lot.highestBid as Money));
      const standing: Standing = { startPrice: lot.startPrice, minStep: lot.minStep, maxStep: lot.maxStep, highest: lot.highestBid, leader: holder?.id ?? null };
      const previousLeader = standing.leader;
      const planned: PlannedBid[] = [];
      if (attrs.max_amount !== undefined) {
        if (attrs.max_amount.lt(minimumNext(standing))) {
          throw invalid('bid_too_low', `max_amount must be at least ${minimumNext(standing).toFixed(2)}`, { attribute: 'max_amount' });
        }
        const maxActive = participant.maxBid !== null && (standing.leader === participant.id || (standing.highest !== null && participant.maxBid.gt(standing.highest)));
        if (maxActive) throw conflict('max_bid_exists', 'the caller already has an active max bid on this lot');
        participant.maxBid = attrs.max_amount;
        participant.maxBidAt = now;
      } else {
        const amount = attrs.amount as Money;
        const refusal = refusalOf(standing, amount);
        if (refusal === 'bid_too_low') throw invalid(refusal, `amount must be at least ${minimumNext(standing).toFixed(2)}`, { attribute: 'amount' });
        if (refusal) throw invalid(refusal, `amount may exceed the highest bid by at most ${lot.maxStep.toFixed(2)}`, { attribute: 'amount' });
        planned.push({ participantId: participant.id, accountId: participant.accountId, amount, byProxy: false });
      }

      const after: Standing = planned.length ? { ...standing, highest: planned[0].amount, leader: participant.id } : standing;
      const proxies = involved.filter((p) => p.state === ParticipantState.Pending && p.maxBid !== null);
      planned.push(
        ...resolveProxies(
          after,
          proxies.map((p) => ({ participantId: p.id, accountId: p.accountId, max: p.maxBid as Money, since: p.maxBidAt ?? p.updatedAt })),
        ),
      );
      const bids = planned.map((b) => em.create(Bid, { lotId, participantId: b.participantId, accountId: b.accountId, amount: b.amount, placedByProxy: b.byProxy, createdAt: now }));
      const byId = new Map([...proxies, participant].map((p) => [p.id, p]));
      for (const b of planned) (byId.get(b.participantId) as Participant).currentBid = b.amount;
      if (planned.length) lot.highestBid = planned[planned.length - 1].amount;
      await em.flush();
      const leader = planned.length ? planned[planned.length - 1].participantId : standing.leader;
      const overbid = previousLeader !== null && previousLeader !== leader ? involved.find((p) => p.id === previousLeader) : undefined;
      if (overbid) {
        await this.notifications.emit(em, scope, NotificationType.Overbid, [overbid.accountId, ...(await staffOf(em, lot.publisherId))], { lot_id: lot.id });
      }
      return { lot, bids, previousLeader: overbid?.accountId ?? null };
    });
  }
}
