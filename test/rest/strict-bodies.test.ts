import { Keypair } from '@stellar/stellar-sdk';
import type { BodySpec } from '../../src/rest/router';
import { appWithPlatform } from '../helpers/world';

// Every JSON:API request body is read strictly, in one place (src/rest/body-attributes.ts): an
// attribute the operation does not take is refused, named as the client wrote it, never dropped.
const world = appWithPlatform({ accounts: 1 });

const UNKNOWN = 'no_such_attribute';

describe('a request body with an attribute the operation does not take', () => {
  it('is refused by every operation that reads a body, before the operation runs, naming the attribute', async () => {
    const { t, accounts } = world;
    const [user] = accounts;
    const routes = t.app.router.jsonApiOperations.filter((r) => r.options.body !== undefined && r.options.body !== 'multipart');
    expect(routes.length).toBeGreaterThan(25);
    const answers: string[] = [];
    for (const route of routes) {
      const body = route.options.body as BodySpec;
      const resource = { type: body.type, id: '1', attributes: { [UNKNOWN]: 1 } };
      const target = route.path.replace(/:[a-zA-Z]+/g, '1');
      const keypair = route.options.authenticated === 'key' ? Keypair.random() : user.keypair;
      const res = await t.client.request(route.method.toUpperCase(), target, { body: { data: body.list ? [resource] : resource }, sign: { keypair } });
      const pointer = `/data${body.list ? '/0' : ''}/attributes/${UNKNOWN}`;
      const refusal = (res.body?.errors ?? []).find((e: { source?: { pointer?: string } }) => e.source?.pointer === pointer);
      answers.push(`${route.method.toUpperCase()} ${route.path}: ${res.status} ${refusal?.code ?? JSON.stringify(res.body?.errors?.[0] ?? null)}`);
      if (refusal) expect(refusal.detail).toMatch(new RegExp(`^${UNKNOWN} is not an attribute of ${body.type}`));
    }
    expect(answers.filter((a) => !a.endsWith(': 400 invalid_field'))).toEqual([]);
  });

  it('names a camelCased attribute as written and the wire name meant (PATCH /lots)', async () => {
    const { t, accounts } = world;
    const res = await t.client.patch('/lots/1', { data: { type: 'lots', attributes: { reservePrice: '10.00' } } }, { sign: { keypair: accounts[0].keypair } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        code: 'invalid_field',
        detail: 'reservePrice is not an attribute of lots (did you mean reserve_price?); its attributes: reserve_price',
        source: { pointer: '/data/attributes/reservePrice' },
      }),
    ]);
  });

  it('refuses the read-only attributes of an account on PATCH, naming each, and changes nothing', async () => {
    const { t, accounts } = world;
    const [user] = accounts;
    const sign = { sign: { keypair: user.keypair } };
    const before = await t.client.get(`/accounts/${user.id}`, sign);
    const res = await t.client.patch(`/accounts/${user.id}`, { data: { type: 'accounts', id: user.id, attributes: { first_name: 'Changed', platform_id: Keypair.random().publicKey(), account_type: 5 } } }, sign);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { code: string; source: unknown }) => [e.code, e.source])).toEqual([
      ['invalid_field', { pointer: '/data/attributes/platform_id' }],
      ['invalid_field', { pointer: '/data/attributes/account_type' }],
    ]);
    expect(res.body.errors[0].detail).toMatch(/^platform_id is read-only: this operation does not change it; its attributes: .*first_name/);
    const after = await t.client.get(`/accounts/${user.id}`, sign);
    expect(after.body.data.attributes).toEqual(before.body.data.attributes);
    expect((await t.client.patch(`/accounts/${user.id}`, { data: { type: 'accounts', id: user.id, attributes: { first_name: 'Changed' } } }, sign)).status).toBe(200);
  });

  it('refuses relationships, which no operation reads', async () => {
    const { t, accounts } = world;
    const [user] = accounts;
    const res = await t.client.patch(`/accounts/${user.id}`, { data: { type: 'accounts', id: user.id, attributes: {}, relationships: { platform: { data: { type: 'accounts', id: 'x' } } } } }, { sign: { keypair: user.keypair } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', source: { pointer: '/data/relationships' } })]);
  });

  it('refuses a member a resource object does not have, whose attributes would be lost, naming the member meant', async () => {
    const { t, accounts } = world;
    const [user] = accounts;
    const res = await t.client.patch(`/accounts/${user.id}`, { data: { type: 'accounts', id: user.id, atributes: { first_name: 'Lost' } } }, { sign: { keypair: user.keypair } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ code: 'invalid_field', detail: 'atributes is not a member of a resource (did you mean attributes?); its members: type, id, attributes', source: { pointer: '/data/atributes' } }),
    ]);
    expect((await t.client.get(`/accounts/${user.id}`, { sign: { keypair: user.keypair } })).body.data.attributes.first_name).not.toBe('Lost');
  });
});
