import { appAndBrowser, offlinePage } from '../helpers/browser';

const w = appAndBrowser();

describe('GET /docs', () => {
  it('renders every operation of /openapi.json offline, under a same-origin CSP', async () => {
    const { page, outside, problems } = await offlinePage(w.browser, w.t.baseUrl);
    const res = await page.goto(`${w.t.baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.waitForSelector('.opblock', { timeout: 15000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    const doc = (await (await fetch(`${w.t.baseUrl}/openapi.json`)).json()) as { tags: { name: string }[]; paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(paths.length).toBe(operations);
    // One group per area, in the document's order: no "default" group, the infrastructure last.
    const groups = await page.$$eval('.opblock-tag', (els) => els.map((e) => e.getAttribute('data-tag')));
    expect(groups).toEqual(doc.tags.map((tag) => tag.name));
    expect(groups).not.toContain('default');
    expect(groups.at(-1)).toBe('infrastructure');
    expect(paths).toContain('/lots/{id}/bid_requests');
    expect(await page.title()).toMatch(/REST reference/);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('serves only the renderer’s own files', async () => {
    expect((await w.t.client.get('/docs/swagger-ui-bundle.js')).status).toBe(200);
    const missing = await w.t.client.get('/docs/..%2Fpackage.json');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('route_not_found');
  });
});
