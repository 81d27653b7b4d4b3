import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('BidLogEntry', { description: 'One accepted bid in the lot\'s hash chain (docs/bid-log.md)' })
export class BidLogEntryGql {
  @Field(() => Int) seq!: number;
  @Field(() => ID) bidId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { description: 'ISO 8601, milliseconds' }) createdAt!: string;
  @Field(() => Boolean) byProxy!: boolean;
  @Field(() => String, { nullable: true, description: 'SHA-256 (hex) of the signature of the request that caused the bid' }) requestDigest!: string | null;
  @Field(() => String, { description: 'SHA-256 (hex) of "salt:account"' }) bidderCommitment!: string;
  @Field(() => String) previous!: string;
  @Field(() => String) hash!: string;
  @Field(() => String, { nullable: true, description: 'Shown to the bidder and the lot\'s managers' }) bidderId!: string | null;
  @Field(() => String, { nullable: true }) bidderSalt!: string | null;
}

@ObjectType('BidLogHead', { description: 'The head of the chain, signed by the master key when the lot closed' })
export class BidLogHeadGql {
  @Field(() => ID) lotId!: string;
  @Field(() => Int) entries!: number;
  @Field(() => String) head!: string;
  @Field(() => String, { nullable: true }) highestBid!: string | null;
  @Field(() => String, { nullable: true }) winnerId!: string | null;
  @Field(() => Int, { nullable: true }) winnerSeq!: number | null;
  @Field(() => String, { nullable: true }) winnerSalt!: string | null;
  @Field(() => String) lotState!: string;
  @Field(() => String) signedAt!: string;
  @Field(() => String) signer!: string;
  @Field(() => String, { description: 'ed25519, base64' }) signature!: string;
}

@ObjectType('BidLog')
export class BidLogGql {
  @Field(() => ID) lotId!: string;
  @Field(() => [BidLogEntryGql], { description: 'The newest `last` entries of the chain (by default and at most 100), oldest first', deprecationReason: 'Use `entriesConnection`' })
  entries!: BidLogEntryGql[];
  @Field(() => BidLogHeadGql, { nullable: true, description: 'Null until the lot closes' }) head!: BidLogHeadGql | null;
  @Field(() => String, { description: 'The master key that signs heads' }) signer!: string;
}
