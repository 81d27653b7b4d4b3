import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';

/**
 * Cursors are opaque, not sealed: a client can decode one and write another position into it.
 * A position's time was checked against a pattern of digits only, so a 30 February or a month 13
 * reached PostgreSQL's cast, which refused it: 500 `internal_error` for a client's bad input,
 * over GraphQL's connections (a `Viewer` list) and REST's keyset listings (`/lots?sort=start_time`).
 */
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const viewer = await createAccount(t, platform);
  await createLot(t, platform, ENG_LOT);
  const em = t.orm.em.fork();
  em.create(Notification, { recipient: viewer.id, type: NotificationType.Overbid, meta: {} });
  await em.flush();
  return { viewer };
});

const NOT_A_DAY = ['2026-02-30T00:00:00.000000Z', '2026-13-01T00:00:00.000000Z', '2026-01-01T25:00:00.000000Z', '0000-01-01T00:00:00.000000Z'];

const NOTIFICATIONS = 'query($after: String) { viewer { notifications(first: 1, after: $after) { nodes { id } pageInfo { endCursor } } } }';

/** A connection's cursor with its position's time replaced: `c1 NUL list NUL time|id`. */
function withTime(cursor: string, time: string): string {
  const [form, list, position] = Buffer.from(cursor, 'base64url').toString('utf8').split('\u0000');
  return Buffer.from([form, list, position.replace(/^[^|]+/, time)].join('\u0000'), 'utf8').toString('base64url');
}

it.each(NOT_A_DAY)("refuses a connection's cursor whose time is no calendar time (%s) as invalid_cursor naming `after`", async (time) => {
  const client = world.t.client.as(world.viewer.keypair);
  const first = await client.graphql(NOTIFICATIONS);
  expect(first.body.errors).toBeUndefined();
  const cursor = first.body.data.viewer.notifications.pageInfo.endCursor as string;
  const res = await client.graphql(NOTIFICATIONS, { after: withTime(cursor, time) });
  expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_cursor', errors: [expect.objectContaining({ field: 'after' })] });
});

it.each(NOT_A_DAY)("refuses a listing's page[cursor] whose time is no calendar time (%s) with 400 invalid_cursor", async (time) => {
  const forged = Buffer.from(JSON.stringify(['start_time', time, '1', 1])).toString('base64url');
  const res = await world.t.client.get(`/lots?sort=start_time&page[cursor]=${forged}`);
  expect(res.status).toBe(400);
  expect(res.body.errors[0]).toMatchObject({ code: 'invalid_cursor', source: { parameter: 'page[cursor]' } });
});
