import { appWithPlatform } from '../helpers/world';

/**
 * A saved search's filter is "written as GET /lots takes it" and read by that query's own parser
 * (docs/saved-searches.md), which takes integers of up to 15 digits. GET /lots answers a year
 * range past PostgreSQL's `integer` with 200 (no lot matches); saving the same filter stores it
 * in the `integer` columns year_min/year_max, whose overflow answers 500 internal_error — a
 * server error any signed-in user causes at will, instead of a 400 naming filter.year.
 */
const world = appWithPlatform({ accounts: 1 });

describe('a saved search whose year range lies past a 32-bit integer', () => {
  it.each([',2147483648', '-2147483649,', '1990,99999999999'])('is refused 400 naming filter.year (%s), as GET /lots answers it without error', async (year) => {
    const { t, accounts } = world;
    const [user] = accounts;
    const listed = await t.client.get(`/lots?filter[year]=${encodeURIComponent(year)}`);
    expect(listed.status).toBe(200);
    const saved = await t.client.as(user.keypair).post(`/accounts/${user.id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter: { year } } } });
    expect(saved.status).toBe(400);
    expect(saved.body.errors[0].code).not.toBe('internal_error');
    expect(JSON.stringify(saved.body.errors[0].source)).toMatch(/filter(\.|\/)year/);
  });
});
