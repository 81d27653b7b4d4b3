import { Extensions, Field, Int, ObjectType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';

/** A proof has one hash per level of the tree: 64 covers any tree a bigint can count. */
const PROOF_HASHES = 64;

@ObjectType('LogCheckpoint')
export class LogCheckpointGql {
  @Field(() => Int) size!: number;
  @Field(() => String, { description: 'base64' }) rootHash!: string;
  @Field(() => String, { description: 'The C2SP signed note' }) note!: string;
  @Field(() => String) signer!: string;
  @Field(() => Date) createdAt!: Date;
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
}
