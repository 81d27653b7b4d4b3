import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { rfc3339 } from '../../core/time';
import { dialogId, type Dialog, type Message } from './messages.entity';
import type { MessagePage } from './messages.service';

@ObjectType('Message', { implements: NodeGql, description: 'A message between two accounts about a lot' })
export class MessageGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: 'The sender (account_id in REST)' }) senderId!: string;
  @Field(() => String) receiverId!: string;
  @Field(() => ID, { nullable: true, description: 'The message this one answers' }) refMessageId!: string | null;
  @Field(() => String) text!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
  @Field(() => String, { nullable: true, description: 'RFC 3339; null while unread', deprecationReason: 'Use `readTime`' }) readAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'The time of `readAt`' }) readTime!: Date | null;
}

@ObjectType('MessagePage', { description: "One number/size page of a lot's messages" })
export class MessagePageGql {
  @Field(() => [MessageGql]) items!: MessageGql[];
  @Field(() => Int, { description: 'The count of every match' }) totalItems!: number;
  @Field(() => Int, { description: 'The page number, from 0' }) page!: number;
  @Field(() => Int) size!: number;
}

@ObjectType('Dialog', { implements: NodeGql, description: "A conversation about a lot, seen from one of its accounts (`accountId`)" })
export class DialogGql {
  @Field(() => ID, { description: '<lot>-<account>-<companion>' }) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'The companion' }) withId!: string;
  @Field(() => Int, { description: "The companion's unread messages to the account" }) unreadMessages!: number;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `lastMessageTime`' }) lastMessageAt!: string;
  @Field(() => Date, { description: 'The time of `lastMessageAt`' }) lastMessageTime!: Date;
}

export const messageGql = (m: Message): MessageGql => ({
  id: m.id,
  lotId: m.lotId,
  senderId: m.sender,
  receiverId: m.receiver,
  refMessageId: m.refMessageId,
  text: m.text,
  createdAt: rfc3339(m.createdAt),
  createdTime: m.createdAt,
  readAt: m.readAt ? rfc3339(m.readAt) : null,
  readTime: m.readAt ?? null,
});

export const messagePageGql = (p: MessagePage): MessagePageGql => ({ items: p.items.map(messageGql), totalItems: p.total, page: p.page, size: p.size });

export const dialogGql = (d: Dialog): DialogGql => ({
  id: dialogId(d),
  lotId: d.lotId,
  accountId: d.accountId,
  withId: d.withId,
  unreadMessages: d.unread,
  lastMessageAt: rfc3339(d.lastMessageAt),
  lastMessageTime: d.lastMessageAt,
});

@InputType('PostMessageInput')
export class PostMessageInput {
  @Field(() => String, { description: 'The caller, or an account of the platform the caller is staff of' }) sender!: string;
  @Field(() => String) receiver!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: 'At most 4000 characters' }) text!: string;
  @Field(() => ID, { nullable: true, description: 'The message this one answers' }) refMessageId?: string | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('PostMessagePayload')
export class PostMessagePayloadGql {
  @Field(() => MessageGql, { nullable: true, description: 'The message sent' }) message!: MessageGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('MarkMessagesAsReadInput')
export class MarkMessagesAsReadInput {
  @Field(() => String) accountId!: string;
  @Field(() => String) sender!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'The account by default' }) receiver?: string | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('MarkMessagesAsReadPayload')
export class MarkMessagesAsReadPayloadGql {
  @Field(() => Int, { nullable: true, description: 'How many messages became read' }) markedCount!: number | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
