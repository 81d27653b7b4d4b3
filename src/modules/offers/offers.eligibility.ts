import type { Lot } from '../lots/lots.entity';
import { isClosed } from '../lots/lots.open';
import type { WinnerDetails } from '../trading/trading.entity';

/**
 * When a lot may be offered a second time (issue 16, item 5), checked when an offer is made and
 * again when it is accepted: the lot is still open and its winner's deal was canceled. The one
 * place that says so; a lapsed reserve joins here as a second reason.
 */
export function secondChanceAllowed(lot: Lot, details: WinnerDetails | null): boolean {
  return !isClosed(lot) && details?.dealCanceled === true;
}
