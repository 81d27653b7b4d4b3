import { appWithPlatform } from '../helpers/world';

/**
 * `from` and `to` of GET /platforms/{id}/stats are RFC 3339 date-times. A date alone, or a
 * date-time without its offset, was refused with `from: Invalid input`, which told its sender
 * neither the form expected nor an example; the detail says both.
 */
const world = appWithPlatform();

describe('GET /platforms/{id}/stats with a from or to that is no date-time', () => {
  it.each([
    ['a date alone', '2026-11-01'],
    ['a date-time without offset', '2026-11-01T00:00:00'],
    ['words', 'yesterday'],
  ])('names the parameter and the form expected for %s', async (_, from) => {
    const id = world.platform.publicKey();
    const res = await world.t.client.as(world.platform).get(`/platforms/${id}/stats?from=${encodeURIComponent(from)}&to=2026-12-01T00:00:00Z&interval=month`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ code: 'invalid_field', detail: 'from: must be an RFC 3339 date-time with its offset (2026-11-01T00:00:00Z)', source: { parameter: 'from' } }),
    ]);
  });
});
