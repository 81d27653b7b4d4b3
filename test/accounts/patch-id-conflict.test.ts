import { createAccount, type CreatedAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();
let a: CreatedAccount;
let b: CreatedAccount;
beforeAll(async () => {
  a = await createAccount(world.t, world.platform);
  b = await createAccount(world.t, world.platform);
});

describe('PATCH /accounts/{id} with a body data.id', () => {
  it('answers 409 id_mismatch when data.id names another account, and changes neither', async () => {
    const res = await world.t.client.as(world.platform).patch(`/accounts/${a.id}`, { data: { type: 'accounts', id: b.id, attributes: { city: 'Batumi' } } });
    expect(res.status).toBe(409);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    expect(res.body.errors[0]).toMatchObject({ status: '409', code: 'id_mismatch', source: { pointer: '/data/id' } });
    for (const who of [a, b]) expect((await world.t.client.as(world.platform).get(`/accounts/${who.id}`)).body.data.attributes.city).not.toBe('Batumi');
  });

  it('takes a data.id that names the account of the path, and none', async () => {
    const same = await world.t.client.as(a.keypair).patch(`/accounts/${a.id}`, { data: { type: 'accounts', id: a.id, attributes: { city: 'Gori' } } });
    expect(same.status).toBe(200);
    expect(same.body.data.attributes.city).toBe('Gori');
    const none = await world.t.client.as(a.keypair).patch(`/accounts/${a.id}`, { data: { type: 'accounts', attributes: { city: 'Kutaisi' } } });
    expect(none.status).toBe(200);
  });
});
