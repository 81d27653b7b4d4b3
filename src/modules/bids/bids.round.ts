import type { Settled } from '../../core/batcher';
import type { Caller } from '../../core/context';
import { conflict, DomainError, forbidden, invalid, invalidWith, notFound } from '../../core/errors';
import { Money } from '../../core/money';
import { requireActive } from '../../core/policies';
import type { RawTransaction, Rows } from '../../db/raw';
import type { LotTimes } from '../lots';
import { requireBuyingPower, roundPower, type RoundPower } from '../buying-power';
import { LotType, takesBids } from '../lots';
import { type PublishedNotification, NotificationType, type NotificationsService } from '../notifications';
import { ParticipantState } from '../trading';
import { minimumNext, refusalOf, resolveProxies, stepsOf, type PlannedBid, type Standing } from './bids.auction';
import type { BidRow } from './bids.entity';
import { softClose } from './bids.soft-close';
import { chainRound, type AnyReceipt } from '../bidlog';
import { lotRowOf, overbidRecipients, participantRowsOf, writeRound, writtenRound, type LotRow, type ParticipantRow } from './bids.sql';

/** One bid request, validated, as it waits for its lot's next round. */
export interface BidRequest {
  caller: Caller;
  amount?: Money;
  maxAmount?: Money;
  /** When it arrived: orders max bids that meet (the earlier one leads). */
  at: Date;
}

export interface PlacedBids {
  lot: LotRow;
  bids: BidRow[];
  /** The account that led before, when this request took the lead from it. */
  previousLeader: string | null;
  /** The transparency log's leaves of the bids, for the request's receipt; the index when the round numbered them. */
  leaves: { bidId: string; leafHash: Buffer; leafIndex?: number }[];
  at: Date;
  /** The receipt signed for the whole round when the round numbered the leaves (`roundReceipts`); else the request's own is signed once the leaves are numbered. */
  receipt?: AnyReceipt;
}

/** What a round leaves to announce once it committed. */
export interface Round {
  outcomes: Settled<PlacedBids>[];
  notifications: PublishedNotification[];
  /** The lot with its new end, when soft close moved it. */
  extended?: LotTimes;
}

const valueOf = (r: BidRequest) => (r.amount ?? r.maxAmount) as Money;

/**
 * A round of bids on one lot: every request waiting for the lot, decided one after another under
 * one lock of the lot's row and written in one statement. Requests are taken in ascending order
 * of amount, so bids that arrive together and can all lead are all accepted. Each accepted bid
 * is chained onto the lot's bid log by the same statement (docs/bid-log.md). Each request gets
 * its own outcome; a refused one changes nothing. A failure of the round itself refuses them all.
 */
export async function runRound(tx: RawTransaction, [locked, participants, logHead, ids]: Rows[], requests: BidRequest[], notifications: NotificationsService, signer: string | null): Promise<Round> {
  const lot = lotRowOf(locked);
  if (!lot) throw notFound('lot_not_found', 'no lot with this id');
  if (lot.lotType !== LotType.Eng) throw invalid('lot_not_auction', 'bids are taken by auctions only');
  const involved = participantRowsOf(participants);
  // Only a lot whose rules hold bids to buying power pays for it: one more round trip, under the bidders' locks.
  const multiple = lot.rules?.buyingPowerMultiple ?? null;
  const power = multiple === null ? null : await roundPower(tx, lot, multiple, involved.filter((p) => p.state === ParticipantState.Pending).map((p) => p.accountId));
  const standing: Standing = {
    startPrice: lot.startPrice,
    minStep: lot.minStep,
    maxStep: lot.maxStep,
    increments: lot.rules?.increments ?? null,
    highest: lot.highestBid,
    leader: lot.highestBid === null ? null : (involved.find((p) => p.currentBid?.eq(lot.highestBid as Money))?.id ?? null),
    reserve: lot.reservePrice,
  };
  const byId = new Map(involved.map((p) => [p.id, p]));
  const changed = new Set<ParticipantRow>();
  const now = new Date();
  const placed: { request: number; bids: PlannedBid[]; overbid: string | null }[] = [];
  const outcomes: Settled<PlacedBids>[] = new Array(requests.length);
  const order = requests.map((_, i) => i).sort((a, b) => valueOf(requests[a]).comparedTo(valueOf(requests[b])) || a - b);
  for (const i of order) {
    try {
      const { bidder, bids } = decide(lot, standing, involved, requests[i], now, power);
      changed.add(bidder);
      const previous = standing.leader;
      for (const b of bids) {
        const p = byId.get(b.participantId) as ParticipantRow;
        p.currentBid = b.amount;
        changed.add(p);
      }
      if (bids.length) {
        standing.highest = bids[bids.length - 1].amount;
        standing.leader = bids[bids.length - 1].participantId;
      }
      const overbid = previous !== null && previous !== standing.leader ? (byId.get(previous) as ParticipantRow).accountId : null;
      placed.push({ request: i, bids, overbid });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcomes[i] = { ok: false, error };
    }
  }
  if (!placed.length) return { outcomes, notifications: [] };
  lot.highestBid = standing.highest;
  const overbids = placed.flatMap((p) => (p.overbid ? [p.overbid] : []));
  const notify = notifications.insertBatch(NotificationType.Overbid, overbidRecipients(lot, overbids), { lot_id: lot.id });
  const bids = chainRound(lot.id, logHead, ids, placed.flatMap((p) => p.bids), now, signer !== null);
  const extension = bids.length ? softClose(lot, now, notifications) : null;
  const [rows, extended] = await tx.commitWith([writeRound(lot, bids, [...changed], notify, now, signer), ...(extension ? [extension.statement] : [])]);
  const written = writtenRound(lot, rows, now);
  let next = 0;
  for (const p of placed) {
    const leaves = bids.slice(next, next + p.bids.length).flatMap(({ id, entry: { leaf } }) => (leaf ? [{ bidId: id, leafHash: leaf.hash, leafIndex: written.indexes.get(id) }] : []));
    outcomes[p.request] = { ok: true, value: { lot, bids: written.bids.slice(next, next + p.bids.length), previousLeader: p.overbid, leaves, at: now } };
    next += p.bids.length;
  }
  if (!extension) return { outcomes, notifications: notifications.publishedBatch(written.notifications) };
  return { outcomes, notifications: [...notifications.publishedBatch(written.notifications), ...extension.published(extended)], extended: extension.lot };
}

function tooLow(field: 'amount' | 'maxAmount', standing: Standing) {
  const minimum = minimumNext(standing).toFixed(2);
  return invalidWith('bid_too_low', `${field} must be at least ${minimum}`, { field }, { minimumAmount: minimum });
}

/**
 * The bids one request places against the standing (its own, then the max bids' answers), or
 * the refusal of docs/auction-rules.md in its order of precedence, then buying_power_exceeded when the
 * lot's rules hold bids to buying power (`power`). Changes nothing but the caller's max.
 */
function decide(lot: LotRow, standing: Standing, involved: ParticipantRow[], r: BidRequest, now: Date, power: RoundPower | null): { bidder: ParticipantRow; bids: PlannedBid[] } {
  const participant = involved.find((p) => p.accountId === r.caller.accountId);
  if (!participant) throw forbidden('not_participant', 'the caller does not participate in this lot');
  requireActive(r.caller);
  if (participant.state === ParticipantState.Rejected) throw forbidden('participant_rejected', 'the participant was rejected');
  if (participant.state === ParticipantState.DepositPending) throw forbidden('deposit_not_paid', 'the deposit is not paid');
  if (!takesBids(lot, now) || participant.state !== ParticipantState.Pending) throw invalid('lot_not_active', 'the lot takes no bids now');

  // An amount is held to the bid rules also beside a max_amount, and before max_bid_exists.
  if (r.amount !== undefined) {
    const refusal = refusalOf(standing, r.amount);
    if (refusal === 'bid_too_low') throw tooLow('amount', standing);
    if (refusal) {
      const { maxStep } = stepsOf(standing, standing.highest as Money);
      throw invalidWith(refusal, `amount may exceed the highest bid by at most ${maxStep.toFixed(2)}`, { field: 'amount' }, { maximumAmount: (standing.highest as Money).plus(maxStep).toFixed(2) });
    }
  }
  if (power) requireBuyingPower(power, participant.accountId, r.amount, 'amount');
  const planned: PlannedBid[] = [];
  if (r.maxAmount !== undefined) {
    if (r.maxAmount.lt(minimumNext(standing))) {
      throw tooLow('maxAmount', standing);
    }
    const maxActive = participant.maxBid !== null && (standing.leader === participant.id || (standing.highest !== null && participant.maxBid.gt(standing.highest)));
    if (maxActive) throw conflict('max_bid_exists', 'the caller already has an active max bid on this lot');
    if (power) requireBuyingPower(power, participant.accountId, r.maxAmount, 'maxAmount');
    participant.maxBid = r.maxAmount;
    participant.maxBidAt = r.at;
    participant.maxBidDigest = r.caller.requestDigest ?? null;
  } else {
    planned.push({ participantId: participant.id, accountId: participant.accountId, amount: r.amount as Money, byProxy: false, digest: r.caller.requestDigest ?? null });
  }
  const after: Standing = planned.length ? { ...standing, highest: planned[0].amount, leader: participant.id } : standing;
  const proxies = involved.filter((p) => p.state === ParticipantState.Pending && p.maxBid !== null);
  const answers = resolveProxies(
    after,
    proxies.map((p) => ({ participantId: p.id, accountId: p.accountId, max: cappedMax(p, power), since: p.maxBidAt ?? p.updatedAt, digest: p.maxBidDigest })),
  );
  // The bid a max-bid request places for its caller at once is the caller's own; only the raises
  // that answer other bids are placed by proxy.
  const ownMax = r.maxAmount !== undefined;
  planned.push(...answers.map((b) => (ownMax && b.participantId === participant.id ? { ...b, byProxy: false } : b)));
  return { bidder: participant, bids: planned };
}

/** A max bid raises at most to what its buying power leaves for this lot: a raise beyond it stops there (docs/auction-rules.md). */
const cappedMax = (p: ParticipantRow, power: RoundPower | null): Money => {
  const max = p.maxBid as Money;
  return power ? Money.min(max, power.headroom(p.accountId)) : max;
};
