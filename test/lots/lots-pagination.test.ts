import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
const ids: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  // 26 lots, with repeated prices so that the id breaks ties.
  for (let i = 0; i < 26; i++) {
    const price = String(1000 + (i % 4) * 100);
    ids.push((await createLot(t, platform, { ...ENG_LOT, start_price: price, buy_now_price: '0', duration: 3600 + i * 60 })).id);
  }
});
afterAll(() => t.close());

async function walk(sort: string): Promise<{ forward: string[]; backward: string[]; pages: number }> {
  const forward: string[] = [];
  let link: string | undefined = `/lots?sort=${sort}&page[limit]=4&filter[maker]=Toyota`;
  let last: any;
  let pages = 0;
  while (link) {
    const res: { status: number; body: any } = await t.client.get(link);
    expect(res.status).toBe(200);
    expect(res.body.meta.on_page).toBe(res.body.data.length);
    expect(res.body.links.self).toBe(link);
    if (pages === 0) expect(res.body.links.prev).toBeUndefined();
    forward.push(...res.body.data.map((l: { id: string }) => l.id));
    last = res.body;
    link = res.body.links.next;
    pages++;
    if (link) expect(link).toContain('filter[maker]=Toyota');
  }
  const backward: string[] = [];
  link = last.links.prev;
  backward.unshift(...last.data.map((l: { id: string }) => l.id));
  while (link) {
    const res: { body: any } = await t.client.get(link);
    backward.unshift(...res.body.data.map((l: { id: string }) => l.id));
    link = res.body.links.prev;
  }
  return { forward, backward, pages };
}

describe('cursor pagination of GET /lots', () => {
  it.each(['start_time', '-start_time', 'price', '-price', 'time_left', '-created_at', 'buy_now_price'])(
    'walks every lot exactly once by %s, forwards and back',
    async (sort) => {
      const { forward, backward, pages } = await walk(sort);
      expect(pages).toBe(7);
      expect(forward).toHaveLength(26);
      expect(new Set(forward).size).toBe(26);
      expect([...forward].sort()).toEqual([...ids].sort());
      expect(backward).toEqual(forward);
    },
  );

  it('orders equal prices by id in the direction of the sort', async () => {
    const { forward } = await walk('price');
    const asc = await t.client.get('/lots?sort=price&page[limit]=100');
    const prices = asc.body.data.map((l: any) => Number(l.attributes.start_price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const firstGroup = asc.body.data.filter((l: any) => l.attributes.start_price === '1000.00').map((l: any) => Number(l.id));
    expect(firstGroup).toEqual([...firstGroup].sort((a, b) => a - b));
    expect(forward[0]).toBe(String(firstGroup[0]));
  });

  it('refuses a cursor made for another sort key', async () => {
    const first = await t.client.get('/lots?sort=price&page[limit]=4');
    const cursor = new URL(first.body.links.next, 'http://x').searchParams.get('page[cursor]');
    const res = await t.client.get(`/lots?sort=start_time&page[cursor]=${cursor}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'invalid_cursor', source: { parameter: 'page[cursor]' } });
  });

  it('refuses a forged cursor whose value is not of the sort key’s type', async () => {
    const forged = Buffer.from(JSON.stringify(['start_time', 'not-a-time', '1', 1])).toString('base64url');
    const res = await t.client.get(`/lots?sort=start_time&page[cursor]=${forged}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('invalid_cursor');
  });
});
