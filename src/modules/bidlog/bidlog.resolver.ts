import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { LotGql } from '../lots';
import { BidLogEntryConnectionGql } from './bidlog.connection.types';
import { BidLogEntryGql, BidLogGql } from './bidlog.types';
import { readsThroughLoader, runsNoStatement } from '../../graphql/statement-cost';

@Resolver(() => LotGql)
export class BidLogResolver {
  /** The logs of a page of lots are read at once, through the request's loader. */
  @Extensions(readsThroughLoader())
  @FieldResolver(() => BidLogGql, { description: "GET /lots/{id}/bid_log: the lot's verifiable bid log" })
  async bidLog(@Root() lot: Source<LotGql>, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<BidLogGql> {
    return services.bidLog.seen(ctx, lot, await loaders.bidLogs.load(lot.id));
  }
}

@Resolver(() => BidLogGql)
export class BidLogEntriesResolver {
  /**
   * A lot's log grows with every bid: GraphQL answers its tail, which the signed head verifies
   * (each entry names the hash before it); GET /lots/{id}/bid_log answers the whole chain.
   */
  @Extensions(runsNoStatement())
  @FieldResolver(() => [BidLogEntryGql])
  entries(@Root() log: Source<BidLogGql>, @Arg('last', () => Int, { defaultValue: MAX_PAGE_SIZE }) last: number): BidLogEntryGql[] {
    return log.entries.slice(-listBound(last, 'last'));
  }

  /** In the chain's order, as a verifier walks it: `last` pages back from the newest entry. */
  @Extensions(runsNoStatement())
  @FieldResolver(() => BidLogEntryConnectionGql, { description: 'The entries of the chain, oldest first (by `seq`); `last: n` answers its newest n' })
  entriesConnection(@Root() log: Source<BidLogGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Info() info: GraphQLResolveInfo): ConnectionSource<BidLogEntryGql> {
    const window = pageWindow(page, `BidLog:${log.lotId}.entries`, info);
    return connectionOfList(window, log.entries, (entry) => String(entry.seq));
  }
}
