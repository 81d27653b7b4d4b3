import { existsSync } from 'node:fs';
import type { Keypair } from '@stellar/stellar-sdk';
import { chromium, type Browser, type Page, type WebSocketRoute } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { closeLot, FREE_LOT, join } from '../trading/trading.helpers';

// Debian's chromium by default; the test fails (never skips) without a browser: `npm test` is the contract.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let t: TestApp;
let browser: Browser;
let platform: Keypair;
let bidder: CreatedAccount;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  t = await startTestApp();
  // Root in a container has no user namespaces for Chromium's sandbox.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  platform = await createPlatform(t);
  bidder = await createAccount(t, platform);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const bid = async (lotId: string, amount: string) => {
  const res = await t.client.as(bidder.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
  if (res.status !== 204) throw new Error(`bid refused: ${res.status} ${res.text}`);
};

/** Opens the live page of a lot, failing on any script error or refused resource (a CSP mistake shows here). */
async function open(lotId: string, beforeLoad?: (page: Page) => Promise<void>): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await beforeLoad?.(page);
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} (${msg.location().url})`);
  });
  await page.goto(`${t.baseUrl}/live/${lotId}`);
  await page.waitForSelector('#status[data-state="live"]', { timeout: 5000 });
  return { page, problems };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

describe('GET /live/{lot-id}', () => {
  it('shows the lot and its bids, then each new bid within a second', async () => {
    const lot = await createLot(t, platform, FREE_LOT);
    await join(t, bidder.keypair, lot.id);
    await bid(lot.id, '1000');
    const { page, problems } = await open(lot.id);
    try {
      expect(await text(page, '#title')).toBe('2018 Toyota Camry');
      expect(await text(page, '#state')).toBe('pending');
      expect(await text(page, '#highest-bid')).toBe('1000.00 USD');
      expect(await text(page, '#countdown-label')).toBe('Ends in');
      expect(await text(page, '#countdown')).toMatch(/^(23h 59m|1d 0h 0m) \d+s$/);
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['1000.00 USD']);

      for (const amount of ['1050.00', '1200.00']) {
        await bid(lot.id, amount);
        const committed = Date.now();
        await page.locator('#bids li:first-child .amount', { hasText: `${amount} USD` }).waitFor({ timeout: 1000 });
        expect(Date.now() - committed).toBeLessThan(1000);
        expect(await text(page, '#highest-bid')).toBe(`${amount} USD`);
      }
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['1200.00 USD', '1050.00 USD', '1000.00 USD']);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('follows the lot state through lotUpdated', async () => {
    const lot = await createLot(t, platform, FREE_LOT);
    const { page, problems } = await open(lot.id);
    try {
      expect(await text(page, '#highest-bid')).toBe('—');
      expect(await page.locator('#no-bids').isVisible()).toBe(true);
      expect((await closeLot(t, platform, lot.id, 'finished')).status).toBe(200);
      await page.locator('#state', { hasText: /^finished$/ }).waitFor({ timeout: 1000 });
      expect(await text(page, '#countdown-label')).toBe('Ended');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('catches up after its socket drops, with the bids placed meanwhile', async () => {
    const lot = await createLot(t, platform, FREE_LOT);
    await join(t, bidder.keypair, lot.id);
    await bid(lot.id, '1000');
    // The page's sockets pass through the browser's router, which can cut one as a network would.
    const sockets: WebSocketRoute[] = [];
    const { page, problems } = await open(lot.id, (p) =>
      p.routeWebSocket(/\/graphql$/, (ws) => {
        ws.connectToServer();
        sockets.push(ws);
      }),
    );
    try {
      await sockets[0].close({ code: 4000, reason: 'cut' });
      await page.locator('#status[data-state="offline"]').waitFor({ timeout: 1000 });
      await bid(lot.id, '1100');
      await page.locator('#status[data-state="live"]').waitFor({ timeout: 5000 });
      expect(sockets).toHaveLength(2);
      await bid(lot.id, '1200');
      await page.locator('#bids li:first-child .amount', { hasText: '1200.00 USD' }).waitFor({ timeout: 1000 });
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['1200.00 USD', '1100.00 USD', '1000.00 USD']);
      expect(await text(page, '#highest-bid')).toBe('1200.00 USD');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

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
