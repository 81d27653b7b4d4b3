import { Ctx, Extensions, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { AccountGql, shownAccount } from '../accounts';
import { type LotView, LotGql } from '../lots';
import { DialogGql, MessageGql } from './messages.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

/** Related lots show their prices in their own currency, which needs no rate. */
async function lotOf({ loaders }: GraphQLContext, id: string): Promise<LotGql> {
  return (await loaders.lot.load(id)) as LotView;
}

@Resolver(() => MessageGql)
export class MessageFieldsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql)
  lot(@Root() m: Source<MessageGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, m.lotId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql)
  sender(@Root() m: Source<MessageGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, m.senderId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql)
  receiver(@Root() m: Source<MessageGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, m.receiverId);
  }
}

@Resolver(() => DialogGql)
export class DialogFieldsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql)
  lot(@Root() d: Source<DialogGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, d.lotId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql)
  account(@Root() d: Source<DialogGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, d.accountId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { description: 'The companion' })
  companion(@Root() d: Source<DialogGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, d.withId);
  }
}

/** The lots' `messages` include as a field of Lot. */
@Resolver(() => LotGql)
export class LotMessagesResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => Int, { nullable: true, description: "The caller's unread messages about the lot; null for anonymous callers" })
  async unreadMessages(@Root() lot: Source<LotGql>, @Ctx() { ctx, loaders }: GraphQLContext): Promise<number | null> {
    return ctx.caller ? loaders.unreadMessages.load(lot.id) : null;
  }
}
