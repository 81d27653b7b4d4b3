import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { LedgerAccountGql, ledgerAccountGql, SubmittedTransactionGql, submittedTransactionGql } from './ledger.types';

@Resolver()
export class LedgerResolver {
  @Query(() => LedgerAccountGql, { description: 'GET /ledger/accounts/{id}: public' })
  async ledgerAccount(@Arg('id', () => String) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<LedgerAccountGql> {
    return ledgerAccountGql(await services.ledger.account(ctx, id));
  }

  @Mutation(() => SubmittedTransactionGql, {
    description: 'POST /transactions: a base64 transaction envelope, authenticated by its own signatures; a rejection carries the result XDR in extensions.meta["auction-xdr"]',
  })
  async submitTransaction(@Arg('tx', () => String) tx: string, @Ctx() { ctx, services }: GraphQLContext): Promise<SubmittedTransactionGql> {
    return submittedTransactionGql(await services.ledger.submit(ctx, { tx }));
  }
}
