import type { Money } from '../../core/money';
import { stepsAbove, type Steps, type IncrementBand } from '../rules';

/** What the bidding rules look at: the lot's prices and its standing bid. */
export interface Standing {
  startPrice: Money;
  minStep: Money;
  maxStep: Money;
  /** The increment table of the lot's platform rules, which replaces minStep (and maxStep where banded); null without one. */
  increments?: IncrementBand[] | null;
  /** The highest accepted bid, null before the first. */
  highest: Money | null;
  /** The participant holding it. */
  leader: string | null;
  /** The lot's hidden reserve price, which a max bid that reaches it bids at least; null or absent: none. */
  reserve?: Money | null;
}

export interface Proxy {
  participantId: string;
  accountId: string;
  max: Money;
  since: Date;
  /** The request that set the max bid: its raises cite it. */
  digest: string | null;
}

export interface PlannedBid {
  participantId: string;
  accountId: string;
  amount: Money;
  byProxy: boolean;
  /** The signed request that caused the bid (the max bid's, for a raise). */
  digest: string | null;
}

/** The steps allowed above a price of this lot. */
export const stepsOf = (s: Standing, price: Money): Steps => stepsAbove(s.increments ?? null, s, price);

/** The least amount that may be bid next: the start price, then the highest bid plus the minimal step. */
export function minimumNext(s: Standing): Money {
  return s.highest === null ? s.startPrice : s.highest.plus(stepsOf(s, s.highest).minStep);
}

/** Why a participant's own bid is refused, or null when it is acceptable. */
export function refusalOf(s: Standing, amount: Money): 'bid_too_low' | 'bid_step_invalid' | null {
  if (amount.lt(minimumNext(s))) return 'bid_too_low';
  if (s.highest !== null && amount.minus(s.highest).gt(stepsOf(s, s.highest).maxStep)) return 'bid_step_invalid';
  return null;
}

/**
 * The bids the max bids place after the standing changed. The proxy with the highest max (the
 * earlier one on a tie) ends up leading, at the least amount that beats every other max (the
 * runner-up's max plus the minimal step, capped at its own max) or, with no rival max, at the
 * least amount that leads. The runner-up's last attempt, its max, is recorded before it when it
 * lies between the standing bid and the winner's. A winner whose max reaches the lot's reserve,
 * not met yet, bids at least the reserve (as eBay Motors does): a bidder willing to pay it never
 * leaves the lot to lapse under it. A leading max bid alone raises itself to the reserve too.
 * Automatic raises are exempt from max_step: they are the least amounts that lead (or meet the
 * reserve), never jumps a participant chose. Amounts stay strictly increasing and no proxy bids
 * above its max.
 */
export function resolveProxies(s: Standing, proxies: Proxy[]): PlannedBid[] {
  const canLead = (p: Proxy) => (s.highest === null ? p.max.gte(s.startPrice) : p.max.gt(s.highest));
  const reserve = s.reserve && (s.highest === null || s.highest.lt(s.reserve)) ? s.reserve : null;
  const reaches = (p: Proxy) => reserve !== null && p.max.gte(reserve);
  const live = proxies.filter((p) => p.participantId === s.leader || canLead(p));
  if (!live.some((p) => p.participantId !== s.leader)) {
    const leader = live.find((p) => p.participantId === s.leader);
    return leader && reaches(leader) ? [{ participantId: leader.participantId, accountId: leader.accountId, amount: reserve as Money, byProxy: true, digest: leader.digest }] : [];
  }
  const ranked = [...live].sort((a, b) => b.max.comparedTo(a.max) || a.since.getTime() - b.since.getTime());
  const [winner, runnerUp] = ranked;
  const floor = minimumNext(s);
  const least = runnerUp ? maxOf(floor, runnerUp.max.plus(stepsOf(s, runnerUp.max).minStep)) : floor;
  const target = reaches(winner) ? maxOf(least, reserve as Money) : least;
  const amount = minOf(target, winner.max);
  if (winner.participantId === s.leader && (s.highest === null || amount.lte(s.highest))) return [];
  const planned: PlannedBid[] = [];
  if (runnerUp && canLead(runnerUp) && runnerUp.max.lt(amount)) {
    planned.push({ participantId: runnerUp.participantId, accountId: runnerUp.accountId, amount: runnerUp.max, byProxy: true, digest: runnerUp.digest });
  }
  planned.push({ participantId: winner.participantId, accountId: winner.accountId, amount, byProxy: true, digest: winner.digest });
  return planned;
}

const maxOf = (a: Money, b: Money) => (a.gte(b) ? a : b);
const minOf = (a: Money, b: Money) => (a.lte(b) ? a : b);
