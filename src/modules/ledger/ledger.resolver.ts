import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { notFound } from '../../core/errors';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { registerNode } from '../../graphql/types/node';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { SendTransactionInput, SendTransactionPayloadGql, TransactionOutcome } from './ledger.send.types';
import { LedgerBalanceConnectionGql, LedgerSignerConnectionGql } from './ledger.connection.types';
import { OutcomeUnknown } from './ledger.service';
import { LedgerAccountGql, ledgerAccountGql, LedgerBalanceGql, LedgerSignerGql, LedgerTransactionGql, SubmittedTransactionGql, submittedTransactionGql } from './ledger.types';
import { runsNoStatement, runsStatement } from '../../graphql/statement-cost';

type Sent = Omit<SendTransactionPayloadGql, 'userErrors'>;

// A ledger account is public: refetched by id as `ledgerAccount` reads it; ids in one request are read together.
registerNode('LedgerAccount', async (id, { loaders }) => {
  const account = await loaders.ledgerAccount.load(id);
  if (!account) throw notFound('ledger_account_not_found', 'no ledger account with this id');
  return ledgerAccountGql(account);
});

@Resolver(() => LedgerAccountGql)
export class LedgerResolver {
  @Extensions(runsStatement())
  @Query(() => LedgerAccountGql, { nullable: true, description: 'GET /ledger/accounts/{id}: public' })
  async ledgerAccount(@Arg('id', () => String) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<LedgerAccountGql> {
    return ledgerAccountGql(await services.ledger.account(ctx, id));
  }

  @Extensions(runsStatement())
  @Query(() => LedgerTransactionGql, { description: 'GET /ledger/transactions/{hash}: public' })
  ledgerTransaction(@Arg('hash', () => String) hash: string, @Ctx() { ctx, services }: GraphQLContext): Promise<LedgerTransactionGql> {
    return services.ledger.transaction(ctx, hash);
  }

  // Anyone may send an account assets of any issuer, and the loopback may add master signers
  // without end: both lists are bounded, so their cost counts what may come back.
  @Extensions(runsNoStatement())
  @FieldResolver(() => [LedgerBalanceGql])
  balances(@Root() account: Source<LedgerAccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): LedgerBalanceGql[] {
    return account.balances.slice(0, listBound(limit, 'limit'));
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => [LedgerSignerGql])
  signers(@Root() account: Source<LedgerAccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): LedgerSignerGql[] {
    return account.signers.slice(0, listBound(limit, 'limit'));
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => LedgerBalanceConnectionGql, { description: 'The balances by asset code and issuer' })
  balancesConnection(@Root() account: Source<LedgerAccountGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Info() info: GraphQLResolveInfo): ConnectionSource<LedgerBalanceGql> {
    const window = pageWindow(page, `LedgerAccount:${account.id}.balances`, info);
    return connectionOfList(window, account.balances, (b) => `${b.assetCode}:${b.assetIssuer}`);
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => LedgerSignerConnectionGql, { description: 'The signers, the account’s own key first' })
  signersConnection(@Root() account: Source<LedgerAccountGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Info() info: GraphQLResolveInfo): ConnectionSource<LedgerSignerGql> {
    const window = pageWindow(page, `LedgerAccount:${account.id}.signers`, info);
    return connectionOfList(window, account.signers, (s) => s.key);
  }

  @Mutation(() => SubmittedTransactionGql, {
    description: 'POST /transactions: a base64 transaction envelope, authenticated by its own signatures; a rejection carries the result XDR in extensions.meta["auction-xdr"]',
    deprecationReason: 'Use sendTransaction',
  })
  async submitTransaction(@Arg('tx', () => String) tx: string, @Ctx() { ctx, services }: GraphQLContext): Promise<SubmittedTransactionGql> {
    return submittedTransactionGql(await services.ledger.submit(ctx, { tx }));
  }

  @Mutation(() => SendTransactionPayloadGql, { description: 'POST /transactions: a transaction applied, or said to be of unknown outcome when the network did not answer; a rejection is answered in userErrors' })
  async sendTransaction(@Arg('input', () => SendTransactionInput) input: SendTransactionInput, @Ctx() { ctx, services }: GraphQLContext): Promise<SendTransactionPayloadGql> {
    const { idempotencyKey, tx } = input;
    try {
      return await payloadOf<Sent>({ outcome: null, hash: null, transaction: null }, () =>
        services.idempotency.once(ctx, { key: idempotencyKey, operation: 'sendTransaction', input: { tx } }, asStored<Sent>(), async () => {
          const transaction = submittedTransactionGql(await services.ledger.submit(ctx, { tx }));
          return { outcome: TransactionOutcome.APPLIED, hash: transaction.hash, transaction };
        }),
      );
    } catch (err) {
      // Not a failure: the key is given up (a retry sends it again) and the caller is told to look it up.
      if (err instanceof OutcomeUnknown) return { outcome: TransactionOutcome.UNKNOWN, hash: err.hash, transaction: null, userErrors: [] };
      throw err;
    }
  }
}
