import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('a filter or parameter named like an inherited object member', () => {
  it.each(['__proto__', 'constructor', 'toString'])('filter[%s] answers 400 unknown_filter, never 500', async (name) => {
    const res = await t.client.get(`/lots?filter[${name}]=x`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'unknown_filter', source: { parameter: `filter[${name}]` } });
    const plain = await t.client.get(`/lots?${name}=x`);
    expect(plain.status).toBe(400);
    expect(plain.body.errors[0]).toMatchObject({ code: 'unknown_parameter', source: { parameter: name } });
  });
});
