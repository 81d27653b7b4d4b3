import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, Info, Int, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { OutboxMessageConnectionGql } from './outbox.connection.types';
import { withoutNulls } from '../../core/validate';
import { notFound } from '../../core/errors';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { OutboxMessageGql, outboxMessageGql } from './outbox.types';
import { runsStatement } from '../../graphql/statement-cost';

// A message refetched by id is one `outboxConnection` would list the caller; to anyone else it is none (not `forbidden`, which would tell that it exists).
registerNode('OutboxMessage', async (id, { loaders }) => {
  const message = await loaders.outboxMessage.load(id);
  if (!message) throw notFound('outbox_message_not_found', 'no such outbox message');
  return outboxMessageGql(message);
});

@Resolver()
export class OutboxResolver {
  @Extensions(runsStatement())
  @Query(() => [OutboxMessageGql], {
    description: "Messages kept in the outbox for the caller's platforms, newest first; staff only (else code forbidden)",
    deprecationReason: 'Use `outboxConnection`',
  })
  async outbox(
    @Arg('recipient', () => String, { nullable: true, description: 'Email address or phone number (case-insensitive)' }) recipient: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100; 50 by default' }) limit: number | null,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<OutboxMessageGql[]> {
    return (await services.outbox.list(ctx, withoutNulls({ recipient, limit }))).map(outboxMessageGql);
  }

  @Extensions(runsStatement())
  @Query(() => OutboxMessageConnectionGql, { description: "Messages kept in the outbox for the caller's platforms, newest first; staff only (else code forbidden)" })
  async outboxConnection(
    @Arg('recipient', () => String, { nullable: true, description: 'Email address or phone number (case-insensitive)' }) recipient: string | null,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<ConnectionSource<OutboxMessageGql>> {
    const window = pageWindow(page, 'Query.outboxConnection', info);
    const found = await services.outbox.window(ctx, withoutNulls({ recipient }), window);
    return connectionOfWindow(window, found, (items) => items.map(outboxMessageGql));
  }
}
