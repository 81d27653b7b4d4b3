import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { LedgerAccountGql, ledgerAccountGql, LedgerBalanceGql, LedgerSignerGql, LedgerTransactionGql, SubmittedTransactionGql, submittedTransactionGql } from './ledger.types';

@Resolver(() => LedgerAccountGql)
export class LedgerResolver {
  @Query(() => LedgerAccountGql, { nullable: true, description: 'GET /ledger/accounts/{id}: public' })
  async ledgerAccount(@Arg('id', () => String) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<LedgerAccountGql> {
    return ledgerAccountGql(await services.ledger.account(ctx, id));
  }

  @Query(() => LedgerTransactionGql, { description: 'GET /ledger/transactions/{hash}: public' })
  ledgerTransaction(@Arg('hash', () => String) hash: string, @Ctx() { ctx, services }: GraphQLContext): Promise<LedgerTransactionGql> {
    return services.ledger.transaction(ctx, hash);
  }

  // Anyone may send an account assets of any issuer, and the loopback may add master signers
  // without end: both lists are bounded, so their cost counts what may come back.
  @FieldResolver(() => [LedgerBalanceGql])
  balances(@Root() account: Source<LedgerAccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): LedgerBalanceGql[] {
    return account.balances.slice(0, listBound(limit, 'limit'));
  }

  @FieldResolver(() => [LedgerSignerGql])
  signers(@Root() account: Source<LedgerAccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): LedgerSignerGql[] {
    return account.signers.slice(0, listBound(limit, 'limit'));
  }

  @Mutation(() => SubmittedTransactionGql, {
    description: 'POST /transactions: a base64 transaction envelope, authenticated by its own signatures; a rejection carries the result XDR in extensions.meta["auction-xdr"]',
  })
  async submitTransaction(@Arg('tx', () => String) tx: string, @Ctx() { ctx, services }: GraphQLContext): Promise<SubmittedTransactionGql> {
    return submittedTransactionGql(await services.ledger.submit(ctx, { tx }));
  }
}
