import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOTS = 'query($ids: [ID!]) { lots(filter: { in: $ids }) { nodes { id } } }';
const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe('GraphQL list arguments are capped at 1,000 items', () => {
  it('answers LotFilter.in with 5,000 ids with 400 too_many_items naming the argument, never 500', async () => {
    const res = await t.client.graphql(LOTS, { ids: ids(5_000) });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'too_many_items', status: 400, errors: [expect.objectContaining({ field: 'filter.in' })] });
    expect(res.body.errors[0].message).toContain('1000');
  });

  it('answers 100,000 ids with 400 too_many_items before they are coerced: the variables hold more than 10,000 values', async () => {
    const res = await t.client.graphql(LOTS, { ids: ids(100_000) });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'too_many_items', status: 400, errors: [expect.objectContaining({ field: 'variables' })] });
    expect(res.body.errors[0].message).toContain('10000');
  });

  it('takes 1,000 ids', async () => {
    const res = await t.client.graphql(LOTS, { ids: ids(1000) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.lots.nodes).toEqual([]);
  });
});
