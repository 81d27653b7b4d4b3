import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT } from '../trading/trading.helpers';

// What the live page answers over plain HTTP; the browser tests are in live-page.test.ts.
let t: TestApp;
let platform: Keypair;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
});
afterAll(() => t?.close());

describe('GET /live/{lot-id} over HTTP', () => {
  it('answers HTML with a policy that admits only its own script and this origin', async () => {
    const lot = await createLot(t, platform, FREE_LOT);
    const res = await t.client.get(`/live/${lot.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("connect-src 'self'");
    expect(res.text).toContain('<ol id="bids">');
  });

  it('answers 404 lot_not_found for an unknown or malformed id, as GET /lots/{id} does', async () => {
    for (const id of ['999999', 'abc']) {
      const page = await t.client.get(`/live/${id}`);
      const rest = await t.client.get(`/lots/${id}`);
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toContain('application/vnd.api+json');
      expect(page.body.errors[0]).toMatchObject({ status: '404', code: 'lot_not_found' });
      expect(page.body.errors[0].code).toBe(rest.body.errors[0].code);
    }
  });
});
