import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** Notification type codes, as clients read them. */
export enum NotificationType {
  RegisteredFinishingIn3h = 1,
  WatchlistDirectSaleFinishingIn3h = 2,
  WatchlistAuctionFinishingIn3h = 3,
  DepositPending = 4,
  DepositReceived = 5,
  Overbid = 6,
  Winner = 7,
  InvoiceAttached = 8,
  InspectionReportForRegisteredAuction = 9,
  InspectionReportForWatchlistDirectSale = 10,
  InspectionReportForWatchlistAuction = 11,
  HistoryReportForRegistered = 12,
  HistoryReportForWatchlistDirectSale = 13,
  HistoryReportForWatchlistAuction = 14,
  DirectSaleApproved = 15,
  DirectSaleRejected = 16,
  MessageFromBuyer = 17,
  MessageFromSeller = 18,
  CallbackRequested = 19,
  NewActiveTrade = 20,
  NewUpload = 21,
  LookLiveRequest = 22,
  HistoryPurchase = 23,
  ReminderUnpaidDeposit3h = 24,
  ReminderUnpaidInvoice = 25,
  AuctionFinished = 26,
  FinancingPending = 27,
  FinancingApproved = 28,
  FinancingRejected = 29,
  /** Not in the contract: soft close moved the end of a lot the recipient takes part in (docs/auction-rules.md). */
  LotExtended = 30,
  /** Not in the contract: a new lot matched one of the recipient's saved searches, or a lot's price fell under its price max (docs/saved-searches.md). */
  SavedSearchMatched = 31,
  /** Not in the contract: a lot ended with its reserve price not met; to its organizer and its highest bidder (docs/auction-rules.md). */
  ReserveNotMet = 32,
  /** Not in the contract: a lot whose reserve was not met finished because nobody chose a winner in time (docs/auction-rules.md). */
  LotLapsed = 33,
  /** Not in the contract: the recipient is offered a lot whose winner's deal was canceled or whose reserve lapsed (docs/auction-rules.md). */
  SecondChanceOffered = 34,
  /** Not in the contract: the bidder offered a second chance accepted or declined it, or it expired; meta `state` says which. */
  SecondChanceAnswered = 35,
}

export interface NotificationTypeInfo {
  /** `type_str` of the resource. */
  name: string;
  /** The meta keys the contract documents for the type (all values are strings). */
  meta: readonly string[];
  /** Reported by services outside the interface through POST /notifications/events. */
  reported: boolean;
}

const t = (name: string, meta: readonly string[], reported = false): NotificationTypeInfo => ({ name, meta, reported });

/** The one table of notification types: code → type_str, documented meta, how it is emitted. */
export const NOTIFICATION_TYPES: Readonly<Record<NotificationType, NotificationTypeInfo>> = {
  [NotificationType.RegisteredFinishingIn3h]: t('registered_finishing_in_3h', []),
  [NotificationType.WatchlistDirectSaleFinishingIn3h]: t('watchlist_direct_sale_finishing_in_3h', []),
  [NotificationType.WatchlistAuctionFinishingIn3h]: t('watchlist_auction_finishing_in_3h', []),
  [NotificationType.DepositPending]: t('deposit_pending', []),
  [NotificationType.DepositReceived]: t('deposit_received', ['lot_id']),
  [NotificationType.Overbid]: t('overbid', ['lot_id']),
  [NotificationType.Winner]: t('winner', ['lot_id']),
  [NotificationType.InvoiceAttached]: t('invoice_attached', ['lot_id', 'invoice_id']),
  [NotificationType.InspectionReportForRegisteredAuction]: t('inspection_report_for_registered_auction', ['request_id'], true),
  [NotificationType.InspectionReportForWatchlistDirectSale]: t('inspection_report_for_watchlist_direct_sale', ['request_id'], true),
  [NotificationType.InspectionReportForWatchlistAuction]: t('inspection_report_for_watchlist_auction', ['request_id'], true),
  [NotificationType.HistoryReportForRegistered]: t('history_report_for_registered', ['request_id'], true),
  [NotificationType.HistoryReportForWatchlistDirectSale]: t('history_report_for_watchlist_direct_sale', ['request_id'], true),
  [NotificationType.HistoryReportForWatchlistAuction]: t('history_report_for_watchlist_auction', ['request_id'], true),
  [NotificationType.DirectSaleApproved]: t('direct_sale_approved', ['lot_id']),
  [NotificationType.DirectSaleRejected]: t('direct_sale_rejected', ['request_id']),
  [NotificationType.MessageFromBuyer]: t('message_from_buyer', ['lot_id', 'sender_id', 'receiver_id']),
  [NotificationType.MessageFromSeller]: t('message_from_seller', ['lot_id', 'sender_id', 'receiver_id']),
  [NotificationType.CallbackRequested]: t('callback_requested', ['lot_id', 'account_id']),
  [NotificationType.NewActiveTrade]: t('new_active_trade', ['lot_id', 'account_id']),
  [NotificationType.NewUpload]: t('new_upload', ['request_id']),
  [NotificationType.LookLiveRequest]: t('look_live_request', ['request_id', 'lot_id'], true),
  [NotificationType.HistoryPurchase]: t('history_purchase', ['request_id', 'lot_id'], true),
  [NotificationType.ReminderUnpaidDeposit3h]: t('reminder_unpaid_deposit_3h', ['lot_id', 'account_id']),
  [NotificationType.ReminderUnpaidInvoice]: t('reminder_unpaid_invoice', ['lot_id']),
  [NotificationType.AuctionFinished]: t('auction_finished', ['lot_id']),
  [NotificationType.FinancingPending]: t('financing_pending', ['lot_id'], true),
  [NotificationType.FinancingApproved]: t('financing_approved', ['lot_id'], true),
  [NotificationType.FinancingRejected]: t('financing_rejected', ['lot_id'], true),
  [NotificationType.LotExtended]: t('lot_extended', ['lot_id', 'end_time']),
  [NotificationType.SavedSearchMatched]: t('saved_search_matched', ['lot_id', 'search_id', 'reason']),
  [NotificationType.ReserveNotMet]: t('reserve_not_met', ['lot_id']),
  [NotificationType.LotLapsed]: t('lot_lapsed', ['lot_id']),
  [NotificationType.SecondChanceOffered]: t('second_chance_offered', ['lot_id', 'offer_id', 'amount', 'currency', 'expires_at']),
  [NotificationType.SecondChanceAnswered]: t('second_chance_answered', ['lot_id', 'offer_id', 'account_id', 'state']),
};

export const NOTIFICATION_TYPE_CODES = Object.keys(NOTIFICATION_TYPES).map(Number) as NotificationType[];

/** The types POST /notifications/events accepts: 9–14, 22, 23, 27–29. */
export const REPORTED_TYPES: readonly NotificationType[] = NOTIFICATION_TYPE_CODES.filter((c) => NOTIFICATION_TYPES[c].reported);

export const typeStrOf = (type: NotificationType): string => NOTIFICATION_TYPES[type].name;

/** A notification to one account; unread while `readAt` is null. */
@Entity({ tableName: 'notifications' })
export class Notification {
  [OptionalProps]?: 'meta' | 'readAt' | 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string', length: 56 })
  recipient!: string;

  @Property({ type: 'smallint' })
  type!: NotificationType;

  /** Every value a string. */
  @Property({ type: 'json' })
  meta: Record<string, string> = {};

  @Property({ type: 'datetime', nullable: true })
  readAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
