import { Arg, Ctx, Extensions, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { withoutNulls } from '../../core/validate';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { AddLotInput, AddLotPayloadGql } from './lots.add.types';
import { LotGql } from './lots.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

type Added = Omit<AddLotPayloadGql, 'userErrors'>;

/** The payload twin of createLot: the lot is answered as the lots view shows it to the caller now, a replayed key included. */
@Resolver(() => AddLotPayloadGql)
export class LotAddResolver {
  @Mutation(() => AddLotPayloadGql, { description: 'POST /lots: staff of a platform publish a lot, anyone else files a create_lot request; a refusal is answered in userErrors' })
  async addLot(@Arg('input', () => AddLotInput) input: AddLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddLotPayloadGql> {
    const { idempotencyKey, ...lot } = input;
    const call = withoutNulls({ ...lot });
    return payloadOf<Added>({ lotId: null, requestId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addLot', input: call }, asStored<Added>(), async () => {
        const created = await services.lots.create(ctx, call);
        return { lotId: created.lot?.id ?? null, requestId: created.request?.id ?? null };
      }),
    );
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot made, as it is now, its reserve shown to its managers only' })
  async lot(@Root() payload: AddLotPayloadGql, @Ctx() { loaders }: GraphQLContext): Promise<LotGql | null> {
    return payload.lotId === null ? null : loaders.lot.load(payload.lotId);
  }
}
