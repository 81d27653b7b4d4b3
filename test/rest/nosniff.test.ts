import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every answer: REST, errors, /graphql, files, the live page, health', async () => {
    const lot = await createLot(world.t, world.platform);
    const answers = await Promise.all([
      world.t.client.get('/enums/wheels'),
      world.t.client.get('/nowhere'),
      world.t.client.put('/enums/wheels', { data: {} }),
      world.t.client.get('/lots?filter[nope]=1'),
      world.t.client.graphql('{ __typename }'),
      world.t.client.graphql('{ nope }'),
      world.t.client.get('/files/00000000-0000-0000-0000-000000000000?expires=1&signature=x'),
      world.t.client.get(`/live/${lot.id}`),
      world.t.client.get('/live/999999999'),
      world.t.client.get('/healthz'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 404, 405, 400, 200, 400, expect.any(Number), 200, 404, 200]);
    for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
