import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import type { Page, WebSocketRoute } from 'playwright-core';
import { carPicture } from '../../src/cli/png';
import { Lot } from '../../src/modules/lots/lots.entity';
import { uploadedId } from '../documents/documents.helpers';
import { appAndBrowser } from '../helpers/browser';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { seat, setRules } from '../rules/rules.helpers';
import { closeLot, FREE_LOT, join } from '../trading/trading.helpers';

const w = appAndBrowser();
let platform: Keypair;
let bidder: CreatedAccount;

beforeAll(async () => {
  platform = await createPlatform(w.t);
  bidder = await createAccount(w.t, platform);
});

const bid = async (lotId: string, amount: string, who = bidder.keypair) => {
  const res = await w.t.client.as(who).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
  if (res.status !== 204) throw new Error(`bid refused: ${res.status} ${res.text}`);
};

/** Opens the live page of a lot, failing on any script error or refused resource (a CSP mistake shows here). */
async function open(
  lotId: string,
  beforeLoad?: (page: Page) => Promise<void>,
  view: { locale?: string; width?: number } = {},
): Promise<{ page: Page; problems: string[] }> {
  // A reader's locale decides how money is written; en-US unless the test says otherwise.
  const page = await w.browser.newPage({ locale: view.locale ?? 'en-US', viewport: { width: view.width ?? 1280, height: 900 } });
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
      expect(await text(page, '#state')).toBe('open');
      expect(await text(page, '#highest-bid')).toBe('$1,000.00');
      expect(await text(page, '#bid-count')).toBe('1');
      expect(await text(page, '#countdown-label')).toBe('Ends in');
      expect(await text(page, '#countdown')).toMatch(/^(23h 59m|1d 0h 0m) \d+s$/);
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['$1,000.00']);

      for (const [amount, shown] of [['1050.00', '$1,050.00'], ['1200.00', '$1,200.00']]) {
        await bid(lot.id, amount);
        const committed = Date.now();
        await page.locator('#bids li:first-child .amount', { hasText: shown }).waitFor({ timeout: 1000 });
        expect(Date.now() - committed).toBeLessThan(1000);
        expect(await text(page, '#highest-bid')).toBe(shown);
      }
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['$1,200.00', '$1,050.00', '$1,000.00']);
      expect(await text(page, '#bid-count')).toBe('3');
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
      // A lot closed without a sale has ended, in a buyer's words.
      await page.locator('#state', { hasText: /^ended$/ }).waitFor({ timeout: 1000 });
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
      await page.locator('#bids li:first-child .amount', { hasText: '$1,200.00' }).waitFor({ timeout: 1000 });
      expect(await page.locator('#bids li .amount').allInnerTexts()).toEqual(['$1,200.00', '$1,100.00', '$1,000.00']);
      expect(await text(page, '#highest-bid')).toBe('$1,200.00');
      expect(await text(page, '#bid-count')).toBe('3');
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

  it('shows the first photo and writes money as the reader\'s locale does, exactly to the cent', async () => {
    const photo = await uploadedId(w.t, platform, { bytes: carPicture([200, 30, 30]), fileName: 'camry.png', contentType: 'image/png' });
    const link = new URL(`/documents/${photo}`, w.t.baseUrl).toString();
    const lot = await createLot(w.t, platform, { ...FREE_LOT, start_price: '10000', buy_now_price: '50000', max_step: '5000', details: { ...FREE_LOT.details, hd_img_links: [link] } });
    await join(w.t, bidder.keypair, lot.id);
    await bid(lot.id, '10900.05');
    const { page, problems } = await open(lot.id, undefined, { locale: 'de-DE' });
    try {
      // The lot links the photo's document; the page shows its bytes through the document's signed storage link.
      await page.locator('#photo').waitFor({ state: 'visible', timeout: 2000 });
      // Read in the page, where the image's own properties are; the file typechecks without the DOM's types.
      await page.waitForFunction("document.getElementById('photo').complete");
      expect(await page.locator('#photo').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(240);
      expect(await page.locator('#photo').getAttribute('src')).toMatch(new RegExp(`^/files/${photo.replace('.', '\\.')}\\?expires=\\d+&signature=`));
      // German groups thousands with a dot and writes the cents after a comma (the space before $ is a no-break one).
      expect((await text(page, '#highest-bid')).replace(/\s/g, ' ')).toBe('10.900,05 $');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows the end moving when soft close extends it, and the state in plain words', async () => {
    const staff = await createPlatform(w.t);
    await setRules(w.t, staff, { extend_window: 60, extend_by: 90 });
    const lot = await createLot(w.t, staff, FREE_LOT);
    const sniper = await createAccount(w.t, staff);
    await seat(w.t, lot.id, [sniper.id]);
    const end = new Date(Math.ceil(Date.now() / 1000) * 1000 + 30_000);
    await w.t.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { endTime: end });
    const { page, problems } = await open(lot.id);
    try {
      expect(await text(page, '#state')).toBe('open');
      expect(await page.locator('#extended').isVisible()).toBe(false);
      const seconds = async () => {
        const [, m, sec] = /^(\d+)m (\d+)s$/.exec(await text(page, '#countdown')) ?? [];
        return Number(m) * 60 + Number(sec);
      };
      const before = await seconds();
      expect(before).toBeLessThanOrEqual(30);
      // The bid lands within the 60 s window: the end moves to 90 s after it.
      await bid(lot.id, '1000', sniper.keypair);
      await page.locator('#extended').waitFor({ state: 'visible', timeout: 2000 });
      expect(await text(page, '#extended')).toMatch(/^extended by 1m \d+s$/);
      expect(await seconds()).toBeGreaterThan(before + 30);
      expect(await text(page, '#bid-count')).toBe('1');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('fits a phone (390 px) and a desktop (1280 px), as the screenshots show', async () => {
    const photo = await uploadedId(w.t, platform, { bytes: carPicture([30, 90, 200]), fileName: 'camry.png', contentType: 'image/png' });
    const hd_img_links = [new URL(`/documents/${photo}`, w.t.baseUrl).toString()];
    const lot = await createLot(w.t, platform, { ...FREE_LOT, details: { ...FREE_LOT.details, model: 'Camry Hybrid XLE with a rather long trim name', hd_img_links } });
    await join(w.t, bidder.keypair, lot.id);
    await bid(lot.id, '123456.78');
    for (const width of [390, 1280]) {
      const { page, problems } = await open(lot.id, undefined, { width });
      try {
        await page.locator('#photo').waitFor({ state: 'visible', timeout: 2000 });
        // Nothing wider than the screen: no sideways scrolling on a phone.
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        const facts = await page.locator('.facts').boundingBox();
        const list = await page.locator('#bids').boundingBox();
        if (!facts || !list) throw new Error('the facts or the bids are not shown');
        // A phone stacks the bids under the facts; a desktop sets them side by side.
        if (width === 390) expect(list.y).toBeGreaterThan(facts.y + facts.height - 1);
        else expect(list.x).toBeGreaterThan(facts.x + facts.width - 1);
        const file = path.join(tmpdir(), `live-page-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(statSync(file).size).toBeGreaterThan(1000);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });
});
