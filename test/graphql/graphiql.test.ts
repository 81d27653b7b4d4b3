import { appAndBrowser, offlinePage } from '../helpers/browser';

const w = appAndBrowser();

describe('GET /graphql in a browser', () => {
  it('loads GraphiQL from this origin alone and runs { __typename }', async () => {
    const { page, outside, problems } = await offlinePage(w.browser, w.t.baseUrl);
    const res = await page.goto(`${w.t.baseUrl}/graphql`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.waitForSelector('.graphiql-execute-button', { timeout: 15000 });
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('__typename'));
    await page.click('.graphiql-execute-button');
    expect(await (await answered).json()).toEqual({ data: { __typename: 'Query' } });
    await page.waitForFunction(`document.querySelector('.result-window')?.textContent?.includes('"Query"')`, undefined, { timeout: 5000 });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('GET /graphql for API clients', () => {
  it('still runs a query when JSON is asked for', async () => {
    const res = await w.t.client.get('/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('answers no page to a client that accepts anything', async () => {
    const res = await w.t.client.get('/graphql?query=%7B__typename%7D', { headers: { accept: '*/*' } });
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
  });
});
