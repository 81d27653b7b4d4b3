import { type Lot, isClosed } from '../lots';
import { reserveLapsed } from '../lots';
import type { WinnerDetails } from '../trading';

/**
 * When a lot may be offered a second time, checked when an offer is made and
 * again when it is accepted: the lot is still open and its winner's deal was canceled, or its
 * reserve lapsed with nobody chosen (finished, yet the organizer may still sell it to a bidder).
 * The one place that says so.
 */
export function secondChanceAllowed(lot: Lot, details: WinnerDetails | null): boolean {
  if (reserveLapsed(lot) && lot.winnerId === null) return true;
  return !isClosed(lot) && details?.dealCanceled === true;
}
