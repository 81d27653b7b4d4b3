import { Keypair } from '@stellar/stellar-sdk';
import { appWithTwoPlatforms } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';

const world = appWithTwoPlatforms();
let user: CreatedAccount;
let stranger: CreatedAccount;
let lotIds: string[];

const starBody = (id: unknown, type = 'lots') => ({ data: { type, id } });
const star = (who: Keypair, accountId: string, lotId: unknown) => world.t.client.as(who).post(`/accounts/${accountId}/stars`, starBody(lotId));
const unstar = (who: Keypair, accountId: string, lotId: string) => world.t.client.as(who).delete(`/accounts/${accountId}/stars/${lotId}`);

/** The ids GET /lots lists for the filter, in any order; signed by the platform's staff unless `who` is given. */
async function listed(query: string, who?: Keypair): Promise<string[]> {
  const client = world.t.client.as(who ?? world.platform);
  const res = await client.get(`/lots?${query}&page[limit]=100`);
  expect(res.status).toBe(200);
  return res.body.data.map((l: any) => l.id).sort();
}

beforeAll(async () => {
  user = await createAccount(world.t, world.platform);
  stranger = await createAccount(world.t, world.platform);
  lotIds = [];
  for (let i = 0; i < 4; i++) lotIds.push((await createLot(world.t, world.platform, i % 2 ? DIRECT_SALE : undefined)).id);
});

describe('POST /accounts/{id}/stars', () => {
  it('adds a lot to the watchlist and answers the entry', async () => {
    const owner = await createAccount(world.t, world.platform);
    const res = await star(owner.keypair, owner.id, lotIds[0]);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/application\/vnd\.api\+json/);
    expect(res.body).toEqual({ data: { type: 'lots', id: lotIds[0], attributes: { account_id: owner.id } } });
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[0]]);
  });

  it('accepts the lot id as a JSON integer', async () => {
    const owner = await createAccount(world.t, world.platform);
    const res = await star(owner.keypair, owner.id, Number(lotIds[1]));
    expect(res.status).toBe(201);
    expect(res.body.data.id).toBe(lotIds[1]);
  });

  it("lets staff of the account's platform manage it", async () => {
    const owner = await createAccount(world.t, world.platform);
    expect((await star(world.admin.keypair, owner.id, lotIds[0])).status).toBe(201);
    expect((await star(world.platform, owner.id, lotIds[1])).status).toBe(201);
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[0], lotIds[1]].sort());
    expect((await unstar(world.admin.keypair, owner.id, lotIds[0])).status).toBe(204);
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[1]]);
  });

  it('answers 409 star_exists when the lot is already in the watchlist', async () => {
    const owner = await createAccount(world.t, world.platform);
    expect((await star(owner.keypair, owner.id, lotIds[2])).status).toBe(201);
    const res = await star(owner.keypair, owner.id, lotIds[2]);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409', code: 'star_exists' });
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[2]]);
  });

  it('answers 401 unsigned', async () => {
    const res = await world.t.client.post(`/accounts/${user.id}/stars`, starBody(lotIds[0]));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it('answers 404 account_not_found for an unknown account, before the permission', async () => {
    const res = await star(user.keypair, Keypair.random().publicKey(), lotIds[0]);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('account_not_found');
  });

  it.each([
    ['another user', () => stranger.keypair],
    ["another platform's admin", () => world.otherAdmin.keypair],
    ['another platform', () => world.otherPlatform],
  ])('answers 403 not_allowed to %s', async (_name, who) => {
    const res = await star(who(), user.id, lotIds[0]);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    expect(await listed(`filter[stars_of]=${user.id}`)).toEqual([]);
  });

  it('answers 404 lot_not_found for an unknown lot', async () => {
    const res = await star(user.keypair, user.id, '999999');
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'lot_not_found', source: { pointer: '/data/id' } });
  });

  it.each([
    ['another data.type', starBody('1', 'accounts'), 'invalid_field', '/data/type'],
    ['no data.id', { data: { type: 'lots' } }, 'missing_field', '/data/id'],
    ['a data.id that is no lot id', starBody('abc'), 'invalid_field', '/data/id'],
    ['a negative data.id', starBody(-1), 'invalid_field', '/data/id'],
    ['no data', {}, 'missing_field', '/data'],
  ])('answers 400 for %s', async (_name, body, code, pointer) => {
    const res = await world.t.client.as(user.keypair).post(`/accounts/${user.id}/stars`, body);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code, source: { pointer } });
  });

  it('answers 400 missing_body without a body', async () => {
    const res = await world.t.client.as(user.keypair).post(`/accounts/${user.id}/stars`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('missing_body');
  });
});

describe('DELETE /accounts/{id}/stars/{lot-id}', () => {
  it('takes the lot off the watchlist', async () => {
    const owner = await createAccount(world.t, world.platform);
    await star(owner.keypair, owner.id, lotIds[0]);
    await star(owner.keypair, owner.id, lotIds[1]);
    const res = await unstar(owner.keypair, owner.id, lotIds[0]);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[1]]);
  });

  it('answers 404 star_not_found when the lot is not in the watchlist', async () => {
    const owner = await createAccount(world.t, world.platform);
    for (const lotId of [lotIds[3], '999999', 'abc']) {
      const res = await unstar(owner.keypair, owner.id, lotId);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('star_not_found');
    }
    await star(owner.keypair, owner.id, lotIds[3]);
    expect((await unstar(owner.keypair, owner.id, lotIds[3])).status).toBe(204);
    expect((await unstar(owner.keypair, owner.id, lotIds[3])).body.errors[0].code).toBe('star_not_found');
  });

  it('answers 401 unsigned, 404 for an unknown account and 403 to anyone else', async () => {
    const owner = await createAccount(world.t, world.platform);
    await star(owner.keypair, owner.id, lotIds[0]);
    expect((await world.t.client.delete(`/accounts/${owner.id}/stars/${lotIds[0]}`)).body.errors[0]).toMatchObject({ status: '401', code: 'unauthenticated' });
    expect((await unstar(owner.keypair, Keypair.random().publicKey(), lotIds[0])).body.errors[0]).toMatchObject({ status: '404', code: 'account_not_found' });
    for (const who of [stranger.keypair, world.otherAdmin.keypair]) {
      const res = await unstar(who, owner.id, lotIds[0]);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_allowed');
    }
    // A stranger learns nothing about a star that does not exist either.
    expect((await unstar(stranger.keypair, owner.id, lotIds[2])).status).toBe(403);
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[0]]);
  });
});

describe('GET /lots with stars', () => {
  it('lists exactly the watchlist with filter[stars_of] to the account and its platform staff only', async () => {
    const a = await createAccount(world.t, world.platform);
    const b = await createAccount(world.t, world.platform);
    await star(a.keypair, a.id, lotIds[0]);
    await star(a.keypair, a.id, lotIds[3]);
    await star(b.keypair, b.id, lotIds[1]);
    expect(await listed(`filter[stars_of]=${a.id}`)).toEqual([lotIds[0], lotIds[3]].sort());
    expect(await listed(`filter[stars_of]=${b.id}`, b.keypair)).toEqual([lotIds[1]]);
    const count = await world.t.client.as(world.platform).get(`/lots/count?filter[stars_of]=${a.id}`);
    expect(count.body.data).toEqual({ type: 'lots_count', id: '2' });
    expect((await world.t.client.get(`/lots?filter[stars_of]=${a.id}`)).status).toBe(401);
    expect((await world.t.client.as(b.keypair).get(`/lots?filter[stars_of]=${a.id}`)).status).toBe(403);
    expect((await world.t.client.as(world.otherPlatform).get(`/lots?filter[stars_of]=${a.id}`)).status).toBe(403);
  });

  it('shows ?include=stars to the lot organizer and the starring account, not to others', async () => {
    const lot = await createLot(world.t, world.platform);
    const fan = await createAccount(world.t, world.platform);
    await star(fan.keypair, fan.id, lot.id);
    const starOf = { type: 'stars', id: `${lot.id}-${fan.id}`, attributes: { account_id: fan.id, lot_id: Number(lot.id), created_at: expect.stringMatching(/Z$/) } };
    for (const who of [world.platform, world.admin.keypair, fan.keypair]) {
      const res = await world.t.client.as(who).get(`/lots/${lot.id}?include=stars`);
      expect(res.status).toBe(200);
      expect(res.body.data.relationships.stars.data).toEqual([{ type: 'stars', id: starOf.id }]);
      expect(res.body.included).toEqual([starOf]);
    }
    for (const client of [world.t.client.as(stranger.keypair), world.t.client.as(world.otherAdmin.keypair), world.t.client]) {
      const res = await client.get(`/lots/${lot.id}?include=stars`);
      expect(res.status).toBe(200);
      expect(res.body.data.relationships.stars.data).toEqual([]);
      expect(res.body.included).toEqual([]);
    }
  });
});

describe('GraphQL watchlist', () => {
  const starLot = 'mutation($a: String!, $l: String!) { starLot(accountId: $a, lotId: $l) { accountId lotId createdAt } }';
  const unstarLot = 'mutation($a: String!, $l: String!) { unstarLot(accountId: $a, lotId: $l) }';
  const watchlist = 'query($a: String!) { watchlist(accountId: $a) { lotId accountId } }';

  it('stars, lists and unstars through the same service', async () => {
    const owner = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(owner.keypair).graphql(starLot, { a: owner.id, l: lotIds[2] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.starLot).toEqual({ accountId: owner.id, lotId: lotIds[2], createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) });
    await world.t.client.as(owner.keypair).graphql(starLot, { a: owner.id, l: lotIds[0] });
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[0], lotIds[2]].sort());

    const list = await world.t.client.as(world.admin.keypair).graphql(watchlist, { a: owner.id });
    expect(list.body.data.watchlist.map((e: any) => e.lotId).sort()).toEqual([lotIds[0], lotIds[2]].sort());
    expect(list.body.data.watchlist.every((e: any) => e.accountId === owner.id)).toBe(true);

    const removed = await world.t.client.as(owner.keypair).graphql(unstarLot, { a: owner.id, l: lotIds[2] });
    expect(removed.body.data.unstarLot).toBe(true);
    expect((await world.t.client.as(owner.keypair).graphql(watchlist, { a: owner.id })).body.data.watchlist).toEqual([{ lotId: lotIds[0], accountId: owner.id }]);
  });

  it('answers the REST codes', async () => {
    const owner = await createAccount(world.t, world.platform);
    await world.t.client.as(owner.keypair).graphql(starLot, { a: owner.id, l: lotIds[1] });
    const cases: [Keypair | null, string, Record<string, unknown>, string, number][] = [
      [owner.keypair, starLot, { a: owner.id, l: lotIds[1] }, 'star_exists', 409],
      [null, starLot, { a: owner.id, l: lotIds[0] }, 'unauthenticated', 401],
      [stranger.keypair, starLot, { a: owner.id, l: lotIds[0] }, 'not_allowed', 403],
      [owner.keypair, starLot, { a: Keypair.random().publicKey(), l: lotIds[0] }, 'account_not_found', 404],
      [owner.keypair, starLot, { a: owner.id, l: '999999' }, 'lot_not_found', 404],
      [owner.keypair, starLot, { a: owner.id, l: 'abc' }, 'invalid_field', 400],
      [owner.keypair, unstarLot, { a: owner.id, l: lotIds[3] }, 'star_not_found', 404],
      [stranger.keypair, unstarLot, { a: owner.id, l: lotIds[1] }, 'not_allowed', 403],
      [null, unstarLot, { a: owner.id, l: lotIds[1] }, 'unauthenticated', 401],
      [stranger.keypair, watchlist, { a: owner.id }, 'not_allowed', 403],
      [null, watchlist, { a: owner.id }, 'unauthenticated', 401],
      [owner.keypair, watchlist, { a: Keypair.random().publicKey() }, 'account_not_found', 404],
    ];
    for (const [who, query, variables, code, status] of cases) {
      const res = await (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code, status });
    }
    const malformed = await world.t.client.as(owner.keypair).graphql(starLot, { a: owner.id, l: 'abc' });
    expect(malformed.body.errors[0].extensions.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field: 'lotId' })]);
    expect(await listed(`filter[stars_of]=${owner.id}`)).toEqual([lotIds[1]]);
  });
});
