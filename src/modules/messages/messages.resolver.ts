import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { DialogConnectionGql, MessageConnectionGql } from './messages.connection.types';
import { notFound } from '../../core/errors';
import { MAX_PAGE_SIZE } from '../../core/page';
import { registerNode } from '../../graphql/types/node';
import { withoutNulls } from '../../core/validate';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import {
  DialogGql,
  dialogGql,
  MarkMessagesAsReadInput,
  MarkMessagesAsReadPayloadGql,
  MessageGql,
  messageGql,
  MessagePageGql,
  messagePageGql,
  PostMessageInput,
  PostMessagePayloadGql,
} from './messages.types';
import { runsStatement } from '../../graphql/statement-cost';

// A message refetched by id is one `lotMessagesConnection` would list the caller; ids in one request are read together.
registerNode('Message', async (id, { loaders }) => {
  const message = await loaders.message.load(id);
  if (!message) throw notFound('message_not_found', 'no such message');
  return messageGql(message);
});

registerNode('Dialog', async (id, { loaders }) => {
  const dialog = await loaders.dialog.load(id);
  if (!dialog) throw notFound('dialog_not_found', 'no such dialog');
  return dialogGql(dialog);
});

type Posted = Omit<PostMessagePayloadGql, 'userErrors'>;
type Marked = Omit<MarkMessagesAsReadPayloadGql, 'userErrors'>;

@Resolver()
export class MessagesResolver {
  @Extensions(runsStatement())
  @Query(() => MessagePageGql, {
    description: "GET /lots/{id}/messages: the caller's conversations about the lot; all of them for staff of its publisher",
    deprecationReason: 'Use `lotMessagesConnection`',
  })
  async lotMessages(
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('receivers', () => [String], { nullable: true }) receivers?: string[] | null,
    @Arg('sender', () => String, { nullable: true }) sender?: string | null,
    @Arg('platform', () => [String], { nullable: true, description: "Platforms of the senders; staff of each only" }) platform?: string[] | null,
    @Arg('search', () => String, { nullable: true, description: 'Full-text search in the text' }) search?: string | null,
    @Arg('sort', () => String, { nullable: true, description: 'created_at, a leading - for descending; -created_at by default' }) sort?: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'From 0' }) page?: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1 to 100; 15 by default' }) size?: number | null,
  ): Promise<MessagePageGql> {
    const input = {
      lotId,
      ...withoutNulls({ receivers, sender, platform, search, page, size }),
      ...(sort ? { sort: { key: sort.replace(/^-/, ''), desc: sort.startsWith('-') } } : {}),
    };
    return messagePageGql(await services.messages.list(ctx, input));
  }

  @Extensions(runsStatement())
  @Query(() => MessageConnectionGql, { description: "The messages `lotMessages` lists (the caller's conversations about the lot; all of them for staff of its publisher), newest first" })
  async lotMessagesConnection(
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Arg('receivers', () => [String], { nullable: true }) receivers?: string[] | null,
    @Arg('sender', () => String, { nullable: true }) sender?: string | null,
    @Arg('platform', () => [String], { nullable: true, description: 'Platforms of the senders; staff of each only' }) platform?: string[] | null,
    @Arg('search', () => String, { nullable: true, description: 'Full-text search in the text' }) search?: string | null,
  ): Promise<ConnectionSource<MessageGql>> {
    const window = pageWindow(page, `Query.lotMessagesConnection:${lotId}`, info);
    const found = await services.messages.window(ctx, { lotId, ...withoutNulls({ receivers, sender, platform, search }) }, window);
    return connectionOfWindow(window, found, (items) => items.map(messageGql));
  }

  @Extensions(runsStatement())
  @Query(() => [DialogGql], {
    description: 'GET /messages/dialogs: the latest `limit` dialogs of `receivers` (the caller by default), latest first',
    deprecationReason: 'Use `messageDialogsConnection`',
  })
  async messageDialogs(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('receivers', () => [String], { nullable: true }) receivers?: string[] | null,
    @Arg('with', () => String, { nullable: true, description: 'The companion' }) withId?: string | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: '1 to 100; 100 by default' }) limit?: number,
  ): Promise<DialogGql[]> {
    return (await services.messages.dialogs(ctx, withoutNulls({ receivers, with: withId, lotId }), limit)).map(dialogGql);
  }

  @Extensions(runsStatement())
  @Query(() => DialogConnectionGql, { description: 'The dialogs `messageDialogs` lists, of `receivers` (the caller by default), latest first' })
  async messageDialogsConnection(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Arg('receivers', () => [String], { nullable: true }) receivers?: string[] | null,
    @Arg('with', () => String, { nullable: true, description: 'The companion' }) withId?: string | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
  ): Promise<ConnectionSource<DialogGql>> {
    const window = pageWindow(page, 'Query.messageDialogsConnection', info);
    const found = await services.messages.dialogsWindow(ctx, withoutNulls({ receivers, with: withId, lotId }), window);
    return connectionOfWindow(window, found, (items) => items.map(dialogGql));
  }

  @Extensions(runsStatement())
  @Query(() => Int, { description: 'GET /messages/unread: unread messages to `receiver` (the caller by default)' })
  unreadMessages(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('receiver', () => String, { nullable: true }) receiver?: string | null,
    @Arg('sender', () => String, { nullable: true }) sender?: string | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
    @Arg('platform', () => [String], { nullable: true, description: 'Platforms of the senders' }) platform?: string[] | null,
  ): Promise<number> {
    return services.messages.unread(ctx, withoutNulls({ receiver, sender, lotId, platform }));
  }

  @Mutation(() => MessageGql, { description: "POST /messages: as the sender, or as staff of the sender's platform", deprecationReason: 'Use postMessage' })
  async sendMessage(
    @Arg('sender', () => String) sender: string,
    @Arg('receiver', () => String) receiver: string,
    @Arg('lotId', () => ID) lotId: string,
    @Arg('text', () => String, { description: 'At most 4000 characters' }) text: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('refMessageId', () => ID, { nullable: true, description: 'The message this one answers' }) refMessageId?: string | null,
  ): Promise<MessageGql> {
    return messageGql(await services.messages.send(ctx, { sender, receiver, lotId, text, ...withoutNulls({ refMessageId }) }));
  }

  @Mutation(() => Int, { description: 'PATCH /accounts/{id}/messages/: marks read the messages from `sender` about the lot; answers how many became read', deprecationReason: 'Use markMessagesAsRead' })
  markMessagesRead(
    @Arg('accountId', () => String) accountId: string,
    @Arg('sender', () => String) sender: string,
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('receiver', () => String, { nullable: true, description: 'The account by default' }) receiver?: string | null,
  ): Promise<number> {
    return services.messages.markRead(ctx, { accountId, sender, lotId, ...withoutNulls({ receiver }) });
  }

  @Mutation(() => PostMessagePayloadGql, { description: "Sends a message about a lot, as the sender or as staff of the sender's platform; a refusal is answered in userErrors" })
  async postMessage(@Arg('input', () => PostMessageInput) input: PostMessageInput, @Ctx() { ctx, services }: GraphQLContext): Promise<PostMessagePayloadGql> {
    const { idempotencyKey, sender, receiver, lotId, text, refMessageId } = input;
    const call = { sender, receiver, lotId, text, ...withoutNulls({ refMessageId }) };
    return payloadOf<Posted>({ message: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'postMessage', input: call }, asStored<Posted>(), async () => ({ message: messageGql(await services.messages.send(ctx, call)) })),
    );
  }

  @Mutation(() => MarkMessagesAsReadPayloadGql, { description: 'Marks read the messages from `sender` about the lot; a refusal is answered in userErrors' })
  markMessagesAsRead(@Arg('input', () => MarkMessagesAsReadInput) input: MarkMessagesAsReadInput, @Ctx() { ctx, services }: GraphQLContext): Promise<MarkMessagesAsReadPayloadGql> {
    const { idempotencyKey, accountId, sender, lotId, receiver } = input;
    const call = { accountId, sender, lotId, ...withoutNulls({ receiver }) };
    return payloadOf<Marked>({ markedCount: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'markMessagesAsRead', input: call }, asStored<Marked>(), async () => ({ markedCount: await services.messages.markRead(ctx, call) })),
    );
  }
}
