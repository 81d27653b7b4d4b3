import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Extensions, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { listItems } from '../../graphql/list-items';
import { NOTIFICATION_TYPES } from './notifications.entity';
import { registerNode } from '../../graphql/types/node';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import {
  MarkNotificationsAsReadInput,
  MarkNotificationsAsReadPayloadGql,
  NotificationCountGql,
  notificationCountGql,
  notificationGql,
  NotificationPageGql,
  notificationPageGql,
  RecordNotificationEventInput,
  RecordNotificationEventPayloadGql,
} from './notifications.types';
import { runsStatement } from '../../graphql/statement-cost';

type Recorded = Omit<RecordNotificationEventPayloadGql, 'userErrors'>;

registerNode('Notification', async (id, { ctx, services }) => notificationGql(await services.notifications.ownById(ctx, id)));

type Marked = Omit<MarkNotificationsAsReadPayloadGql, 'userErrors'>;

@Resolver()
export class NotificationsResolver {
  @Extensions(runsStatement())
  @Query(() => NotificationPageGql, { description: "GET /notifications: the caller's unread notifications, newest first by default" })
  async notifications(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('sort', () => String, { nullable: true, description: 'created_at, a leading - for descending; -created_at by default', deprecationReason: 'Use `viewer.notifications`' }) sort?: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'From 0', deprecationReason: 'Use `viewer.notifications`' }) page?: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1 to 100; 15 by default', deprecationReason: 'Use `viewer.notifications`' }) size?: number | null,
  ): Promise<NotificationPageGql> {
    const input = {
      ...(sort ? { sort: { key: sort.replace(/^-/, '') as 'created_at', desc: sort.startsWith('-') } } : {}),
      ...(page === null || page === undefined ? {} : { page }),
      ...(size === null || size === undefined ? {} : { size }),
    };
    return notificationPageGql(await services.notifications.list(ctx, input));
  }

  @Extensions(listItems(Object.keys(NOTIFICATION_TYPES).length))
  @Extensions(runsStatement())
  @Query(() => [NotificationCountGql], { description: "GET /counts: the caller's unread notifications counted per type (types with none left out)" })
  async notificationCounts(@Ctx() { ctx, services }: GraphQLContext): Promise<NotificationCountGql[]> {
    return (await services.notifications.counts(ctx)).map(notificationCountGql);
  }

  @Mutation(() => Boolean, { description: 'DELETE /notifications/{id}: marks one of the caller\'s notifications read', deprecationReason: 'Use markNotificationsAsRead' })
  async markNotificationRead(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.notifications.markRead(ctx, id);
    return true;
  }

  @Mutation(() => Boolean, { description: "POST /notifications: marks several of the caller's notifications read, all or none", deprecationReason: 'Use markNotificationsAsRead' })
  async markNotificationsRead(@Arg('ids', () => [ID]) ids: string[], @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.notifications.markManyRead(ctx, { ids });
    return true;
  }

  @Mutation(() => MarkNotificationsAsReadPayloadGql, { description: "Marks some of the caller's notifications read, all or none; a refusal is answered in userErrors" })
  async markNotificationsAsRead(
    @Arg('input', () => MarkNotificationsAsReadInput) input: MarkNotificationsAsReadInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<MarkNotificationsAsReadPayloadGql> {
    const { idempotencyKey, ids } = input;
    return payloadOf<Marked>({ notificationIds: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'markNotificationsAsRead', input: { ids } }, asStored<Marked>(), async () => {
        await services.notifications.markManyRead(ctx, { ids });
        return { notificationIds: ids };
      }),
    );
  }

  @Mutation(() => RecordNotificationEventPayloadGql, { description: 'POST /notifications/events: a platform reports a notification of type 9–14, 22, 23 or 27–29 for one of its accounts; a refusal is answered in userErrors' })
  async recordNotificationEvent(
    @Arg('input', () => RecordNotificationEventInput) input: RecordNotificationEventInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<RecordNotificationEventPayloadGql> {
    const { idempotencyKey, type, recipient, meta } = input;
    const call = { type, recipient, ...(meta ? { meta } : {}) };
    return payloadOf<Recorded>({ notificationId: null, recipientId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'recordNotificationEvent', input: call }, asStored<Recorded>(), async () => {
        const created = await services.notifications.report(ctx, call);
        return { notificationId: String(created.id), recipientId: created.recipient };
      }),
    );
  }

  @Mutation(() => Boolean, {
    description: 'POST /notifications/events: a platform reports a notification of type 9–14, 22, 23 or 27–29 for one of its accounts',
    deprecationReason: 'Use recordNotificationEvent',
  })
  async reportNotificationEvent(
    @Arg('type', () => Int) type: number,
    @Arg('recipient', () => String) recipient: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('meta', () => GraphQLJSONObject, { nullable: true, description: 'An object of strings' }) meta?: Record<string, unknown> | null,
  ): Promise<boolean> {
    await services.notifications.report(ctx, { type, recipient, ...(meta ? { meta } : {}) });
    return true;
  }
}
