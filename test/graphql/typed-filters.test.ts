import { Lot, LotState } from '../../src/modules/lots/lots.entity';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

// LotFilter's typed twins: enums of the outputs' vocabulary and date-times, each finding what the
// deprecated field it replaces finds.

const world = appWithPlatform();
const HOUR = 3600_000;
const base = new Date(Math.floor(Date.now() / HOUR) * HOUR + 24 * HOUR);
/** Lots by name: a live auction started an hour before `base`, a scheduled one at `base + 2h`, a direct sale at `base + 4h`, a sold auction at `base + 6h`. */
const lots: Record<'early' | 'later' | 'direct' | 'sold', string> = { early: '', later: '', direct: '', sold: '' };

beforeAll(async () => {
  const { t, platform } = world;
  const made = { early: ENG_LOT, later: ENG_LOT, direct: DIRECT_SALE, sold: ENG_LOT };
  let hours = -1;
  for (const name of Object.keys(made) as (keyof typeof made)[]) {
    lots[name] = String((await createLot(t, platform, made[name])).id);
    await t.orm.em.fork().nativeUpdate(Lot, { id: lots[name] }, { startTime: new Date(base.getTime() + hours * HOUR) });
    hours = hours < 0 ? 2 : hours + 2;
  }
  await t.orm.em.fork().nativeUpdate(Lot, { id: lots.sold }, { lotState: LotState.Sold });
});

const find = async (filter: string) => {
  const res = await world.t.client.graphql(`query($p: [String!]) { lots(filter: { publisher: $p, ${filter} }, first: 100) { nodes { id } } lotsCount(filter: { publisher: $p, ${filter} }) }`, {
    p: [world.platform.publicKey()],
  });
  expect(res.body.errors).toBeUndefined();
  const ids = res.body.data.lots.nodes.map((n: { id: string }) => n.id).sort();
  expect(res.body.data.lotsCount).toBe(ids.length);
  return ids;
};
const idsOf = (...names: (keyof typeof lots)[]) => names.map((n) => lots[n]).sort();
const seconds = (time: Date) => Math.floor(time.getTime() / 1000);
const at = (hours: number) => new Date(base.getTime() + hours * HOUR).toISOString();

describe('LotFilter’s typed twins', () => {
  it('states and types take the LotState and LotType enums and find what lotState and lotType find', async () => {
    expect(await find('states: [SOLD]')).toEqual(idsOf('sold'));
    expect(await find('lotState: ["sold"]')).toEqual(idsOf('sold'));
    expect(await find('states: [PENDING, FINISHED]')).toEqual(await find('lotState: ["pending", "finished"]'));
    expect(await find('types: [NO_AUCTION]')).toEqual(idsOf('direct'));
    expect(await find('types: [ENG]')).toEqual(await find('lotType: ["eng"]'));
    expect(await find('types: [ENG], states: [PENDING]')).toEqual(idsOf('early', 'later'));
  });

  it('the enums are those the lot answers with: a lot’s own state and type find it', async () => {
    const res = await world.t.client.graphql(`query($id: ID!) { lot(id: $id) { state type } }`, { id: lots.sold });
    const { state, type } = res.body.data.lot;
    expect(await find(`states: [${state}], types: [${type}]`)).toEqual(idsOf('sold'));
  });

  it('startsFrom and startTimeBetween take date-times and find what startTime and timePeriod find in seconds', async () => {
    expect(await find(`startsFrom: "${at(2)}"`)).toEqual(idsOf('later', 'direct', 'sold'));
    expect(await find(`startTime: ${seconds(new Date(at(2)))}`)).toEqual(idsOf('later', 'direct', 'sold'));
    expect(await find(`startTimeBetween: { from: "${at(2)}", to: "${at(4)}" }`)).toEqual(idsOf('later', 'direct'));
    expect(await find(`timePeriod: { min: ${seconds(new Date(at(2)))}, max: ${seconds(new Date(at(4)))} }`)).toEqual(idsOf('later', 'direct'));
    expect(await find(`startTimeBetween: { to: "${at(0)}" }`)).toEqual(idsOf('early'));
    // Another offset names the same instant.
    const offset = new Date(at(2)).toISOString().replace('Z', '+00:00');
    expect(await find(`startsFrom: "${offset}"`)).toEqual(idsOf('later', 'direct', 'sold'));
  });

  it('priceCurrency takes the Currency enum and compares prices as currency does', async () => {
    expect(await find('priceCurrency: EUR, price: { min: "11000" }')).toEqual(await find('currency: "EUR", price: { min: "11000" }'));
    expect(await find('priceCurrency: EUR, price: { min: "11000" }')).toEqual(idsOf('direct'));
  });

  it('refuses a twin given beside the field it replaces, naming the twin, and a value outside the enum before anything runs', async () => {
    for (const [filter, field] of [['states: [SOLD], lotState: ["sold"]', 'filter.states'], ['startsFrom: "2030-01-01T00:00:00Z", startTime: 1', 'filter.startsFrom']]) {
      const res = await world.t.client.graphql(`{ lots(filter: { ${filter} }) { nodes { id } } }`);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', status: 400, errors: [expect.objectContaining({ field })] });
    }
    const res = await world.t.client.graphql('{ lots(filter: { states: [pending] }) { nodes { id } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('graphql_validation_failed');
  });

  it('lotsAggregate counts what lots lists under the twins', async () => {
    const res = await world.t.client.graphql(`query($p: [String!]) { lotsAggregate(filter: { publisher: $p, types: [ENG], startsFrom: "${at(0)}" }) { count } }`, { p: [world.platform.publicKey()] });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.lotsAggregate.count).toBe(2);
  });
});
