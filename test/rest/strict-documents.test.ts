import { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';

// A request document is read whole (src/rest/body-attributes.ts, src/rest/router.ts): a member
// nested in an attribute, a top-level member or a whole body the operation would not read is
// refused, named where the client wrote it, before the operation runs; never dropped.
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const user: CreatedAccount = await createAccount(t, platform);
  const outsider: CreatedAccount = await createAccount(t, await createPlatform(t));
  return { platform, user, outsider };
});

const CREATE_LOT = `mutation ($input: CreateLotInput!) { createLot(input: $input) { lotId requestId } }`;
const lotCount = () => world.t.orm.em.fork().count(Lot, { organizerId: world.platform.publicKey() });

describe('a member nested in an attribute that its object does not have', () => {
  it("is refused in a lot's details on POST /lots, with the nearest member, and no lot is made", async () => {
    const { t, platform } = world;
    const before = await lotCount();
    const res = await t.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, details: { ...ENG_LOT.details, colour: 'red' } } } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', source: { pointer: '/data/attributes/details/colour' } })]);
    expect(res.body.errors[0].detail).toMatch(/^colour is not a member of details \(did you mean color\?\); its members: country, year, maker, model, /);
    expect(await lotCount()).toBe(before);
  });

  it("is refused by GraphQL's createLot, whose details are a JSON object, naming the field dotted", async () => {
    const { t, platform } = world;
    const before = await lotCount();
    const input = { type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '5000', deposit: '100', minStep: '50', maxStep: '500', duration: 86400, details: { ...ENG_LOT.details, colour: 'red' } };
    const res = await t.client.graphql(CREATE_LOT, { input }, { sign: { keypair: platform } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ code: 'invalid_field', field: 'details.colour' }] });
    expect(res.body.errors[0].extensions.errors[0].detail).toMatch(/^details\.colour is not a field of details \(did you mean color\?\); its fields: country, /);
    expect(await lotCount()).toBe(before);
    const made = await t.client.graphql(CREATE_LOT, { input: { ...input, details: ENG_LOT.details } }, { sign: { keypair: platform } });
    expect(made.body.errors).toBeUndefined();
    expect(await lotCount()).toBe(before + 1);
  });

  it("is refused in a rule's bands and deposit at any depth, as written, and the rules stay as they were", async () => {
    const { t, platform } = world;
    const path = `/platforms/${platform.publicKey()}/rules`;
    const before = (await t.client.as(platform).get(path)).body.data.attributes;
    const attributes = { increments: [{ up_to: '500', min_step: '10', extra: 1 }, { upTo: null, min_step: '20' }], deposit: { percnt: '10' }, buyer_fees: [{ up_to: null, fixed: '5' }] };
    const res = await t.client.as(platform).patch(path, { data: { type: 'platform_rules', id: platform.publicKey(), attributes } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer])).toEqual([
      ['invalid_field', '/data/attributes/increments/0/extra'],
      ['invalid_field', '/data/attributes/increments/1/upTo'],
      ['invalid_field', '/data/attributes/deposit/percnt'],
    ]);
    expect(res.body.errors[1].detail).toBe('upTo is not a member of increments/1 (did you mean up_to?); its members: up_to, min_step, max_step');
    expect(res.body.errors[2].detail).toBe('percnt is not a member of deposit (did you mean percent?); its members: fixed, percent, floor');
    expect((await t.client.as(platform).get(path)).body.data.attributes).toEqual(before);
  });

  it('is refused before the caller is found to have no right to the operation (400 before 403)', async () => {
    const { t, platform, outsider } = world;
    const attributes = { increments: [{ up_to: null, min_step: '10', extra: 1 }] };
    const res = await t.client.as(outsider.keypair).patch(`/platforms/${platform.publicKey()}/rules`, { data: { type: 'platform_rules', id: platform.publicKey(), attributes } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/increments/0/extra' });
    const { extra: _, ...band } = attributes.increments[0];
    expect((await t.client.as(outsider.keypair).patch(`/platforms/${platform.publicKey()}/rules`, { data: { type: 'platform_rules', id: platform.publicKey(), attributes: { increments: [band] } } })).status).toBe(403);
  });
});

describe('a top-level member of a request document', () => {
  it('other than data, meta, jsonapi and links is refused, naming it and the nearest member', async () => {
    const { t, user } = world;
    const res = await t.client.as(user.keypair).patch(`/accounts/${user.id}`, { date: { type: 'accounts', id: user.id, attributes: { first_name: 'Lost' } } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ code: 'invalid_field', detail: 'date is not a member of a request document (did you mean data?); its members: data, meta, jsonapi, links', source: { pointer: '/date' } }),
    ]);
    expect((await t.client.as(user.keypair).get(`/accounts/${user.id}`)).body.data.attributes.first_name).not.toBe('Lost');
  });

  it('is refused beside data too (included, which no operation reads), on a saved search, and nothing is saved', async () => {
    const { t, user } = world;
    const path = `/accounts/${user.id}/saved_searches`;
    const res = await t.client.as(user.keypair).post(path, { data: { type: 'saved_searches', attributes: { filter: { maker: 'Toyota' } } }, included: [{ type: 'lots', id: '1' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', source: { pointer: '/included' } })]);
    expect((await t.client.as(user.keypair).get(path)).body.data).toEqual([]);
  });

  it('meta, jsonapi and links, which JSON:API lets any document carry about itself, are taken', async () => {
    const { t, user } = world;
    const document = { jsonapi: { version: '1.1' }, meta: { sent_by: 'a test' }, links: { self: '/accounts' }, data: { type: 'accounts', id: user.id, attributes: { first_name: 'Kept' } } };
    const res = await t.client.as(user.keypair).patch(`/accounts/${user.id}`, document);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.first_name).toBe('Kept');
  });
});

describe('a body sent to an operation that takes none', () => {
  it('is refused by every such operation, before it runs, as unexpected_body', async () => {
    const { t, user } = world;
    const routes = t.app.router.jsonApiOperations.filter((r) => r.options.body === undefined);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => r.method === 'delete').length).toBeGreaterThan(5);
    const answers: string[] = [];
    for (const route of routes) {
      const target = route.path.replace(/:[a-zA-Z]+/g, '1');
      const keypair = route.options.authenticated === 'key' ? Keypair.random() : user.keypair;
      const res = await t.client.request(route.method.toUpperCase(), target, { body: {}, sign: { keypair } });
      const refusal = (res.body?.errors ?? []).find((e: { code?: string }) => e.code === 'unexpected_body');
      answers.push(`${route.method.toUpperCase()} ${route.path}: ${res.status} ${refusal ? `${refusal.code} ${JSON.stringify(refusal.source)}` : JSON.stringify(res.body?.errors?.[0] ?? null)}`);
    }
    expect(answers.filter((a) => !a.endsWith(': 400 unexpected_body {"pointer":""}'))).toEqual([]);
  });

  it('leaves the resource as it was (DELETE of a saved search), which the same request without a body deletes', async () => {
    const { t, user } = world;
    const created = await t.client.as(user.keypair).post(`/accounts/${user.id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter: { maker: 'BMW' } } } });
    expect(created.status).toBe(201);
    const path = `/accounts/${user.id}/saved_searches/${created.body.data.id}`;
    const refused = await t.client.request('DELETE', path, { body: { data: { type: 'saved_searches', id: created.body.data.id } }, sign: { keypair: user.keypair } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'unexpected_body', source: { pointer: '' } })]);
    expect((await t.client.as(user.keypair).get(`/accounts/${user.id}/saved_searches`)).body.data.map((s: { id: string }) => s.id)).toContain(created.body.data.id);
    expect((await t.client.request('DELETE', path, { sign: { keypair: user.keypair } })).status).toBe(204);
  });
});
