import { Arg, Ctx, Extensions, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { formatMoney } from '../../core/money';
import { encodeReceipt, isHashReceipt, receiptVersion, type AnyReceipt } from '../bidlog';
import type { GraphQLContext } from '../../graphql/context';
import { money, MoneyGql } from '../../graphql/types/money';
import { payloadOf } from '../../graphql/user-errors';
import type { ResultCodec } from '../idempotency';
import { LotGql, reserveMet, shownHighestBid } from '../lots';
import { bidGql } from './bids.mappers';
import { PlaceBidResultGql, SubmitBidInput, SubmitBidPayloadGql } from './bids.types';
import type { BidGql, LogReceiptGql } from './bids.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

type SubmittedBid = Omit<SubmitBidPayloadGql, 'userErrors'>;

const NOTHING_PLACED: SubmittedBid = { lotId: null, highestBid: null, endTime: null, reserveMet: null, bids: null, receipt: null };

const receiptGql = (r: AnyReceipt | null): LogReceiptGql | null =>
  r && {
    version: receiptVersion(r),
    origin: r.origin,
    logId: r.log_id,
    timestamp: r.timestamp,
    entries: isHashReceipt(r) ? r.entries.map((e) => ({ leafIndex: null, leafHash: e.leaf_hash })) : r.entries.map((e) => ({ leafIndex: e.leaf_index, leafHash: e.leaf_hash })),
    batch: 'batch' in r ? r.batch : null,
    signer: r.signer,
    signature: r.signature,
    encoded: encodeReceipt(r),
  };

/** A submitted bid's result as its idempotency key keeps it: JSON, its dates revived. */
const SUBMITTED_BID: ResultCodec<SubmittedBid> = {
  store: (result) => result,
  load: (stored) => {
    const s = stored as SubmittedBid & { endTime: string; bids: (BidGql & { createdAt: string })[] };
    // A result kept before receipts had versions holds a version 1 receipt.
    const receipt = s.receipt && { ...s.receipt, version: s.receipt.version ?? 1 };
    return { ...s, receipt, endTime: new Date(s.endTime), bids: s.bids.map((b) => ({ ...b, createdAt: new Date(b.createdAt) })) };
  },
};

/** placeBid's answer, with the lot its Money reads the currency of. */
type PlaceBidResult = Omit<PlaceBidResultGql, 'highestBidMoney'> & { lotId: string };

@Resolver(() => SubmitBidPayloadGql)
export class BidsResolver {
  @Mutation(() => PlaceBidResultGql, { description: 'A bid, or with maxAmount a max bid that raises itself', deprecationReason: 'Use submitBid' })
  async placeBid(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('amount', () => String, { nullable: true }) amount: string | undefined,
    @Arg('maxAmount', () => String, { nullable: true }) maxAmount: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<PlaceBidResult> {
    const placed = await services.bids.place(ctx, { lotId, amount: amount ?? undefined, maxAmount: maxAmount ?? undefined });
    return {
      lotId: placed.lot.id,
      highestBid: formatMoney(shownHighestBid(placed.lot)),
      endTime: placed.lot.endTime,
      reserveMet: reserveMet(placed.lot),
      bids: placed.bids.map(bidGql),
      receipt: receiptGql(placed.receipt),
    };
  }

  @Mutation(() => SubmitBidPayloadGql, { description: 'A bid, or with maxAmount a max bid that raises itself; a refusal is answered in userErrors' })
  async submitBid(@Arg('input', () => SubmitBidInput) input: SubmitBidInput, @Ctx() { ctx, services }: GraphQLContext): Promise<SubmitBidPayloadGql> {
    const { idempotencyKey, lotId, amount, maxAmount } = input;
    return payloadOf(NOTHING_PLACED, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'submitBid', input: { lotId, amount, maxAmount } }, SUBMITTED_BID, async () => {
        const placed = await services.bids.place(ctx, { lotId, amount: amount ?? undefined, maxAmount: maxAmount ?? undefined });
        return {
          lotId: placed.lot.id,
          highestBid: formatMoney(shownHighestBid(placed.lot)),
          endTime: placed.lot.endTime,
          reserveMet: reserveMet(placed.lot),
          bids: placed.bids.map(bidGql),
          receipt: receiptGql(placed.receipt),
        };
      }),
    );
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot bid on, as it is now, in its own currency' })
  async lot(@Root() payload: SubmitBidPayloadGql, @Ctx() { loaders }: GraphQLContext): Promise<LotGql | null> {
    return payload.lotId === null ? null : loaders.lot.load(payload.lotId);
  }
}

@Resolver(() => PlaceBidResultGql)
export class PlaceBidResultResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { description: "The lot's highest bid after this request's round, in its currency" })
  async highestBidMoney(@Root() result: PlaceBidResult, @Ctx() { loaders }: GraphQLContext): Promise<MoneyGql> {
    return money(result.highestBid, ((await loaders.lot.load(result.lotId)) as LotGql).currency);
  }
}
