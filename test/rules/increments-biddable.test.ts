import fc from 'fast-check';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { bid, seat, setRules } from './rules.helpers';

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  return { platform, users: [await createAccount(t, platform), await createAccount(t, platform)] };
});

const CREATE = /* GraphQL */ `mutation ($input: CreateLotInput!) { createLot(input: $input) { lotId } }`;
const gqlLot = (minStep: string, maxStep: string) => ({ type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '0', deposit: '0', minStep, maxStep, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } });
const postLot = (staff: Parameters<typeof createLot>[1], attributes: Record<string, unknown>) => world.t.client.as(staff).post('/lots', { data: { type: 'lots', attributes } });

describe('lot steps against the increment table', () => {
  it("refuses an auction whose max_step is below a reachable open band's min_step, on both edges", async () => {
    const platform = await createPlatform(world.t);
    await setRules(world.t, platform, { increments: [{ up_to: null, min_step: '100' }] });
    const refused = await postLot(platform, { ...ENG_LOT, min_step: '10', max_step: '50' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'steps_outside_increments', source: { pointer: '/data/attributes/max_step' } })]);
    expect(refused.body.errors[0].detail).toContain('100.00');
    const gql = await world.t.client.as(platform).graphql(CREATE, { input: gqlLot('10', '50') });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'steps_outside_increments', status: 400, errors: [{ field: 'maxStep' }] });
    expect((await world.t.client.get(`/lots/count?filter[organizer]=${platform.publicKey()}`)).body.data.id).toBe('0');

    const taken = await world.t.client.as(platform).graphql(CREATE, { input: gqlLot('10', '100') });
    const lotId = taken.body.data.createLot.lotId;
    const users = [await createAccount(world.t, platform), await createAccount(world.t, platform)];
    await seat(world.t, lotId, users.map((u) => u.id));
    expect((await bid(world.t, users[0].keypair, lotId, { amount: '1000' })).status).toBe(204);
    expect((await bid(world.t, users[1].keypair, lotId, { amount: '1100' })).status).toBe(204);
  });

  it('ignores bands below the start price and bands that bound max_step themselves', async () => {
    const platform = await createPlatform(world.t);
    await setRules(world.t, platform, { increments: [{ up_to: '500', min_step: '100' }, { up_to: '5000', min_step: '200', max_step: '400' }, { up_to: null, min_step: '20' }] });
    expect((await postLot(platform, { ...ENG_LOT, min_step: '10', max_step: '50' })).status).toBe(204);
    const refused = await postLot(platform, { ...ENG_LOT, min_step: '5', max_step: '15' });
    expect(refused.body.errors[0]).toMatchObject({ code: 'steps_outside_increments', source: { pointer: '/data/attributes/max_step' } });
  });

  // One platform for every run: each run's table is a new version, which the run's lot keeps.
  it('for any table and lot steps, every lot the API accepts takes a next bid at its shown min_step and max_step', async () => {
    const { platform, users } = world;
    const money = (cents: number) => (cents / 100).toFixed(2);
    const band = fc.record({ width: fc.integer({ min: 1, max: 300_000 }), min: fc.integer({ min: 1, max: 20_000 }), extra: fc.option(fc.integer({ min: 0, max: 50_000 }), { freq: 2 }) });
    const arb = fc.record({
      bands: fc.array(band, { minLength: 1, maxLength: 3 }),
      start: fc.integer({ min: 100, max: 600_000 }),
      min: fc.integer({ min: 1, max: 20_000 }),
      extra: fc.integer({ min: 1, max: 20_000 }),
      above: fc.integer({ min: 0, max: 800_000 }),
    });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(arb, async (c) => {
        let upTo = 0;
        const increments = c.bands.map((b, i) => {
          upTo += b.width;
          return { up_to: i === c.bands.length - 1 ? null : money(upTo), min_step: money(b.min), max_step: b.extra === null ? null : money(b.min + b.extra) };
        });
        await setRules(world.t, platform, { increments });
        const created = await postLot(platform, { ...ENG_LOT, start_price: money(c.start), buy_now_price: '0', min_step: money(c.min), max_step: money(c.min + c.extra) });
        if (created.status !== 204) {
          expect(created.body.errors[0]).toMatchObject({ code: 'steps_outside_increments', source: { pointer: '/data/attributes/max_step' } });
          return;
        }
        accepted++;
        const [lot] = (await world.t.client.get(`/lots?filter[organizer]=${platform.publicKey()}&sort=-created_at&page[limit]=1`)).body.data;
        await seat(world.t, lot.id, users.map((u) => u.id));
        // A first bid may be any amount from the start price, so it can open any band the lot can reach.
        expect((await bid(world.t, users[0].keypair, lot.id, { amount: money(c.start + c.above) })).status).toBe(204);
        const shown = (await world.t.client.get(`/lots/${lot.id}`)).body.data.attributes;
        const cents = (s: string) => Math.round(Number(s) * 100);
        expect(cents(shown.min_step)).toBeLessThanOrEqual(cents(shown.max_step));
        const least = await bid(world.t, users[1].keypair, lot.id, { amount: money(cents(shown.highest_bid) + cents(shown.min_step)) });
        expect(least.status).toBe(204);
        const next = (await world.t.client.get(`/lots/${lot.id}`)).body.data.attributes;
        const most = await bid(world.t, users[0].keypair, lot.id, { amount: money(cents(next.highest_bid) + cents(next.max_step)) });
        expect(most.status).toBe(204);
      }),
      { seed: 283, numRuns: 30, endOnFailure: true },
    );
    expect(accepted).toBeGreaterThan(5);
  }, 180_000);
});
