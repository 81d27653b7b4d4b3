import { ENG_LOT } from '../helpers/lots';
import { appWithRequestors, fileRequest } from '../requests/requests.helpers';

const world = appWithRequestors();

const GET = `query($id: ID!) { request(id: $id) { startTime startsAt } }`;
const RATES = `{ currencyRates { currency asOf asOfTime } }`;

describe('DateTime twins of RFC 3339 strings', () => {
  it('answers CreateLotRequest.startsAt as the time of startTime, null where the body gave none', async () => {
    const start = Math.floor(Date.now() / 1000) + 86400;
    const at = new Date(start * 1000).toISOString().replace('.000Z', 'Z');
    const timed = await fileRequest(world.t, world.user, { ...ENG_LOT, start_time: start });
    const res = await world.t.client.as(world.user).graphql(GET, { id: timed.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.request).toEqual({ startTime: at, startsAt: at });
    const { start_time: _none, ...untimedBody } = ENG_LOT as Record<string, unknown>;
    const untimed = await fileRequest(world.t, world.user, untimedBody);
    const none = await world.t.client.as(world.user).graphql(GET, { id: untimed.id });
    expect(none.body.data.request).toEqual({ startTime: null, startsAt: null });
  });

  it('answers CurrencyRate.asOfTime as the time of asOf', async () => {
    const res = await world.t.client.graphql(RATES);
    expect(res.body.errors).toBeUndefined();
    for (const rate of res.body.data.currencyRates) expect(Date.parse(rate.asOfTime)).toBe(Date.parse(rate.asOf));
  });
});
