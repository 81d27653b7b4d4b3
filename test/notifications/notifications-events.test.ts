import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { listen, trust } from './notifications.helpers';

let t: TestApp;
let platform: Keypair;
let user: CreatedAccount;
beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  user = await createAccount(t, platform);
});
afterAll(() => t.close());

const event = (attributes: Record<string, unknown>) => ({ data: { type: 'notification_events', attributes } });
const report = (as: Keypair, body: unknown) => t.client.as(as).post('/notifications/events', body);

describe('POST /notifications/events', () => {
  it.each([9, 10, 11, 12, 13, 14, 22, 23, 27, 28, 29])('lets a platform report type %i for its user', async (type) => {
    const recipient = await createAccount(t, platform);
    const heard = listen(t, recipient.id);
    const res = await report(platform, event({ type, recipient: recipient.id, meta: { request_id: '12', lot_id: '3' } }));
    heard.stop();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await t.client.as(recipient.keypair).get('/notifications');
    expect(list.body.data).toEqual([
      { type: 'notifications', id: heard.heard[0].id, attributes: expect.objectContaining({ type, meta: { request_id: '12', lot_id: '3' } }) },
    ]);
    expect(heard.heard).toHaveLength(1);
  });

  it('names the type in type_str and takes a missing meta as empty', async () => {
    const recipient = await createAccount(t, platform);
    expect((await report(platform, event({ type: 28, recipient: recipient.id }))).status).toBe(204);
    const list = await t.client.as(recipient.keypair).get('/notifications');
    expect(list.body.data[0].attributes).toMatchObject({ type: 28, type_str: 'financing_approved', meta: {} });
  });

  it('reaches the platform itself, its admins and admins of other platforms that trust it', async () => {
    const admin = await createAccount(t, platform, { type: 'admin' });
    const trusting = await createAccount(t, await createPlatform(t), { type: 'admin' });
    await trust(t, trusting.id, platform.publicKey());
    for (const recipient of [platform.publicKey(), admin.id, trusting.id]) {
      const res = await report(platform, event({ type: 22, recipient, meta: { request_id: '1', lot_id: '2' } }));
      expect(res.status).toBe(204);
    }
    const counts = await t.client.as(admin.keypair).get('/counts');
    expect(counts.body.data).toEqual([{ type: 'notifications', id: '22', attributes: { count: 1, type_str: 'look_live_request' } }]);
  });

  it.each([
    ['a user', () => user.keypair],
    ['an admin', async () => (await createAccount(t, platform, { type: 'admin' })).keypair],
    ['a broker', async () => (await createAccount(t, platform, { type: 'broker' })).keypair],
  ])('answers 403 not_allowed to %s, even for a malformed body', async (_name, who) => {
    const caller = await who();
    const res = await report(caller, event({ type: 9, recipient: user.id, meta: { request_id: '1' } }));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    const malformed = await report(caller, { data: { type: 'wrong' } });
    expect(malformed.status).toBe(403);
    expect((await t.client.as(user.keypair).get('/counts')).body.data).toEqual([]);
  });

  it('answers 401 without authentication, before the body', async () => {
    const res = await t.client.post('/notifications/events', { nonsense: true });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it.each([
    ['a type emitted by the service itself', { type: 6, recipient: 'U', meta: {} }, 'invalid_field', '/data/attributes/type'],
    ['an unknown type', { type: 30, recipient: 'U' }, 'invalid_field', '/data/attributes/type'],
    ['a type given as a string', { type: '9', recipient: 'U' }, 'invalid_field', '/data/attributes/type'],
    ['a fractional type', { type: 9.5, recipient: 'U' }, 'invalid_field', '/data/attributes/type'],
    ['no type', { recipient: 'U' }, 'missing_field', '/data/attributes/type'],
    ['no recipient', { type: 9 }, 'missing_field', '/data/attributes/recipient'],
    ['a recipient that is no string', { type: 9, recipient: 5 }, 'invalid_field', '/data/attributes/recipient'],
    ['meta that is no object', { type: 9, recipient: 'U', meta: 'lot 1' }, 'invalid_field', '/data/attributes/meta'],
    ['meta that is an array', { type: 9, recipient: 'U', meta: ['1'] }, 'invalid_field', '/data/attributes/meta'],
    ['a meta value that is no string', { type: 9, recipient: 'U', meta: { request_id: 12 } }, 'invalid_field', '/data/attributes/meta/request_id'],
    ['more than 20 meta keys', { type: 9, recipient: 'U', meta: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, 'invalid_field', '/data/attributes/meta'],
  ])('answers 400 for %s', async (_name, attributes: Record<string, unknown>, code, pointer) => {
    const attrs = { ...attributes, ...(attributes.recipient === 'U' ? { recipient: user.id } : {}) };
    const res = await report(platform, event(attrs));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code, source: { pointer } })]);
  });

  it('answers 400 for a malformed document', async () => {
    const wrongType = await report(platform, { data: { type: 'notifications', attributes: { type: 9, recipient: user.id } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/type' } });
    const none = await report(platform, undefined);
    expect(none.status).toBe(400);
    expect(none.body.errors[0].code).toBe('missing_body');
  });

  it("answers 400 recipient_not_found for an unknown account, another platform's account or the master account", async () => {
    const stranger = await createAccount(t, await createPlatform(t));
    const unknown = Keypair.random().publicKey();
    for (const recipient of ['GNOSUCHACCOUNT', unknown, stranger.id, t.master.publicKey()]) {
      const res = await report(platform, event({ type: 27, recipient, meta: { lot_id: '1' } }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ code: 'recipient_not_found', source: { pointer: '/data/attributes/recipient' } })]);
    }
    expect((await t.client.as(stranger.keypair).get('/counts')).body.data).toEqual([]);
  });
});
