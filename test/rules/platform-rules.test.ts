import { Bid } from '../../src/modules/bids/bids.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { bid, patchRules, seat, setRules } from './rules.helpers';

// Each test that sets rules uses a platform of its own: rules apply per platform.
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const user = await createAccount(t, platform);
  return { platform, user };
});

const RULES = /* GraphQL */ `query ($id: ID!) { platformRules(platformId: $id) { platformId version increments { upTo minStep maxStep } minDuration maxDuration maxLotsPerSeller deposit { fixed percent floor } buyerFees { upTo fixed percent } } }`;
const UPDATE = /* GraphQL */ `mutation ($id: ID!, $rules: PlatformRulesInput!) { updatePlatformRules(platformId: $id, rules: $rules) { version increments { upTo minStep maxStep } deposit { fixed percent floor } minDuration maxDuration } }`;

describe('GET/PATCH /platforms/{id}/rules', () => {
  it('answers version 0 with every rule off until the platform sets one', async () => {
    const platform = await createPlatform(world.t);
    const res = await world.t.client.as(platform).get(`/platforms/${platform.publicKey()}/rules`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'platform_rules',
      id: platform.publicKey(),
      attributes: { version: 0, increments: null, min_duration: null, max_duration: null, max_lots_per_seller: null, deposit: null, buyer_fees: null, extend_window: null, extend_by: null, max_extension_seconds: null, reserve_lapse_after: null, second_chance_ttl: null, buying_power_multiple: null, created_at: null },
    });
  });

  it('is for staff of the platform only: 401 unsigned, 403 for a user or staff of another platform', async () => {
    const other = await createPlatform(world.t);
    const id = world.platform.publicKey();
    expect((await world.t.client.get(`/platforms/${id}/rules`)).status).toBe(401);
    expect((await world.t.client.as(world.user.keypair).get(`/platforms/${id}/rules`)).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await patchRules(world.t, other, id, { min_duration: 3600 })).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    expect((await world.t.client.as(admin.keypair).get(`/platforms/${id}/rules`)).status).toBe(200);
  });

  it('writes a new version per change, keeping the rules it was not given', async () => {
    const platform = await createPlatform(world.t);
    const id = platform.publicKey();
    const first = await patchRules(world.t, platform, id, { increments: [{ up_to: '1000', min_step: 25 }, { up_to: null, min_step: '100', max_step: '2000' }], min_duration: 3600 });
    expect(first.status).toBe(200);
    expect(first.body.data.attributes).toMatchObject({
      version: 1,
      increments: [{ up_to: '1000.00', min_step: '25.00', max_step: null }, { up_to: null, min_step: '100.00', max_step: '2000.00' }],
      min_duration: 3600,
      max_duration: null,
    });
    const second = await patchRules(world.t, platform, id, { min_duration: null, deposit: { percent: '10', floor: '200' } });
    expect(second.body.data.attributes).toMatchObject({ version: 2, min_duration: null, deposit: { percent: '10', floor: '200.00' }, increments: first.body.data.attributes.increments });
    expect((await world.t.client.as(platform).get(`/platforms/${id}/rules`)).body.data.attributes.version).toBe(2);
  });

  it('names the faulty field of each refused rule', async () => {
    const id = world.platform.publicKey();
    const res = await patchRules(world.t, world.platform, id, {
      increments: [{ up_to: '5000', min_step: '50' }, { up_to: '1000', min_step: '25' }, { up_to: '9000', min_step: '0' }],
      deposit: { fixed: '100', percent: '5' },
      buyer_fees: [{ up_to: null, percent: '101' }],
      max_lots_per_seller: 0,
    });
    expect(res.status).toBe(400);
    const sources = res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(sources).toEqual([
      '/data/attributes/buyer_fees/0/percent',
      '/data/attributes/deposit',
      '/data/attributes/increments/1/up_to',
      '/data/attributes/increments/2/min_step',
      '/data/attributes/max_lots_per_seller',
    ]);
    const durations = await patchRules(world.t, world.platform, id, { min_duration: 7200, max_duration: 3600 });
    expect(durations.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/max_duration' } });
    const unknown = await patchRules(world.t, world.platform, id, { extend_windoww: 30 });
    expect(unknown.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field' });
    expect(unknown.body.errors[0]).toMatchObject({ detail: expect.stringMatching(/^extend_windoww is not an attribute of platform_rules \(did you mean extend_window\?\)/), source: { pointer: '/data/attributes/extend_windoww' } });
    expect((await world.t.client.as(world.platform).get(`/platforms/${id}/rules`)).body.data.attributes.version).toBe(0);
  });
});

describe('lots under platform rules', () => {
  it('a lot keeps the version it was created with, shown on the lot; a lot from before shows none', async () => {
    const platform = await createPlatform(world.t);
    const before = await createLot(world.t, platform, ENG_LOT);
    await setRules(world.t, platform, { deposit: { percent: '10', floor: '250' } });
    const small = await createLot(world.t, platform, { ...ENG_LOT, start_price: '1000' });
    const large = await createLot(world.t, platform, { ...ENG_LOT, start_price: '8000', buy_now_price: '20000' });
    await setRules(world.t, platform, { deposit: { fixed: '75' } });
    const fixed = await createLot(world.t, platform, ENG_LOT);
    const shown = async (id: string) => (await world.t.client.get(`/lots/${id}`)).body.data.attributes;
    expect(await shown(before.id)).not.toHaveProperty('rules_version');
    expect(await shown(before.id)).toMatchObject({ deposit: '100.00' });
    expect(await shown(small.id)).toMatchObject({ rules_version: 1, deposit: '250.00' });
    expect(await shown(large.id)).toMatchObject({ rules_version: 1, deposit: '800.00' });
    expect(await shown(fixed.id)).toMatchObject({ rules_version: 2, deposit: '75.00' });
    const gql = await world.t.client.graphql(`query ($a: ID!, $b: ID!) { a: lot(id: $a) { rulesVersion deposit } b: lot(id: $b) { rulesVersion } }`, { a: large.id, b: before.id });
    expect(gql.body.data).toEqual({ a: { rulesVersion: 1, deposit: '800.00' }, b: { rulesVersion: null } });
  });

  it('refuses a duration outside the platform range', async () => {
    const platform = await createPlatform(world.t);
    await setRules(world.t, platform, { min_duration: 3600, max_duration: 86400 });
    const create = (duration: number) => world.t.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, duration } } });
    expect((await create(3599)).body.errors[0]).toMatchObject({ status: '400', code: 'duration_out_of_range', source: { pointer: '/data/attributes/duration' } });
    expect((await create(86401)).body.errors[0].code).toBe('duration_out_of_range');
    expect((await create(86400)).status).toBe(204);
  });

  it('holds an organizer to its most open lots, also when it creates them at once', async () => {
    const platform = await createPlatform(world.t);
    await setRules(world.t, platform, { max_lots_per_seller: 3 });
    const admin = await createAccount(world.t, platform, { type: 'admin' });
    // Bodies differ, so that no two requests are one signed request replayed.
    const create = (_: unknown, i: number) => world.t.client.as(admin.keypair).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, details: { ...ENG_LOT.details, lot_name: `lot ${i}` } } } });
    const answers = await Promise.all(Array.from({ length: 6 }, create));
    expect(answers.map((a) => a.status).sort()).toEqual([204, 204, 204, 409, 409, 409]);
    expect(answers.find((a) => a.status === 409)?.body.errors[0].code).toBe('open_lot_limit');
    // Another organizer of the platform has room of its own.
    expect((await world.t.client.as(platform).post('/lots', { data: { type: 'lots', attributes: ENG_LOT } })).status).toBe(204);
  });
});

describe('increment table', () => {
  it('steps by the band of the highest bid, banded max_step included, and proxies raise by it too', async () => {
    const platform = await createPlatform(world.t);
    const users = [await createAccount(world.t, platform), await createAccount(world.t, platform), await createAccount(world.t, platform)];
    await setRules(world.t, platform, { increments: [{ up_to: '1000', min_step: '25' }, { up_to: '5000', min_step: '50', max_step: '1000' }, { up_to: null, min_step: '100' }] });
    const lot = await createLot(world.t, platform, ENG_LOT);
    await seat(world.t, lot.id, users.map((u) => u.id));
    const [a, b, c] = users.map((u) => u.keypair);
    expect((await bid(world.t, a, lot.id, { amount: '1000' })).status).toBe(204);
    expect((await bid(world.t, b, lot.id, { amount: '1024.99' })).body.errors[0]).toMatchObject({ code: 'bid_too_low', detail: 'amount must be at least 1025.00' });
    expect((await bid(world.t, b, lot.id, { amount: '1025' })).status).toBe(204);
    expect((await bid(world.t, a, lot.id, { amount: '1074.99' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.t, a, lot.id, { amount: '2025.01' })).body.errors[0]).toMatchObject({ code: 'bid_step_invalid', detail: 'amount may exceed the highest bid by at most 1000.00' });
    expect((await bid(world.t, a, lot.id, { amount: '2025' })).status).toBe(204);
    // Above 5,000 the open band steps by 100, with the lot's own max_step (500).
    expect((await bid(world.t, b, lot.id, { max_amount: '5400' })).status).toBe(204);
    expect((await bid(world.t, c, lot.id, { max_amount: '5000' })).status).toBe(204);
    const bids = await world.t.orm.em.fork().find(Bid, { lotId: lot.id }, { orderBy: { id: 'asc' } });
    expect(bids.map((x) => x.amount.toFixed(2))).toEqual(['1000.00', '1025.00', '2025.00', '2075.00', '5000.00', '5050.00']);
    expect((await bid(world.t, a, lot.id, { amount: '5099.99' })).body.errors[0].code).toBe('bid_too_low');
  });

  it('leaves the lot steps of lots created before the table', async () => {
    const platform = await createPlatform(world.t);
    const users = [await createAccount(world.t, platform), await createAccount(world.t, platform)];
    const lot = await createLot(world.t, platform, ENG_LOT);
    await setRules(world.t, platform, { increments: [{ up_to: null, min_step: '5' }] });
    await seat(world.t, lot.id, users.map((u) => u.id));
    expect((await bid(world.t, users[0].keypair, lot.id, { amount: '1000' })).status).toBe(204);
    expect((await bid(world.t, users[1].keypair, lot.id, { amount: '1005' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.t, users[1].keypair, lot.id, { amount: '1050' })).status).toBe(204);
  });
});

describe('GraphQL platformRules and updatePlatformRules', () => {
  it('reads and changes the rules as REST does', async () => {
    const platform = await createPlatform(world.t);
    const id = platform.publicKey();
    const signed = world.t.client.as(platform);
    expect((await signed.graphql(RULES, { id })).body.data.platformRules).toMatchObject({ platformId: id, version: 0, increments: null, deposit: null });
    const changed = await signed.graphql(UPDATE, { id, rules: { increments: [{ upTo: '500', minStep: '10' }, { upTo: null, minStep: '20', maxStep: '200' }], deposit: { fixed: '150' } } });
    expect(changed.body.data.updatePlatformRules).toEqual({
      version: 1,
      increments: [{ upTo: '500.00', minStep: '10.00', maxStep: null }, { upTo: null, minStep: '20.00', maxStep: '200.00' }],
      deposit: { fixed: '150.00', percent: null, floor: null },
      minDuration: null,
      maxDuration: null,
    });
    expect((await world.t.client.as(platform).get(`/platforms/${id}/rules`)).body.data.attributes).toMatchObject({ version: 1, deposit: { fixed: '150.00' } });
  });

  it('names the faulty field and refuses others than staff', async () => {
    const id = world.platform.publicKey();
    const bad = await world.t.client.as(world.platform).graphql(UPDATE, { id, rules: { increments: [{ upTo: '500', minStep: '10' }, { upTo: '400', minStep: '20' }] } });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(JSON.stringify(bad.body.errors[0].extensions)).toContain('increments.1.upTo');
    const denied = await world.t.client.as(world.user.keypair).graphql(RULES, { id });
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
  });
});
