import { GraphQLJSONObject } from 'graphql-scalars';
import { Extensions, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { rfc3339 } from '../../core/time';
import { NOTIFICATION_TYPE_CODES, typeStrOf, type Notification } from './notifications.entity';
import type { NotificationCount, NotificationPage } from './notifications.service';

/** The most notifications one call marks read (more are refused as too_many_items). */
export const MOST_MARKED_READ = 100;

/** The notification kinds, each named as its `typeStr` in capitals: one vocabulary with the codes the REST API sends. */
const NotificationKindGql = Object.fromEntries(NOTIFICATION_TYPE_CODES.map((c) => [typeStrOf(c).toUpperCase(), typeStrOf(c)])) as Record<string, string>;
registerEnumType(NotificationKindGql, { name: 'NotificationKind', description: 'What a notification says happened: the `type_str` of the REST API in capitals' });

@ObjectType('Notification', { implements: NodeGql, description: 'A notification to the caller: `kind` says what happened, `payload` about what' })
export class NotificationGql {
  @Field(() => ID) id!: string;
  @Field(() => NotificationKindGql, { description: 'What happened' }) kind!: string;
  @Field(() => Int, {
    description: 'The type code: 1 to 29 of the contract; 30 lot_extended, 32 reserve_not_met, 33 lot_lapsed, 34 second_chance_offered and 35 second_chance_answered of the platform rules (docs/auction-rules.md); 31 saved_search_matched (docs/saved-searches.md)',
    deprecationReason: 'Use `kind`',
  })
  type!: number;
  @Field(() => String, { deprecationReason: 'Use `kind`' }) typeStr!: string;
  @Field(() => GraphQLJSONObject, { description: 'An object of strings', deprecationReason: 'Use payload' }) meta!: Record<string, string>;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
}

@ObjectType('NotificationPage', { description: "One number/size page of the caller's unread notifications" })
export class NotificationPageGql {
  @Field(() => [NotificationGql]) items!: NotificationGql[];
  @Field(() => Int, { description: 'The count of every unread notification' }) totalItems!: number;
  @Field(() => Int, { description: 'The page number, from 0' }) page!: number;
  @Field(() => Int) size!: number;
}

@ObjectType('NotificationCount', { description: 'The count of unread notifications of one type' })
export class NotificationCountGql {
  @Field(() => NotificationKindGql) kind!: string;
  @Field(() => Int, { deprecationReason: 'Use `kind`' }) type!: number;
  @Field(() => String, { deprecationReason: 'Use `kind`' }) typeStr!: string;
  @Field(() => Int) count!: number;
}

export const notificationGql = (n: { id: string; type: number; meta: Record<string, string>; createdAt: Date }): NotificationGql => ({
  id: n.id,
  kind: typeStrOf(n.type),
  type: n.type,
  typeStr: typeStrOf(n.type),
  meta: n.meta,
  createdAt: rfc3339(n.createdAt),
  createdTime: n.createdAt,
});

export const notificationPageGql = (p: NotificationPage): NotificationPageGql => ({
  items: p.items.map((n: Notification) => notificationGql(n)),
  totalItems: p.total,
  page: p.page,
  size: p.size,
});

export const notificationCountGql = (c: NotificationCount): NotificationCountGql => ({ kind: typeStrOf(c.type), type: c.type, typeStr: typeStrOf(c.type), count: c.count });

@InputType('MarkNotificationsAsReadInput')
export class MarkNotificationsAsReadInput {
  @Field(() => [ID], { description: "The caller's notifications to mark read, at most 100: all or none" }) ids!: string[];
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('MarkNotificationsAsReadPayload')
export class MarkNotificationsAsReadPayloadGql {
  @Extensions(listItems(MOST_MARKED_READ))
  @Field(() => [ID], { nullable: true, description: 'The notifications marked read' }) notificationIds!: string[] | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RecordNotificationEventInput', { description: 'The event of POST /notifications/events' })
export class RecordNotificationEventInput {
  @Field(() => Int, { description: '9–14, 22, 23 or 27–29' }) type!: number;
  @Field(() => String, { description: "An account of the caller's platform" }) recipient!: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'An object of strings' }) meta?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('RecordNotificationEventPayload')
export class RecordNotificationEventPayloadGql {
  @Field(() => ID, { nullable: true, description: "The notification made; it is its recipient's to read" }) notificationId!: string | null;
  @Field(() => String, { nullable: true, description: 'The account notified' }) recipientId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
