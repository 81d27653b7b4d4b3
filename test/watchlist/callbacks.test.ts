import { Keypair } from '@stellar/stellar-sdk';
import { Callback } from '../../src/modules/watchlist/watchlist.entity';
import { blacklist } from '../blacklist/support';
import { appWithTwoPlatforms } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';

const world = appWithTwoPlatforms();
let stranger: CreatedAccount;

const request = (who: Keypair, lotId: string) => world.t.client.as(who).post(`/lots/${lotId}/callbacks`);
const remove = (who: Keypair, lotId: string, accountId: string) => world.t.client.as(who).delete(`/lots/${lotId}/callbacks/${accountId}`);
const callbackRows = (lotId: string) => world.t.orm.em.fork().find(Callback, { lotId }, { orderBy: { id: 'asc' } });

beforeAll(async () => {
  stranger = await createAccount(world.t, world.platform);
});

describe('POST /lots/{id}/callbacks', () => {
  it('records the request, answers it, and shows it in the lot to anyone', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.otherPlatform);
    const res = await request(buyer.keypair, lot.id);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/application\/vnd\.api\+json/);
    expect(res.body).toEqual({ data: { type: 'callbacks', id: expect.stringMatching(/^\d+$/), attributes: { account_id: buyer.id } } });
    const shown = await world.t.client.get(`/lots/${lot.id}`);
    expect(shown.body.data.relationships.callbacks.data).toEqual([{ type: 'callbacks', id: res.body.data.id }]);
    const listedAnon = await world.t.client.get(`/lots?filter[in]=${lot.id}`);
    expect(listedAnon.body.data[0].relationships.callbacks.data).toEqual([{ type: 'callbacks', id: res.body.data.id }]);
  });

  it('answers 409 callback_exists for a second request by the same account', async () => {
    const lot = await createLot(world.t, world.platform, DIRECT_SALE);
    const buyer = await createAccount(world.t, world.platform);
    expect((await request(buyer.keypair, lot.id)).status).toBe(201);
    const res = await request(buyer.keypair, lot.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409', code: 'callback_exists' });
    expect(await callbackRows(lot.id)).toHaveLength(1);
    // Another account may still ask.
    expect((await request(stranger.keypair, lot.id)).status).toBe(201);
    expect(await callbackRows(lot.id)).toHaveLength(2);
  });

  it('lets exactly one of five concurrent duplicate requests through', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    const base = Date.now();
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => world.t.client.post(`/lots/${lot.id}/callbacks`, undefined, { sign: { keypair: buyer.keypair, at: new Date(base + i) } })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect(answers.filter((r) => r.status === 409).every((r) => r.body.errors[0].code === 'callback_exists')).toBe(true);
    const rows = await callbackRows(lot.id);
    expect(rows.map((c) => c.accountId)).toEqual([buyer.id]);
    expect(answers.find((r) => r.status === 201)?.body.data.id).toBe(rows[0].id);
  });

  it('answers 401 unsigned', async () => {
    const lot = await createLot(world.t, world.platform);
    const res = await world.t.client.post(`/lots/${lot.id}/callbacks`);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
    expect(await callbackRows(lot.id)).toEqual([]);
  });

  it('answers 404 lot_not_found for an unknown or malformed lot id', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await request(stranger.keypair, id);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('lot_not_found');
    }
  });

  it('answers 403 account_paused to a paused account, after 401 and 404', async () => {
    const lot = await createLot(world.t, world.platform);
    const paused = await createAccount(world.t, world.platform);
    await blacklist(world.t, world.platform, paused.id, 'paused');
    const res = await request(paused.keypair, lot.id);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('account_paused');
    expect((await request(paused.keypair, '999999')).body.errors[0].code).toBe('lot_not_found');
    expect(await callbackRows(lot.id)).toEqual([]);
  });
});

describe('?include=callbacks', () => {
  let lotId: string;
  let requester: CreatedAccount;
  let callbackId: string;

  beforeAll(async () => {
    lotId = (await createLot(world.t, world.platform)).id;
    requester = await createAccount(world.t, world.otherPlatform, { attributes: { first_name: 'Nino', last_name: 'Beridze', phone_number: '+995555123456' } });
    callbackId = (await request(requester.keypair, lotId)).body.data.id;
  });

  const contact = () => ({
    type: 'callbacks',
    id: callbackId,
    attributes: { account_id: requester.id, lot_id: Number(lotId), email: requester.email, first_name: 'Nino', last_name: 'Beridze', phone_number: '+995555123456' },
  });

  it.each([
    ['the organizer', () => world.platform],
    ["an admin of the lot's publisher", () => world.admin.keypair],
    ['the requester', () => requester.keypair],
  ])('carries the contact fields for %s', async (_name, who) => {
    const res = await world.t.client.as(who()).get(`/lots/${lotId}?include=callbacks`);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.callbacks.data).toEqual([{ type: 'callbacks', id: callbackId }]);
    expect(res.body.included).toEqual([contact()]);
    const listed = await world.t.client.as(who()).get(`/lots?filter[in]=${lotId}&include=callbacks`);
    expect(listed.body.included).toEqual([contact()]);
  });

  it.each([
    ['an unrelated user', () => world.t.client.as(stranger.keypair)],
    ["another platform's admin", () => world.t.client.as(world.otherAdmin.keypair)],
    ['an anonymous caller', () => world.t.client],
  ])('hides them from %s, who still sees the relationship', async (_name, client) => {
    const res = await client().get(`/lots/${lotId}?include=callbacks`);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.callbacks.data).toEqual([{ type: 'callbacks', id: callbackId }]);
    expect(res.body.included).toEqual([]);
    expect(res.text).not.toContain(requester.email);
    expect(res.text).not.toContain('+995555123456');
  });
});

describe('DELETE /lots/{id}/callbacks/{account-id}', () => {
  it.each([
    ['the requester', (buyer: CreatedAccount) => buyer.keypair],
    ['the organizer', () => world.platform],
    ["an admin of the lot's publisher", () => world.admin.keypair],
  ])('lets %s delete it', async (_name, who) => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    await request(buyer.keypair, lot.id);
    await request(stranger.keypair, lot.id);
    const res = await remove(who(buyer), lot.id, buyer.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await callbackRows(lot.id)).map((c) => c.accountId)).toEqual([stranger.id]);
    const shown = await world.t.client.get(`/lots/${lot.id}`);
    expect(shown.body.data.relationships.callbacks.data).toHaveLength(1);
    // It can be asked for again.
    expect((await request(buyer.keypair, lot.id)).status).toBe(201);
  });

  it('answers 404 callback_not_found when there is none', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    for (const who of [buyer.keypair, world.platform]) {
      const res = await remove(who, lot.id, buyer.id);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('callback_not_found');
    }
    await request(buyer.keypair, lot.id);
    expect((await remove(buyer.keypair, lot.id, buyer.id)).status).toBe(204);
    expect((await remove(buyer.keypair, lot.id, buyer.id)).body.errors[0].code).toBe('callback_not_found');
  });

  it('answers 401 unsigned, 404 lot_not_found for an unknown lot, and 403 to anyone else', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    await request(buyer.keypair, lot.id);
    expect((await world.t.client.delete(`/lots/${lot.id}/callbacks/${buyer.id}`)).body.errors[0]).toMatchObject({ status: '401', code: 'unauthenticated' });
    for (const id of ['999999', 'abc']) {
      expect((await remove(buyer.keypair, id, buyer.id)).body.errors[0]).toMatchObject({ status: '404', code: 'lot_not_found' });
    }
    for (const who of [stranger.keypair, world.otherAdmin.keypair, world.otherPlatform]) {
      const res = await remove(who, lot.id, buyer.id);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_allowed');
    }
    // Permission comes first: a stranger cannot probe whether an account asked for a callback.
    expect((await remove(stranger.keypair, lot.id, Keypair.random().publicKey())).status).toBe(403);
    expect((await callbackRows(lot.id)).map((c) => c.accountId)).toEqual([buyer.id]);
  });
});

describe('GET /lots?filter[has_callbacks]', () => {
  it('tells lots with callbacks from lots without', async () => {
    const withOne = await createLot(world.t, world.platform);
    const withTwo = await createLot(world.t, world.platform, DIRECT_SALE);
    const without = await createLot(world.t, world.platform);
    const withdrawn = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    await request(buyer.keypair, withOne.id);
    await request(buyer.keypair, withTwo.id);
    await request(stranger.keypair, withTwo.id);
    await request(buyer.keypair, withdrawn.id);
    await remove(buyer.keypair, withdrawn.id, buyer.id);
    const ids = [withOne.id, withTwo.id, without.id, withdrawn.id].join(',');
    const listed = async (flag: string) => {
      const res = await world.t.client.get(`/lots?filter[in]=${ids}&filter[has_callbacks]=${flag}`);
      expect(res.status).toBe(200);
      return res.body.data.map((l: any) => l.id).sort();
    };
    expect(await listed('true')).toEqual([withOne.id, withTwo.id].sort());
    expect(await listed('false')).toEqual([without.id, withdrawn.id].sort());
    const count = await world.t.client.get(`/lots/count?filter[in]=${ids}&filter[has_callbacks]=true`);
    expect(count.body.data).toEqual({ type: 'lots_count', id: '2' });
    const bad = await world.t.client.get('/lots?filter[has_callbacks]=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[has_callbacks]' });
  });
});

describe('GraphQL callbacks', () => {
  const requestCallback = 'mutation($l: String!) { requestCallback(lotId: $l) { id lotId accountId createdAt } }';
  const deleteCallback = 'mutation($l: String!, $a: String!) { deleteCallback(lotId: $l, accountId: $a) }';

  it('requests and deletes through the same service', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(buyer.keypair).graphql(requestCallback, { l: lot.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requestCallback).toEqual({ id: expect.stringMatching(/^\d+$/), lotId: lot.id, accountId: buyer.id, createdAt: expect.stringMatching(/Z$/) });
    const shown = await world.t.client.get(`/lots/${lot.id}`);
    expect(shown.body.data.relationships.callbacks.data).toEqual([{ type: 'callbacks', id: res.body.data.requestCallback.id }]);
    const removed = await world.t.client.as(world.admin.keypair).graphql(deleteCallback, { l: lot.id, a: buyer.id });
    expect(removed.body.data.deleteCallback).toBe(true);
    expect(await callbackRows(lot.id)).toEqual([]);
  });

  it('answers the REST codes', async () => {
    const lot = await createLot(world.t, world.platform);
    const buyer = await createAccount(world.t, world.platform);
    const paused = await createAccount(world.t, world.platform);
    await blacklist(world.t, world.platform, paused.id, 'paused');
    await world.t.client.as(buyer.keypair).graphql(requestCallback, { l: lot.id });
    const cases: [Keypair | null, string, Record<string, unknown>, string, number][] = [
      [buyer.keypair, requestCallback, { l: lot.id }, 'callback_exists', 409],
      [null, requestCallback, { l: lot.id }, 'unauthenticated', 401],
      [buyer.keypair, requestCallback, { l: '999999' }, 'lot_not_found', 404],
      [paused.keypair, requestCallback, { l: lot.id }, 'account_paused', 403],
      [stranger.keypair, deleteCallback, { l: lot.id, a: buyer.id }, 'not_allowed', 403],
      [null, deleteCallback, { l: lot.id, a: buyer.id }, 'unauthenticated', 401],
      [world.platform, deleteCallback, { l: '999999', a: buyer.id }, 'lot_not_found', 404],
      [world.platform, deleteCallback, { l: lot.id, a: stranger.id }, 'callback_not_found', 404],
    ];
    for (const [who, query, variables, code, status] of cases) {
      const res = await (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code, status });
    }
    expect((await callbackRows(lot.id)).map((c) => c.accountId)).toEqual([buyer.id]);
  });
});
