import { LotState } from './lots.entity';

type Timed = { lotState: LotState; winnerId: string | null; startTime: Date; endTime: Date };

/** A closed lot (sold or finished) takes no participation, bid, winner choice or buy now. */
export const isClosed = (lot: Pick<Timed, 'lotState'>): boolean => lot.lotState !== LotState.Pending;

export const hasEnded = (lot: Pick<Timed, 'endTime'>, now: Date): boolean => lot.endTime.getTime() <= now.getTime();

/** A lot takes bids while it is open, has no winner, has started and has not ended. */
export const takesBids = (lot: Timed, now: Date): boolean => !isClosed(lot) && lot.winnerId === null && lot.startTime <= now && !hasEnded(lot, now);
