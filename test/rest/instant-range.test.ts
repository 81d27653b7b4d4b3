import { appWithPlatform } from '../helpers/world';

// An instant an input names lies between the Unix epoch and the end of year 9999 (src/core/time.ts):
// year 0000 or a six-digit year is a typing mistake, refused naming the parameter.
const world = appWithPlatform();

describe('GET /platforms/{id}/stats with an instant out of range', () => {
  it.each([
    ['year 0000', '0000-01-01T00:00:00Z', '0000-02-01T00:00:00Z', ['from', 'to']],
    ['before the epoch', '1969-12-01T00:00:00Z', '1970-01-01T00:00:00Z', ['from']],
    ['past year 9999 once in UTC', '9999-12-01T00:00:00Z', '9999-12-31T19:00:00-05:00', ['to']],
  ])('refuses %s with 400 naming it', async (_, from, to, faulty) => {
    const id = world.platform.publicKey();
    const res = await world.t.client.as(world.platform).get(`/platforms/${id}/stats?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&interval=month`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      faulty.map((name) => expect.objectContaining({ code: 'invalid_field', detail: `${name}: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z`, source: { parameter: name } })),
    );
  });

  it('answers an instant in range', async () => {
    const id = world.platform.publicKey();
    const res = await world.t.client.as(world.platform).get(`/platforms/${id}/stats?from=1970-01-01T00:00:00Z&to=1970-03-01T00:00:00Z&interval=month`);
    expect(res.status).toBe(200);
  });
});
