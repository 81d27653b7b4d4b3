import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import { integerId } from '../../core/ids';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { money, MoneyGql } from '../../graphql/types/money';
import { AccountGql, shownAccount } from '../accounts';
import { BidConnectionGql, BidGql, bidGql } from '../bids';
import { LotConnectionGql, LotGql } from '../lots';
import { NotificationGql } from '../notifications';
import { DepositGql, ParticipantGql, ParticipationGql, participationGql } from '../trading';
import { WatchlistEntryGql } from '../watchlist';
import { readsThroughLoader } from '../../graphql/statement-cost';

// The relations between the types of several areas, resolved here, above them all: each reads
// through the request's loaders (one statement per relation for a whole page) and shows what the
// owning area's view shows the caller: lots as the lots view makes them, accounts as the accounts
// view redacts them, bidders only where `Bid.bidderId` names them.

/** Rows a relation to many answers when `last` is not given: the most it answers at all. */
const ROWS_SHOWN = 100;

/** An amount of a lot's row (a bid, a participant's bid) as Money in the lot's own currency, read through the page's lot loader. */
async function inLotCurrency(context: GraphQLContext, lotId: string, amount: string | null): Promise<MoneyGql | null> {
  return amount === null ? null : money(amount, (await lotOf(context, lotId)).currency);
}

/** A lot named by id beside another row; every lot is public, so a row the caller sees names a lot it may see. */
async function lotOf({ loaders }: GraphQLContext, lotId: string): Promise<LotGql> {
  return (await loaders.lot.load(lotId)) as LotGql;
}

@Resolver(() => ParticipantGql)
export class ParticipantRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { description: 'The lot, prices in its own currency' })
  lot(@Root() p: Source<ParticipantGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, p.lotId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { description: 'The participating account: the full record for itself and staff of its platform, else the public view' })
  account(@Root() p: Source<ParticipantGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, p.accountId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { nullable: true, description: "The current bid in the lot's currency; null before its first bid" })
  currentBidMoney(@Root() p: Source<ParticipantGql>, @Ctx() context: GraphQLContext): Promise<MoneyGql | null> {
    return inLotCurrency(context, p.lotId, p.currentBid);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { nullable: true, description: "The most its proxy bids up to, in the lot's currency; null without a proxy" })
  maxBidMoney(@Root() p: Source<ParticipantGql>, @Ctx() context: GraphQLContext): Promise<MoneyGql | null> {
    return inLotCurrency(context, p.lotId, p.maxBid);
  }
}
@Resolver(() => ParticipationGql)
export class ParticipationRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { description: 'The lot, prices in its own currency' })
  lot(@Root() p: Source<ParticipationGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, p.lotId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { description: 'The participating account' })
  account(@Root() p: Source<ParticipationGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, p.accountId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { nullable: true, description: "The current bid in the lot's currency; null before its first bid" })
  currentBidMoney(@Root() p: Source<ParticipationGql>, @Ctx() context: GraphQLContext): Promise<MoneyGql | null> {
    return inLotCurrency(context, p.lotId, p.currentBid);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { nullable: true, description: "The most its proxy bids up to, in the lot's currency; null without a proxy" })
  maxBidMoney(@Root() p: Source<ParticipationGql>, @Ctx() context: GraphQLContext): Promise<MoneyGql | null> {
    return inLotCurrency(context, p.lotId, p.maxBid);
  }
}
@Resolver(() => DepositGql)
export class DepositRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { description: 'The lot the deposit is for, prices in its own currency' })
  lot(@Root() d: Source<DepositGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, d.lotId);
  }
}

@Resolver(() => WatchlistEntryGql)
export class WatchlistEntryRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { description: 'The lot, prices in its own currency' })
  lot(@Root() entry: Source<WatchlistEntryGql>, @Ctx() context: GraphQLContext): Promise<LotGql> {
    return lotOf(context, entry.lotId);
  }
}

@Resolver(() => NotificationGql)
export class NotificationRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot the notification is about (its `lot_id`), prices in its own currency; null for a notification about none' })
  async lot(@Root() n: Source<NotificationGql>, @Ctx() { loaders }: GraphQLContext): Promise<LotGql | null> {
    const id = integerId(n.meta.lot_id);
    return id === null ? null : loaders.lot.load(id);
  }
}

@Resolver(() => BidGql)
export class BidRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { nullable: true, description: 'The bidder, where `bidderId` names it: null to anyone else' })
  async bidder(@Root() bid: Source<BidGql>, @Ctx() context: GraphQLContext): Promise<AccountGql | null> {
    return bid.bidderId === null ? null : shownAccount(context, bid.bidderId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { description: "The amount in the lot's currency" })
  async amountMoney(@Root() bid: Source<BidGql>, @Ctx() context: GraphQLContext): Promise<MoneyGql> {
    return (await inLotCurrency(context, bid.lotId, bid.amount)) as MoneyGql;
  }
}

@Resolver(() => AccountGql)
export class AccountRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => [LotGql], {
    description: 'The newest `last` lots the account organized (by default and at most 100), newest first, prices in their own currencies',
    deprecationReason: 'Use `lotsConnection`',
  })
  lots(@Root() account: Source<AccountGql>, @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number, @Ctx() { loaders }: GraphQLContext): Promise<LotGql[]> {
    return loaders.accountLots(last).load(account.id);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => [BidGql], {
    description: "The newest `last` bids of the account (by default and at most 100), newest first, that the caller may see as the account's: the account's own, and those on lots the caller manages",
    deprecationReason: 'Use `bidsConnection`',
  })
  async bids(@Root() account: Source<AccountGql>, @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number, @Ctx() { loaders }: GraphQLContext): Promise<BidGql[]> {
    return (await loaders.accountBids(last).load(account.id)).map((bid) => bidGql({ bid, bidderShown: true }));
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotConnectionGql, { description: 'The lots the account organized, newest first, prices in their own currencies, the reserve shown to their managers alone' })
  async lotsConnection(@Root() account: Source<AccountGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<LotGql>> {
    const window = pageWindow(page, `Account:${account.id}.lots`, info);
    return connectionOfWindow(window, await loaders.accountLotsWindow(window).load(account.id), (lots) => lots);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => BidConnectionGql, {
    description: "The account's bids, newest first, that the caller may see as the account's: the account's own, and those on lots the caller manages",
  })
  async bidsConnection(@Root() account: Source<AccountGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<BidGql>> {
    const window = pageWindow(page, `Account:${account.id}.bids`, info);
    return connectionOfWindow(window, await loaders.accountBidsWindow(window).load(account.id), (bids) => bids.map((bid) => bidGql({ bid, bidderShown: true })));
  }
}

@Resolver(() => LotGql)
export class LotViewerResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => ParticipationGql, { nullable: true, description: "The viewer's participation in the lot; null when it takes no part (or is not signed in)" })
  async viewerParticipation(@Root() lot: Source<LotGql>, @Ctx() { loaders }: GraphQLContext): Promise<ParticipationGql | null> {
    const standing = await loaders.viewerStanding.load(lot.id);
    return standing && participationGql(standing);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => Boolean, { description: 'Whether the viewer may bid on the lot now: a participant whose deposit is settled, on an auction that takes bids' })
  async viewerCanBid(@Root() lot: Source<LotGql>, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<boolean> {
    return services.bids.canBid(ctx, lot, await loaders.viewerStanding.load(lot.id));
  }
}
