import { Lot } from '../../src/modules/lots/lots.entity';
import { ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

/**
 * POST /lots bounds start_time from below (START_TIME_TOLERANCE_S in the past, start_time_past)
 * but not from above: a start past what a date can hold (year 10000 and beyond, or seconds sent as
 * milliseconds by a careless client) reaches the database and answers 500 internal_error, where
 * bad input must answer 400 naming the field. GraphQL's twin takes an Int, which cannot reach it.
 */
const world = appWithPlatform();

describe('a lot whose start_time lies past any date the service can store', () => {
  it.each([
    ['year 10000', 253402300800],
    ['milliseconds sent for seconds', 1795800000000],
  ])('is refused 400 naming start_time (%s), and makes no lot', async (_case, start_time) => {
    const { t, platform } = world;
    const before = await t.orm.em.fork().count(Lot, {});
    const res = await t.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, start_time } } });
    expect({ status: res.status, code: res.body.errors?.[0]?.code }).toEqual({ status: 400, code: expect.not.stringMatching(/^internal_error$/) });
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/start_time' });
    expect(await t.orm.em.fork().count(Lot, {})).toBe(before);
  });
});
