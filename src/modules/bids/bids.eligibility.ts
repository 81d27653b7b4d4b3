import type { Caller } from '../../core/context';
import { LotType, takesBids } from '../lots';
import { ParticipantState } from '../trading';

type BiddableLot = { lotType: LotType; lotState: Parameters<typeof takesBids>[0]['lotState']; winnerId: string | null; startTime: Date; endTime: Date };

/**
 * Whether the caller may bid on the lot now, the amount aside: the checks `decide` (bids.round.ts)
 * makes before it looks at an amount, in one answer (an active caller, a participant whose deposit
 * is settled, an auction that takes bids). Change them together.
 */
export function mayBid(caller: Caller | null, lot: BiddableLot, participant: { state: ParticipantState } | null, now: Date): boolean {
  if (!caller || caller.blacklist === 'paused' || lot.lotType !== LotType.Eng) return false;
  return participant?.state === ParticipantState.Pending && takesBids(lot, now);
}
