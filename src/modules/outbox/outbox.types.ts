import { Field, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import { rfc3339 } from '../../core/time';
import type { OutboxMessage } from './outbox.entity';

@ObjectType('OutboxMessage', { implements: NodeGql, description: 'An email or SMS message kept in the outbox instead of being sent' })
export class OutboxMessageGql {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'email or sms' }) channel!: string;
  @Field(() => String, { description: 'Email address or phone number' }) recipient!: string;
  @Field(() => String) subject!: string;
  @Field(() => String, { description: 'A token it carries is on a line of its own: `Token: <token>`' }) body!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
}

export const outboxMessageGql = (m: OutboxMessage): OutboxMessageGql => ({
  id: String(m.id),
  channel: m.channel,
  recipient: m.recipient,
  subject: m.subject,
  body: m.body,
  createdAt: rfc3339(m.createdAt),
  createdTime: m.createdAt,
});
