import { Ctx, Extensions, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { maybeMoney, MoneyGql } from '../../graphql/types/money';
import { AccountGql, shownAccount } from '../accounts';
import { LotGql, type LotView } from '../lots';
import { noticeOf, NotificationGql } from '../notifications';
import { LotAccountNoticeGql, MessageNoticeGql, noticeGql, NotificationPayloadGql, OutbidNoticeGql } from './notices.types';
import { readsThroughLoader, runsNoStatement } from '../../graphql/statement-cost';

// The objects a notice names, each read through the request's loaders (one statement for a page of
// notifications) and shown as the owning area shows them to the caller.

type NoticeSource = { lotId: string | null; accountId: string | null };

const lotOf = async ({ loaders }: GraphQLContext, { lotId }: NoticeSource): Promise<LotView | null> => (lotId === null ? null : ((await loaders.lot.load(lotId)) as LotView | null));

@Resolver(() => NotificationGql)
export class NotificationPayloadResolver {
  @Extensions(runsNoStatement())
  @FieldResolver(() => NotificationPayloadGql, { description: 'What the notification says, typed by its kind (its `meta`, read once)' })
  payload(@Root() n: Source<NotificationGql>): NotificationPayloadGql {
    return noticeGql(noticeOf(n.type, n.meta));
  }
}

@Resolver(() => NotificationPayloadGql)
export class NoticeLotResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot the notification is about, prices in its own currency; null for a notification about none' })
  async lot(@Root() notice: NoticeSource, @Ctx() context: GraphQLContext): Promise<LotGql | null> {
    return (await lotOf(context, notice)) as LotGql | null;
  }
}

@Resolver(() => OutbidNoticeGql)
export class OutbidNoticeResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { nullable: true, description: "The lot's highest bid now, in its own currency: the amount to beat" })
  async amount(@Root() notice: NoticeSource, @Ctx() context: GraphQLContext): Promise<MoneyGql | null> {
    const lot = await lotOf(context, notice);
    return lot && maybeMoney(lot.amounts.highestBid, lot.amounts.currency);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => Date, { nullable: true, description: "The lot's end now, soft close's moves included" })
  async endTime(@Root() notice: NoticeSource, @Ctx() context: GraphQLContext): Promise<Date | null> {
    return (await lotOf(context, notice))?.endTime ?? null;
  }
}

@Resolver(() => LotAccountNoticeGql)
export class LotAccountNoticeResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { nullable: true, description: 'The account the notice is about: the full record to staff of its platform, else the public view' })
  account(@Root() notice: NoticeSource, @Ctx() context: GraphQLContext): Promise<AccountGql> | null {
    return notice.accountId === null ? null : shownAccount(context, notice.accountId);
  }
}

@Resolver(() => MessageNoticeGql)
export class MessageNoticeResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { nullable: true, description: 'The account that sent the message: the full record to staff of its platform, else the public view' })
  sender(@Root() notice: MessageNoticeGql, @Ctx() context: GraphQLContext): Promise<AccountGql> | null {
    return notice.senderId === null ? null : shownAccount(context, notice.senderId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { nullable: true, description: 'The account the message is for, shown as `sender` is' })
  receiver(@Root() notice: MessageNoticeGql, @Ctx() context: GraphQLContext): Promise<AccountGql> | null {
    return notice.receiverId === null ? null : shownAccount(context, notice.receiverId);
  }
}
