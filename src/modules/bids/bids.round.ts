import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Settled } from '../../core/batcher';
import type { Caller } from '../../core/context';
import { conflict, DomainError, forbidden, invalid } from '../../core/errors';
import type { Money } from '../../core/money';
import { requireActive } from '../../core/policies';
import type { TransactionScope } from '../../core/transaction';
import { LotState, LotType, type Lot } from '../lots/lots.entity';
import { findLot } from '../lots/lots.find';
import { NotificationType } from '../notifications/notifications.entity';
import { staffOf } from '../notifications/notifications.recipients';
import type { Emission, NotificationsService } from '../notifications/notifications.service';
import { Participant, ParticipantState } from '../trading/trading.entity';
import { minimumNext, refusalOf, resolveProxies, type PlannedBid, type Standing } from './bids.auction';
import { Bid } from './bids.entity';

/** One bid request, validated, as it waits for its lot's next round. */
export interface BidRequest {
  caller: Caller;
  amount?: Money;
  maxAmount?: Money;
  /** When it arrived: orders max bids that meet (the earlier one leads). */
  at: Date;
}

export interface PlacedBids {
  lot: Lot;
  bids: Bid[];
  /** The account that led before, when this request took the lead from it. */
  previousLeader: string | null;
}

const valueOf = (r: BidRequest) => (r.amount ?? r.maxAmount) as Money;

/**
 * A round of bids on one lot: every request waiting for the lot, decided one after another under
 * one lock of the lot's row and written in one flush. Requests are taken in ascending order of
 * amount, so bids that arrive together and can all lead are all accepted. Each request gets its
 * own outcome; a refused one changes nothing. A failure of the round itself refuses them all.
 */
export async function runRound(
  em: EntityManager,
  scope: TransactionScope,
  notifications: NotificationsService,
  lotId: string,
  requests: BidRequest[],
): Promise<Settled<PlacedBids>[]> {
  const lot = await findLot(em, lotId, LockMode.PESSIMISTIC_WRITE);
  if (lot.lotType !== LotType.Eng) throw invalid('lot_not_auction', 'bids are taken by auctions only');
  // The callers, the live max bids and the leader (whose current bid is the highest), in one query.
  const involved = await em.find(Participant, {
    lotId,
    $or: [
      { accountId: { $in: [...new Set(requests.map((r) => r.caller.accountId))] } },
      { state: ParticipantState.Pending, maxBid: { $ne: null } },
      ...(lot.highestBid ? [{ currentBid: lot.highestBid }] : []),
    ],
  });
  const standing: Standing = {
    startPrice: lot.startPrice,
    minStep: lot.minStep,
    maxStep: lot.maxStep,
    highest: lot.highestBid,
    leader: lot.highestBid === null ? null : (involved.find((p) => p.currentBid?.eq(lot.highestBid as Money))?.id ?? null),
  };
  const byId = new Map(involved.map((p) => [p.id, p]));
  const now = new Date();
  const overbids: string[] = [];
  const outcomes: Settled<PlacedBids>[] = new Array(requests.length);
  const order = requests.map((_, i) => i).sort((a, b) => valueOf(requests[a]).comparedTo(valueOf(requests[b])) || a - b);
  for (const i of order) {
    try {
      const planned = decide(lot, standing, involved, requests[i], now);
      const previous = standing.leader;
      for (const b of planned) (byId.get(b.participantId) as Participant).currentBid = b.amount;
      if (planned.length) {
        standing.highest = planned[planned.length - 1].amount;
        standing.leader = planned[planned.length - 1].participantId;
      }
      const bids = planned.map((b) =>
        em.create(Bid, { lotId, participantId: b.participantId, accountId: b.accountId, amount: b.amount, placedByProxy: b.byProxy, createdAt: now }),
      );
      const overbid = previous !== null && previous !== standing.leader ? (byId.get(previous) as Participant).accountId : null;
      if (overbid) overbids.push(overbid);
      outcomes[i] = { ok: true, value: { lot, bids, previousLeader: overbid } };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcomes[i] = { ok: false, error };
    }
  }
  lot.highestBid = standing.highest;
  if (overbids.length) {
    const staff = await staffOf(em, lot.publisherId);
    const emissions: Emission[] = overbids.map((account) => ({ type: NotificationType.Overbid, recipients: [account, ...staff], meta: { lot_id: lot.id } }));
    await notifications.emitAll(em, scope, emissions);
  } else {
    await em.flush();
  }
  return outcomes;
}

/**
 * The bids one request places against the standing (its own, then the max bids' answers), or
 * the refusal of PROTOCOL.md §6 in its order of precedence. Changes nothing but the caller's max.
 */
function decide(lot: Lot, standing: Standing, involved: Participant[], r: BidRequest, now: Date): PlannedBid[] {
  const participant = involved.find((p) => p.accountId === r.caller.accountId);
  if (!participant) throw forbidden('not_participant', 'the caller does not participate in this lot');
  requireActive(r.caller);
  if (participant.state === ParticipantState.Rejected) throw forbidden('participant_rejected', 'the participant was rejected');
  if (participant.state === ParticipantState.DepositPending) throw forbidden('deposit_not_paid', 'the deposit is not paid');
  const active =
    lot.lotState === LotState.Pending && lot.winnerId === null && participant.state === ParticipantState.Pending && lot.startTime <= now && now < lot.endTime;
  if (!active) throw invalid('lot_not_active', 'the lot takes no bids now');

  const planned: PlannedBid[] = [];
  if (r.maxAmount !== undefined) {
    if (r.maxAmount.lt(minimumNext(standing))) {
      throw invalid('bid_too_low', `max_amount must be at least ${minimumNext(standing).toFixed(2)}`, { attribute: 'max_amount' });
    }
    const maxActive = participant.maxBid !== null && (standing.leader === participant.id || (standing.highest !== null && participant.maxBid.gt(standing.highest)));
    if (maxActive) throw conflict('max_bid_exists', 'the caller already has an active max bid on this lot');
    participant.maxBid = r.maxAmount;
    participant.maxBidAt = r.at;
  } else {
    const amount = r.amount as Money;
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
  return planned;
}
