import { Extensions, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import { connectionTypes } from '../../graphql/types/connection';
import { listItems } from '../../graphql/list-items';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { MOST_BIDS_PER_REQUEST } from './bids.per-request';
import { ROUND_SIZE } from './bids.service';

@ObjectType('Bid', { implements: NodeGql })
export class BidGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { deprecationReason: 'Use `amountMoney`' }) amount!: string;
  @Field(() => String, { nullable: true, description: "Shown to the lot's organizer and staff, and to the bidder itself" }) bidderId!: string | null;
  @Field(() => Boolean) placedByProxy!: boolean;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('LogReceiptEntry')
export class LogReceiptEntryGql {
  @Field(() => Int, { nullable: true, description: "The leaf's index in the log; null in a receipt of version 2, which names the leaf by its hash" }) leafIndex!: number | null;
  @Field(() => String, { description: 'base64' }) leafHash!: string;
}

@ObjectType('LogReceiptBatch', { description: "A receipt of version 3: the bid round's batch of receipts, whose root the log key signed" })
export class LogReceiptBatchGql {
  @Field(() => Int, { description: 'How many receipts the batch holds' }) size!: number;
  @Field(() => Int, { description: "This receipt's place in the batch" }) index!: number;
  @Field(() => String, { description: "The batch's RFC 9162 Merkle root, base64" }) root!: string;
  // A batch is one round's receipts, at most ROUND_SIZE: a path of its tree has at most log2 of that.
  @Extensions(listItems(Math.ceil(Math.log2(ROUND_SIZE))))
  @Field(() => [String], { description: "This receipt's audit path to the root, base64 hashes" }) path!: string[];
}

@ObjectType('LogReceipt', { description: "The transparency log's signed promise to include the request's bids in its next checkpoint (docs/bid-log.md)" })
export class LogReceiptGql {
  @Field(() => Int, {
    description: '1: the leaves by index and hash; 2: by hash alone, given when the log had not numbered them by the answer; 3: by index and hash, signed with the other receipts of its bid round (`batch`) (docs/bid-log.md)',
  })
  version!: number;
  @Field(() => String) origin!: string;
  @Field(() => String) logId!: string;
  @Field(() => String) timestamp!: string;
  @Extensions(listItems(MOST_BIDS_PER_REQUEST))
  @Field(() => [LogReceiptEntryGql]) entries!: LogReceiptEntryGql[];
  @Field(() => LogReceiptBatchGql, { nullable: true, description: 'Version 3 only' }) batch!: LogReceiptBatchGql | null;
  @Field(() => String, { description: 'The log key (G…)' }) signer!: string;
  @Field(() => String, { description: 'Ed25519, base64' }) signature!: string;
  @Field(() => String, { description: 'The receipt as the REST `Bid-Receipt` header carries it (base64 JSON), for `npm run verify-bids -- --receipt`' }) encoded!: string;
}

export const { Connection: BidConnectionGql, Resolver: BidConnectionResolver } = connectionTypes('Bid', () => BidGql);

@ObjectType('PlaceBidResult')
export class PlaceBidResultGql {
  @Field(() => String, { deprecationReason: 'Use `highestBidMoney`' }) highestBid!: string;
  @Field(() => Date, { description: "The lot's end after this request's round: later than before when soft close moved it" }) endTime!: Date;
  @Field(() => Boolean, { nullable: true, description: 'Whether the highest bid reached the reserve price; null: the lot has no reserve' }) reserveMet!: boolean | null;
  @Extensions(listItems(MOST_BIDS_PER_REQUEST))
  @Field(() => [BidGql], { description: 'The bids this request placed, its own and the automatic raises it caused: at most 3' }) bids!: BidGql[];
  @Field(() => LogReceiptGql, { nullable: true, description: "The transparency log's signed receipt of these bids (REST: the Bid-Receipt header)" })
  receipt!: LogReceiptGql | null;
}

@InputType('SubmitBidInput')
export class SubmitBidInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: "A bid of this amount, a decimal string in the lot's currency" }) amount?: string | null;
  @Field(() => String, { nullable: true, description: 'A max bid that raises itself up to this amount' }) maxAmount?: string | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result and places nothing more' })
  idempotencyKey?: string | null;
}

@ObjectType('SubmitBidPayload')
export class SubmitBidPayloadGql {
  @Field(() => ID, { nullable: true }) lotId!: string | null;
  @Field(() => String, { nullable: true, description: 'The highest bid after this request, as the caller may see it' }) highestBid!: string | null;
  @Field(() => Date, { nullable: true, description: "The lot's end after this request's round: later than before when soft close moved it" }) endTime!: Date | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the highest bid reached the reserve price; null: the lot has no reserve, or nothing was placed' }) reserveMet!: boolean | null;
  @Extensions(listItems(MOST_BIDS_PER_REQUEST))
  @Field(() => [BidGql], { nullable: true, description: 'The bids this request placed, its own and the automatic raises it caused: at most 3' }) bids!: BidGql[] | null;
  @Field(() => LogReceiptGql, { nullable: true, description: "The transparency log's signed receipt of these bids (REST: the Bid-Receipt header); null when nothing was placed" })
  receipt!: LogReceiptGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
