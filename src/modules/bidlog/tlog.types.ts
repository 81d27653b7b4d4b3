import { Extensions, Field, InputType, Int, ObjectType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { MOST_WITNESSES } from './tlog.witnesses';

/** A proof has one hash per level of the tree: 64 covers any tree a bigint can count. */
const PROOF_HASHES = 64;

@ObjectType('LogAnchor', { description: "Where a checkpoint's root was written on the Stellar ledger" })
export class LogAnchorGql {
  @Field(() => String, { description: 'The transaction hash, hex' }) transaction!: string;
  @Field(() => Int) ledger!: number;
  @Field(() => String, { description: "The log's account (its key) that wrote it" }) account!: string;
}

@ObjectType('LogCosignature', { description: "A witness's C2SP tlog-cosignature/v1 co-signature of a checkpoint; its line is in the checkpoint's note" })
export class LogCosignatureGql {
  @Field(() => String) witness!: string;
  @Field(() => String, { description: 'hex' }) keyId!: string;
  @Field(() => Int, { description: 'POSIX seconds, as the witness signed it' }) timestamp!: number;
}

@ObjectType('LogCheckpoint')
export class LogCheckpointGql {
  @Field(() => Int) size!: number;
  @Field(() => String, { description: 'base64' }) rootHash!: string;
  @Field(() => String, { description: "The C2SP signed note, the witnesses' co-signature lines appended" }) note!: string;
  @Field(() => String) signer!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => LogAnchorGql, { nullable: true, description: 'Null until the anchor job wrote its root on the ledger' }) anchor!: LogAnchorGql | null;
  @Extensions(listItems(MOST_WITNESSES))
  @Field(() => [LogCosignatureGql]) cosignatures!: LogCosignatureGql[];
}

@InputType('CosignCheckpointInput')
export class CosignCheckpointInput {
  @Field(() => String, { description: 'The checkpoint note with the witness\'s co-signature line(s)' }) note!: string;
}

@ObjectType('CosignCheckpointPayload')
export class CosignCheckpointPayloadGql {
  @Field(() => LogCheckpointGql, { nullable: true, description: 'The checkpoint with the co-signatures now kept' }) checkpoint!: LogCheckpointGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@ObjectType('LogProof', { description: 'An RFC 9162 inclusion or consistency proof' })
export class LogProofGql {
  @Field(() => Int, { nullable: true }) leafIndex!: number | null;
  @Field(() => Int, { nullable: true }) treeSize!: number | null;
  @Field(() => Int, { nullable: true }) from!: number | null;
  @Field(() => Int, { nullable: true }) to!: number | null;
  @Extensions(listItems(PROOF_HASHES))
  @Field(() => [String], { description: 'base64 hashes' }) hashes!: string[];
}

@ObjectType('LogEntry')
export class LogEntryGql {
  @Field(() => Int) leafIndex!: number;
  @Field(() => String) leafHash!: string;
  @Field(() => String, { description: 'The exact JSON text hashed' }) data!: string;
}

@ObjectType('LogKey', { description: 'A key the log has signed with' })
export class LogKeyGql {
  @Field(() => String) publicKey!: string;
  @Field(() => Date) since!: Date;
  @Field(() => Date, { nullable: true, description: 'When the next key took over; null for the key that signs now' }) until!: Date | null;
  @Field(() => Int, { description: 'The first leaf index the key may receipt: 0 for the first key, else the leaf that logged its rotation' }) fromSize!: number;
  @Field(() => Int, { nullable: true, description: 'The largest tree size the key may sign a checkpoint of, and the end (excluded) of the leaf indexes it may receipt; null for the key that signs now' })
  toSize!: number | null;
  @Field(() => Int, { nullable: true, description: 'The leaf (kind key) that logged the rotation to this key; null for the first key and for rotations made before rotations were logged' })
  leafIndex!: number | null;
}
