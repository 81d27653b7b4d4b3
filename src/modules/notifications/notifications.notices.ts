import { ACCOUNT_ID, integerId } from '../../core/ids';
import { CURRENCIES, formatMoney, parseMoney } from '../../core/money';
import { NotificationType } from './notifications.entity';

// What a notification says, typed: its meta is strings (and, for the types platforms report, what
// they sent), so each value is read here once and anything malformed is answered null, never thrown.

/** The kinds of notice, each a shape of meta that several types share. */
export type NoticeKind = 'lot' | 'outbid' | 'extended' | 'invoice' | 'request' | 'message' | 'lotAccount' | 'searchMatch' | 'offerMade' | 'offerAnswered';

const KIND_OF: Readonly<Record<NotificationType, NoticeKind>> = {
  [NotificationType.RegisteredFinishingIn3h]: 'lot',
  [NotificationType.WatchlistDirectSaleFinishingIn3h]: 'lot',
  [NotificationType.WatchlistAuctionFinishingIn3h]: 'lot',
  [NotificationType.DepositPending]: 'lot',
  [NotificationType.DepositReceived]: 'lot',
  [NotificationType.Overbid]: 'outbid',
  [NotificationType.Winner]: 'lot',
  [NotificationType.InvoiceAttached]: 'invoice',
  [NotificationType.InspectionReportForRegisteredAuction]: 'request',
  [NotificationType.InspectionReportForWatchlistDirectSale]: 'request',
  [NotificationType.InspectionReportForWatchlistAuction]: 'request',
  [NotificationType.HistoryReportForRegistered]: 'request',
  [NotificationType.HistoryReportForWatchlistDirectSale]: 'request',
  [NotificationType.HistoryReportForWatchlistAuction]: 'request',
  [NotificationType.DirectSaleApproved]: 'lot',
  [NotificationType.DirectSaleRejected]: 'request',
  [NotificationType.MessageFromBuyer]: 'message',
  [NotificationType.MessageFromSeller]: 'message',
  [NotificationType.CallbackRequested]: 'lotAccount',
  [NotificationType.NewActiveTrade]: 'lotAccount',
  [NotificationType.NewUpload]: 'request',
  [NotificationType.LookLiveRequest]: 'request',
  [NotificationType.HistoryPurchase]: 'request',
  [NotificationType.ReminderUnpaidDeposit3h]: 'lotAccount',
  [NotificationType.ReminderUnpaidInvoice]: 'lot',
  [NotificationType.AuctionFinished]: 'lot',
  [NotificationType.FinancingPending]: 'lot',
  [NotificationType.FinancingApproved]: 'lot',
  [NotificationType.FinancingRejected]: 'lot',
  [NotificationType.LotExtended]: 'extended',
  [NotificationType.SavedSearchMatched]: 'searchMatch',
  [NotificationType.ReserveNotMet]: 'lot',
  [NotificationType.LotLapsed]: 'lot',
  [NotificationType.SecondChanceOffered]: 'offerMade',
  [NotificationType.SecondChanceAnswered]: 'offerAnswered',
};

/** A notification's meta, typed: the values its kind carries, each null when absent or malformed. */
export interface Notice {
  kind: NoticeKind;
  lotId: string | null;
  requestId: string | null;
  invoiceId: string | null;
  accountId: string | null;
  senderId: string | null;
  receiverId: string | null;
  searchId: string | null;
  reason: string | null;
  offerId: string | null;
  state: string | null;
  endTime: Date | null;
  expiresAt: Date | null;
  /** An amount with its currency (a second-chance offer's price). */
  amount: { amount: string; currency: string } | null;
}

const accountIdOf = (value: unknown): string | null => (typeof value === 'string' && ACCOUNT_ID.test(value) ? value : null);
const textOf = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

function dateOf(value: unknown): Date | null {
  const date = typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

function amountOf(amount: unknown, currency: unknown): Notice['amount'] {
  const value = parseMoney(amount);
  const known = (CURRENCIES as readonly unknown[]).includes(currency);
  return value && known ? { amount: formatMoney(value), currency: currency as string } : null;
}

/** The typed notice of a notification of `type` with `meta`. */
export function noticeOf(type: NotificationType, meta: Readonly<Record<string, unknown>>): Notice {
  return {
    kind: KIND_OF[type] ?? 'lot',
    lotId: integerId(meta.lot_id),
    requestId: integerId(meta.request_id),
    invoiceId: textOf(meta.invoice_id),
    accountId: accountIdOf(meta.account_id),
    senderId: accountIdOf(meta.sender_id),
    receiverId: accountIdOf(meta.receiver_id),
    searchId: integerId(meta.search_id),
    reason: textOf(meta.reason),
    offerId: integerId(meta.offer_id),
    state: textOf(meta.state),
    endTime: dateOf(meta.end_time),
    expiresAt: dateOf(meta.expires_at),
    amount: amountOf(meta.amount, meta.currency),
  };
}
