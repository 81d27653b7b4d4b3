import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { launchChromium, offlinePage } from '../helpers/browser';

let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  t = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('GET /docs', () => {
  it('renders every operation of /openapi.json offline, under a same-origin CSP', async () => {
    const { page, outside, problems } = await offlinePage(browser, t.baseUrl);
    const res = await page.goto(`${t.baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.waitForSelector('.opblock', { timeout: 15000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(paths.length).toBe(operations);
    expect(paths).toContain('/lots/{id}/bid_requests');
    expect(await page.title()).toMatch(/REST reference/);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('serves only the renderer’s own files', async () => {
    expect((await t.client.get('/docs/swagger-ui-bundle.js')).status).toBe(200);
    const missing = await t.client.get('/docs/..%2Fpackage.json');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('route_not_found');
  });
});
