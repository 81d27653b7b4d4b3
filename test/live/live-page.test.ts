import type { Keypair } from '@stellar/stellar-sdk';
import type { Page, WebSocketRoute } from 'playwright-core';
import { appAndBrowser } from '../helpers/browser';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { closeLot, FREE_LOT, join } from '../trading/trading.helpers';

const w = appAndBrowser();
let platform: Keypair;
let bidder: CreatedAccount;

beforeAll(async () => {
  platform = await createPlatform(w.t);
  bidder = await createAccount(w.t, platform);
});

const bid = async (lotId: string, amount: string) => {
  const res = await w.t.client.as(bidder.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
  if (res.status !== 204) throw new Error(`bid refused: ${res.status} ${res.text}`);
};

/** Opens the live page of a lot, failing on any script error or refused resource (a CSP mistake shows here). */
async function open(lotId: string, beforeLoad?: (page: Page) => Promise<void>): Promise<{ page: Page; problems: string[] }> {
  const page = await w.browser.newPage();
  await beforeLoad?.(page);
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} (${msg.location().url})`);
  });
  await page.goto(`${w.t.baseUrl}/live/${lotId}`);
  await page.waitForSelector('#status[data-state="live"]', { timeout: 5000 });
  return { page, problems };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

describe('GET /live/{lot-id}', () => {
  it('shows the lot and its bids, then each new bid within a second', async () => {
    const lot = await createLot(w.t, platform, FREE_LOT);
    await join(w.t, bidder.keypair, lot.id);
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
    const lot = await createLot(w.t, platform, FREE_LOT);
    const { page, problems } = await open(lot.id);
    try {
      expect(await text(page, '#highest-bid')).toBe('—');
      expect(await page.locator('#no-bids').isVisible()).toBe(true);
      expect((await closeLot(w.t, platform, lot.id, 'finished')).status).toBe(200);
      await page.locator('#state', { hasText: /^finished$/ }).waitFor({ timeout: 1000 });
      expect(await text(page, '#countdown-label')).toBe('Ended');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('catches up after its socket drops, with the bids placed meanwhile', async () => {
    const lot = await createLot(w.t, platform, FREE_LOT);
    await join(w.t, bidder.keypair, lot.id);
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

  it('says whether the reserve is met, and nothing of a reserve on a lot without one', async () => {
    const lot = await createLot(w.t, platform, { ...FREE_LOT, reserve_price: '1100' });
    await join(w.t, bidder.keypair, lot.id);
    await bid(lot.id, '1000');
    const { page, problems } = await open(lot.id);
    try {
      expect(await text(page, '#reserve')).toBe('not met');
      await bid(lot.id, '1100');
      await page.locator('#reserve', { hasText: /^met$/ }).waitFor({ timeout: 2000 });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
    const plain = await open((await createLot(w.t, platform, FREE_LOT)).id);
    try {
      expect(await plain.page.locator('#reserve').isVisible()).toBe(false);
    } finally {
      await plain.page.close();
    }
  });
});
