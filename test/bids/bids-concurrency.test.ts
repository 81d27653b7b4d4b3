import { Bid } from '../../src/modules/bids/bids.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { createLot, ENG_LOT } from '../helpers/lots';

const world = appWithPlatform({ accounts: 10 });

async function auctionWithAll(): Promise<string> {
  const lot = await createLot(world.t, world.platform, { ...ENG_LOT, min_step: '10', max_step: '1000' });
  const em = world.t.orm.em.fork();
  world.accounts.forEach((b) => em.create(Participant, { lotId: lot.id, accountId: b.id, state: ParticipantState.Pending }));
  await em.flush();
  return lot.id;
}

describe('bids under concurrency', () => {
  it('keeps 50 simultaneous bids from 10 participants strictly increasing, with nothing accepted lost', async () => {
    const lotId = await auctionWithAll();
    // Each participant sends five different amounts, so no two requests carry the same signature.
    const requests = world.accounts.flatMap((b, i) =>
      [0, 1, 2, 3, 4].map((k) => ({ who: b, amount: (1000 + (k * 10 + i) * 10).toFixed(2), max: k === 4 && i % 3 === 0 ? (3000 + i * 100).toFixed(2) : null })),
    );
    const responses = await Promise.all(
      requests.map((r) =>
        world.t.client.as(r.who.keypair).post(`/lots/${lotId}/bid_requests`, {
          data: { type: 'bid_requests', attributes: r.max ? { max_amount: r.max } : { amount: r.amount } },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 204 || s === 400 || s === 409)).toBe(true);
    const rows = await world.t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } });
    for (let i = 1; i < rows.length; i++) expect(rows[i].amount.gt(rows[i - 1].amount)).toBe(true);
    // Each accepted plain bid is a row of its own; a max bid's request adds at most its own first bid.
    const key = (accountId: string, amount: string) => `${accountId} ${amount}`;
    const accepted = new Set(requests.filter((r, i) => responses[i].status === 204 && !r.max).map((r) => key(r.who.id, r.amount)));
    const acceptedMax = requests.filter((r, i) => responses[i].status === 204 && r.max).length;
    const own = rows.filter((b) => !b.placedByProxy).map((b) => key(b.accountId, b.amount.toFixed(2)));
    expect(accepted.size).toBeGreaterThan(0);
    for (const k of accepted) expect(own).toContain(k);
    expect(own.length).toBeLessThanOrEqual(accepted.size + acceptedMax);
    const lot = await world.t.orm.em.fork().findOneOrFail(Lot, { id: lotId });
    expect(lot.highestBid?.toFixed(2)).toBe(rows[rows.length - 1].amount.toFixed(2));
    const maxes = new Map(requests.filter((r) => r.max).map((r) => [r.who.id, r.max as string]));
    for (const b of rows.filter((r) => !accepted.has(key(r.accountId, r.amount.toFixed(2))))) expect(b.amount.lte(maxes.get(b.accountId) as string)).toBe(true);
  });
});

describe('bids racing a close', () => {
  it('accepts no bid once the close has committed, and loses none it accepted before', async () => {
    const lotId = await auctionWithAll();
    let closedAt = Infinity;
    const bidAt = async (i: number) => {
      await new Promise((r) => setTimeout(r, (i % 100) * 6));
      const sentAt = Date.now();
      const res = await world.t.client.as(world.accounts[i % 10].keypair).post(`/lots/${lotId}/bid_requests`, {
        data: { type: 'bid_requests', attributes: { amount: (1000 + i * 10).toFixed(2) } },
      });
      return { sentAt, status: res.status, code: res.body?.errors?.[0]?.code };
    };
    const close = (async () => {
      await new Promise((r) => setTimeout(r, 45));
      const res = await world.t.client.as(world.platform).post('/lots/closed', { data: { type: 'lots', id: lotId, attributes: { state: 'finished' } } });
      closedAt = Date.now();
      return res.status;
    })();
    const [closeStatus, ...bids] = await Promise.all([close, ...Array.from({ length: 60 }, (_, i) => bidAt(i))]);
    expect(closeStatus).toBe(200);
    expect(bids.filter((b) => b.status >= 500)).toEqual([]);
    const late = await Promise.all(Array.from({ length: 10 }, (_, i) => bidAt(100 + i)));
    // The racing bids sent after the close answered may be none on a slow machine; the ten late ones never are.
    const afterClose = [...bids.filter((b) => b.sentAt > closedAt), ...late];
    expect(afterClose.length).toBeGreaterThanOrEqual(10);
    expect(afterClose.map((b) => `${b.status} ${b.code}`)).toEqual(Array(afterClose.length).fill('400 lot_not_active'));
    const rows = await world.t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } });
    expect(rows).toHaveLength(bids.filter((b) => b.status === 204).length);
    for (let i = 1; i < rows.length; i++) expect(rows[i].amount.gt(rows[i - 1].amount)).toBe(true);
  });
});
