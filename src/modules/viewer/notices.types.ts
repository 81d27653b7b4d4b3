import { Field, ID, InterfaceType, ObjectType } from 'type-graphql';
import { MoneyGql } from '../../graphql/types/money';
import { resolveTypeBySource } from '../../graphql/types/node';
import type { Notice, NoticeKind } from '../notifications';

// `Notification.payload`: what a notification says, typed per kind of notice. Each type holds the
// ids its notice names; the objects they name (the lot, an account) are read through the
// request's loaders by notices.resolver.ts, as the caller may see them.

@InterfaceType('NotificationPayload', { description: 'What a notification says, typed by its kind; `lot` is the lot it is about, if any' })
export abstract class NotificationPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The id of the lot the notification is about; null for a notification about none' }) lotId!: string | null;
}
resolveTypeBySource('NotificationPayload');

@ObjectType('LotNotice', { implements: NotificationPayloadGql, description: 'A notice about a lot and nothing more: a deposit received, a win, an auction finished, a reserve not met, …' })
export class LotNoticeGql extends NotificationPayloadGql {}

@ObjectType('OutbidNotice', { implements: NotificationPayloadGql, description: 'Another bid passed the recipient’s: the lot, the amount it stands at and its end, as they are now' })
export class OutbidNoticeGql extends NotificationPayloadGql {}

@ObjectType('LotExtendedNotice', { implements: NotificationPayloadGql, description: 'Soft close moved the end of a lot the recipient takes part in' })
export class LotExtendedNoticeGql extends NotificationPayloadGql {
  @Field(() => Date, { nullable: true, description: 'The end the lot was moved to' }) endTime!: Date | null;
}

@ObjectType('InvoiceNotice', { implements: NotificationPayloadGql, description: 'An invoice was attached to a lot the recipient won' })
export class InvoiceNoticeGql extends NotificationPayloadGql {
  @Field(() => String, { nullable: true }) invoiceId!: string | null;
}

@ObjectType('RequestNotice', { implements: NotificationPayloadGql, description: 'A notice about a request: a report, an upload, a direct sale rejected, …' })
export class RequestNoticeGql extends NotificationPayloadGql {
  @Field(() => ID, { nullable: true }) requestId!: string | null;
}

@ObjectType('MessageNotice', { implements: NotificationPayloadGql, description: 'A message about a lot between its buyer and its seller' })
export class MessageNoticeGql extends NotificationPayloadGql {
  @Field(() => String, { nullable: true }) senderId!: string | null;
  @Field(() => String, { nullable: true }) receiverId!: string | null;
}

@ObjectType('LotAccountNotice', { implements: NotificationPayloadGql, description: 'A notice to a lot’s staff about an account: a callback requested, a new active trade, an unpaid deposit' })
export class LotAccountNoticeGql extends NotificationPayloadGql {
  @Field(() => String, { nullable: true }) accountId!: string | null;
}

@ObjectType('SavedSearchMatchNotice', { implements: NotificationPayloadGql, description: 'A lot matched one of the recipient’s saved searches' })
export class SavedSearchMatchNoticeGql extends NotificationPayloadGql {
  @Field(() => ID, { nullable: true }) searchId!: string | null;
  @Field(() => String, { nullable: true, description: 'Why: a new lot, or a price that fell under the search’s maximum' }) reason!: string | null;
}

@ObjectType('SecondChanceOfferNotice', { implements: NotificationPayloadGql, description: 'The recipient is offered a lot a second time' })
export class SecondChanceOfferNoticeGql extends NotificationPayloadGql {
  @Field(() => ID, { nullable: true }) offerId!: string | null;
  @Field(() => MoneyGql, { nullable: true, description: 'The price offered' }) amount!: MoneyGql | null;
  @Field(() => Date, { nullable: true }) expiresAt!: Date | null;
}

@ObjectType('SecondChanceAnswerNotice', { implements: NotificationPayloadGql, description: 'A bidder offered a second chance accepted or declined it, or it expired' })
export class SecondChanceAnswerNoticeGql extends NotificationPayloadGql {
  @Field(() => ID, { nullable: true }) offerId!: string | null;
  @Field(() => String, { nullable: true }) accountId!: string | null;
  @Field(() => String, { nullable: true, description: 'accepted, declined or expired' }) state!: string | null;
}

const TYPE_NAME: Readonly<Record<NoticeKind, string>> = {
  lot: 'LotNotice',
  outbid: 'OutbidNotice',
  extended: 'LotExtendedNotice',
  invoice: 'InvoiceNotice',
  request: 'RequestNotice',
  message: 'MessageNotice',
  lotAccount: 'LotAccountNotice',
  searchMatch: 'SavedSearchMatchNotice',
  offerMade: 'SecondChanceOfferNotice',
  offerAnswered: 'SecondChanceAnswerNotice',
};

/** A notice as the source of its payload type (every field its types read; each type shows its own). */
export const noticeGql = (notice: Notice) => ({ ...notice, __typename: TYPE_NAME[notice.kind] });
