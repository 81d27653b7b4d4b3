import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { formatMoney } from '../../core/money';
import { encodeReceipt } from '../bidlog';
import type { GraphQLContext } from '../../graphql/context';
import { shownHighestBid } from '../lots';
import { reserveMet } from '../rules';
import { bidGql } from './bids.mappers';
import { PlaceBidResultGql } from './bids.types';

@Resolver()
export class BidsResolver {
  @Mutation(() => PlaceBidResultGql, { description: 'A bid, or with maxAmount a max bid that raises itself' })
  async placeBid(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('amount', () => String, { nullable: true }) amount: string | undefined,
    @Arg('maxAmount', () => String, { nullable: true }) maxAmount: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<PlaceBidResultGql> {
    const placed = await services.bids.place(ctx, { lotId, amount: amount ?? undefined, maxAmount: maxAmount ?? undefined });
    return {
      highestBid: formatMoney(shownHighestBid(placed.lot)),
      endTime: placed.lot.endTime,
      reserveMet: reserveMet(placed.lot),
      bids: placed.bids.map(bidGql),
      receipt: {
        origin: placed.receipt.origin,
        logId: placed.receipt.log_id,
        timestamp: placed.receipt.timestamp,
        entries: placed.receipt.entries.map((e) => ({ leafIndex: e.leaf_index, leafHash: e.leaf_hash })),
        signer: placed.receipt.signer,
        signature: placed.receipt.signature,
        encoded: encodeReceipt(placed.receipt),
      },
    };
  }
}
