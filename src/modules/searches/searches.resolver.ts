import { Arg, Ctx, Extensions, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { LotFilterInput, lotFilterOf } from '../lots';
import { AddSavedSearchInput, AddSavedSearchPayloadGql, RemoveSavedSearchInput, RemoveSavedSearchPayloadGql, SavedSearchGql, savedSearchGql } from './searches.types';
import { runsStatement } from '../../graphql/statement-cost';

registerNode('SavedSearch', async (id, { ctx, services }) => savedSearchGql(await services.searches.ownById(ctx, id)));

type Added = Omit<AddSavedSearchPayloadGql, 'userErrors'>;
type Removed = Omit<RemoveSavedSearchPayloadGql, 'userErrors'>;


@Resolver()
export class SearchesResolver {
  @Extensions(runsStatement())
  @Query(() => [SavedSearchGql], { nullable: true, description: 'GET /accounts/{id}/saved_searches: the first `limit` (by default and at most 100), oldest first' })
  async savedSearches(
    @Arg('accountId', () => String) accountId: string,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, deprecationReason: 'Use `viewer.savedSearches`' }) limit: number,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SavedSearchGql[]> {
    return (await services.searches.list(ctx, { accountId }, limit)).map(savedSearchGql);
  }

  @Mutation(() => SavedSearchGql, { description: 'POST /accounts/{id}/saved_searches: the filters of lots (a subset: docs/saved-searches.md)', deprecationReason: 'Use addSavedSearch' })
  async saveSearch(
    @Arg('accountId', () => String) accountId: string,
    @Arg('filter', () => LotFilterInput) filter: LotFilterInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SavedSearchGql> {
    return savedSearchGql(await services.searches.create(ctx, { accountId, filter: lotFilterOf(filter) }));
  }

  @Mutation(() => AddSavedSearchPayloadGql, { description: 'Saves a search of lots for an account (a subset of the filters: docs/saved-searches.md); a refusal is answered in userErrors' })
  async addSavedSearch(@Arg('input', () => AddSavedSearchInput) input: AddSavedSearchInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddSavedSearchPayloadGql> {
    const { idempotencyKey, accountId } = input;
    return payloadOf<Added>({ savedSearch: null }, async () => {
      const filter = lotFilterOf(input.filter);
      return services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addSavedSearch', input: { accountId, filter } }, asStored<Added>(), async () => ({
        savedSearch: savedSearchGql(await services.searches.create(ctx, { accountId, filter })),
      }));
    });
  }

  @Mutation(() => Boolean, { description: 'DELETE /accounts/{id}/saved_searches/{search-id}', deprecationReason: 'Use removeSavedSearch' })
  async deleteSavedSearch(@Arg('accountId', () => String) accountId: string, @Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.searches.delete(ctx, { accountId, id });
    return true;
  }

  @Mutation(() => RemoveSavedSearchPayloadGql, { description: "Deletes one of an account's saved searches; a refusal is answered in userErrors" })
  async removeSavedSearch(@Arg('input', () => RemoveSavedSearchInput) input: RemoveSavedSearchInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RemoveSavedSearchPayloadGql> {
    const { idempotencyKey, accountId, id } = input;
    return payloadOf<Removed>({ savedSearchId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeSavedSearch', input: { accountId, id } }, asStored<Removed>(), async () => {
        await services.searches.delete(ctx, { accountId, id });
        return { savedSearchId: id };
      }),
    );
  }
}
