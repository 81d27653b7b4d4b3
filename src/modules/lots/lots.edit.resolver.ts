import { Arg, Ctx, Extensions, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { EditLotInput, EditLotPayloadGql } from './lots.edit.types';
import { LotGql } from './lots.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

type Edited = Omit<EditLotPayloadGql, 'userErrors'>;

/** The payload twin of updateLot: the lot is answered as it is when read, a replayed key included. */
@Resolver(() => EditLotPayloadGql)
export class LotEditResolver {
  @Mutation(() => EditLotPayloadGql, { description: "The lot's organizer or staff of its publisher change its reserve price before the first bid; a refusal is answered in userErrors" })
  async editLot(@Arg('input', () => EditLotInput) input: EditLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<EditLotPayloadGql> {
    const { idempotencyKey, ...change } = input;
    return payloadOf<Edited>({ lotId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'editLot', input: change }, asStored<Edited>(), async () => {
        await services.lots.update(ctx, change);
        return { lotId: change.id };
      }),
    );
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot changed, as it is now, in its own currency' })
  async lot(@Root() payload: EditLotPayloadGql, @Ctx() { loaders }: GraphQLContext): Promise<LotGql | null> {
    return payload.lotId === null ? null : loaders.lot.load(payload.lotId);
  }
}
