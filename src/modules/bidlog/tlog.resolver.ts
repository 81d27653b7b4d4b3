import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { LogEntryConnectionGql } from './tlog.connection.types';
import { listItems } from '../../graphql/list-items';
import { runsOwnStatement, runsStatement } from '../../graphql/statement-cost';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { CosignCheckpointInput, CosignCheckpointPayloadGql, LogCheckpointGql, LogEntryGql, LogKeyGql, LogProofGql } from './tlog.types';
import { TLOG_PAGE, type Proof } from './tlog.service';

/** What the cost limit counts for the key history: a log rotates its key rarely. */
const TLOG_KEYS = 100;

const proofGql = (p: Proof): LogProofGql => ({ leafIndex: p.leafIndex ?? null, treeSize: p.treeSize ?? null, from: p.from ?? null, to: p.to ?? null, hashes: p.hashes });

@Resolver()
export class TransparencyLogResolver {
  @Extensions(runsStatement())
  @Query(() => LogCheckpointGql, { description: "GET /log/checkpoint: the transparency log's latest checkpoint; `anchored`: the latest anchored on the ledger; `cosignatures`: the latest that many witnesses co-signed" })
  logCheckpoint(
    @Arg('anchored', () => Boolean, { nullable: true }) anchored: boolean | undefined,
    @Arg('cosignatures', () => Int, { nullable: true }) cosignatures: number | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LogCheckpointGql> {
    return services.transparencyLog.latest(ctx, { anchored: anchored ?? undefined, cosignatures: cosignatures ?? undefined });
  }

  @Mutation(() => CosignCheckpointPayloadGql, { description: "POST /log/cosign: a witness's co-signature of a checkpoint the log issued; a refusal is answered in userErrors" })
  cosignCheckpoint(@Arg('input', () => CosignCheckpointInput) input: CosignCheckpointInput, @Ctx() { ctx, services }: GraphQLContext): Promise<CosignCheckpointPayloadGql> {
    return payloadOf<Omit<CosignCheckpointPayloadGql, 'userErrors'>>({ checkpoint: null }, async () => ({ checkpoint: await services.logWitnesses.cosign(ctx, { note: input.note }) }));
  }

  @Extensions(listItems(TLOG_KEYS))
  @Extensions(runsStatement())
  @Query(() => [LogKeyGql], { description: 'GET /log/keys: every key the log has signed with, oldest first; the one without until signs now' })
  logKeys(@Ctx() { ctx, services }: GraphQLContext): Promise<LogKeyGql[]> {
    return services.transparencyLog.keys(ctx);
  }

  @Extensions(listItems(TLOG_PAGE))
  @Extensions(runsStatement())
  @Query(() => [LogCheckpointGql], { description: 'GET /log/checkpoints: the checkpoints of sizes from..to, oldest first, at most 100' })
  logCheckpoints(
    @Arg('from', () => Int, { nullable: true }) from: number | undefined,
    @Arg('to', () => Int, { nullable: true }) to: number | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LogCheckpointGql[]> {
    return services.transparencyLog.between(ctx, { from: from ?? undefined, to: to ?? undefined });
  }

  @Extensions(runsStatement())
  @Query(() => LogProofGql, { description: "GET /log/proof/inclusion: a leaf's inclusion proof in the tree of a checkpoint's size; the leaf given by `leafIndex`, or by `leafHash` (hex or base64), whose index the answer gives" })
  async logInclusionProof(
    @Arg('leafIndex', () => Int, { nullable: true }) leafIndex: number | undefined,
    @Arg('leafHash', () => String, { nullable: true }) leafHash: string | undefined,
    @Arg('treeSize', () => Int) treeSize: number,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LogProofGql> {
    return proofGql(await services.transparencyLog.inclusion(ctx, { leafIndex, leafHash, treeSize }));
  }

  @Extensions(runsStatement())
  @Query(() => LogProofGql, { description: 'GET /log/proof/consistency: from the tree of size `from` to the checkpoint of size `to`' })
  async logConsistencyProof(@Arg('from', () => Int) from: number, @Arg('to', () => Int) to: number, @Ctx() { ctx, services }: GraphQLContext): Promise<LogProofGql> {
    return proofGql(await services.transparencyLog.consistency(ctx, { from, to }));
  }

  @Extensions(listItems(TLOG_PAGE))
  @Extensions(runsStatement())
  @Query(() => [LogEntryGql], { description: "GET /log/entries: the log's leaves from index `from` (or a lot's), at most 100", deprecationReason: 'Use `logEntriesConnection`' })
  logEntries(
    @Arg('from', () => Int) from: number,
    @Arg('lotId', () => ID, { nullable: true }) lotId: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LogEntryGql[]> {
    return services.transparencyLog.entries(ctx, { from, lotId: lotId ?? undefined });
  }

  // Public, and its count reads the whole log (or a lot's part of it) whatever the page.
  @Extensions(runsOwnStatement())
  @Query(() => LogEntryConnectionGql, { description: "The log's leaves (or a lot's) by index, from index `from` (0 by default)" })
  async logEntriesConnection(
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('from', () => Int, { nullable: true }) from?: number | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
  ): Promise<ConnectionSource<LogEntryGql>> {
    const window = pageWindow(page, 'Query.logEntriesConnection', info);
    const found = await services.transparencyLog.entriesWindow(ctx, { from: from ?? undefined, lotId: lotId ?? undefined }, window);
    return connectionOfWindow(window, found, (items) => items);
  }
}
