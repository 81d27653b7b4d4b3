import { Bid } from '../../src/modules/bids/bids.entity';
import { bidEvent } from '../../src/modules/bids/bids.events';
import { Money } from '../../src/core/money';
import { appWithPlatform } from '../helpers/world';
import { auction, bid, BID_PLACED, socketsClosedAfterEach, until } from './support';

const world = appWithPlatform({ accounts: 2 });
const sockets = socketsClosedAfterEach();

const open = () => sockets.start(world.t);

const idsOf = async (lotId: string) => (await world.t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } })).map((b) => b.id);

/** Alternating bids of the two users, each one step of 50 above the last. */
async function bids(lotId: string, from: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await bid(world.t, world.accounts[(from + i) % 2].keypair, lotId, { amount: String(1000 + 50 * (from + i)) });
}

describe('bidPlaced(lotId, after)', () => {
  it('replays the bids placed while the subscriber was away, then continues live', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    await bids(lotId, 0, 3);
    const [first] = await idsOf(lotId);
    await bids(lotId, 3, 2);

    const feed = open().subscribe(BID_PLACED, { lotId, after: first });
    const replayed = await feed.take(4);
    expect(replayed.map((e) => e.amount)).toEqual(['1050.00', '1100.00', '1150.00', '1200.00']);
    expect(replayed.every((e) => e.bidderId === null && e.highestBid === e.amount && e.placedByProxy === false)).toBe(true);
    await bids(lotId, 5, 2);
    const all = await feed.take(6);
    expect(all.map((e) => e.id)).toEqual((await idsOf(lotId)).slice(1));
  });

  it('replays the highest bid and proxy flags of a max bid as they were announced live', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    await bid(world.t, world.accounts[0].keypair, lotId, { max_amount: '3000' });
    await bid(world.t, world.accounts[1].keypair, lotId, { amount: '1200' });
    const feed = open().subscribe(BID_PLACED, { lotId, after: '0' });
    expect((await feed.take(3)).map((e) => [e.amount, e.highestBid, e.placedByProxy])).toEqual([
      ['1000.00', '1000.00', false],
      ['1200.00', '1250.00', false],
      ['1250.00', '1250.00', true],
    ]);
  });

  it('has no gap and no duplicate when bids commit while the replay is read', async () => {
    for (let round = 0; round < 3; round++) {
      const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
      await bids(lotId, 0, 2);
      const [first] = await idsOf(lotId);
      // Bids keep committing before, during and after the subscription goes live.
      const placing = bids(lotId, 2, 12);
      await new Promise((r) => setTimeout(r, 20 + round * 30));
      const feed = open().subscribe(BID_PLACED, { lotId, after: first });
      await placing;
      const expected = (await idsOf(lotId)).slice(1);
      await until(() => feed.events.length >= expected.length || feed.errors.length > 0, 5000, () => `${feed.events.length} of ${expected.length} bids`);
      await new Promise((r) => setTimeout(r, 200));
      expect(feed.errors).toEqual([]);
      expect(feed.events.map((e) => e.id)).toEqual(expected);
    }
  });

  it('drops a buffered bid that the replay also read, and delivers one it did not', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    await bids(lotId, 0, 1);
    const [first] = await idsOf(lotId);
    const participant = (await world.t.orm.em.fork().getConnection().execute(`select id from participants where lot_id = ? and account_id = ?`, [lotId, world.accounts[1].id]))[0].id;
    // Another connection holds the bids table while it inserts a bid, so that the replay's read
    // waits; meanwhile that bid is announced (as after its commit) and reaches the buffer.
    const em = world.t.orm.em.fork();
    await em.begin();
    try {
      await em.getConnection().execute('lock table bids in access exclusive mode', [], 'run', em.getTransactionContext());
      const held = em.create(Bid, { lotId, participantId: String(participant), accountId: world.accounts[1].id, amount: new Money('1050'), createdAt: new Date() });
      await em.flush();
      const feed = open().subscribe(BID_PLACED, { lotId, after: first });
      const waiting = async () =>
        Number((await world.t.orm.em.fork().getConnection().execute(`select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'bids' and not l.granted`))[0].n);
      const deadline = Date.now() + 5000;
      while ((await waiting()) === 0) {
        if (Date.now() > deadline) throw new Error('the replay never waited for the bids table');
        await new Promise((r) => setTimeout(r, 10));
      }
      world.t.app.services.live.publishBid(bidEvent(held, '1050.00'));
      // A bid whose commit the replay's snapshot will not see: delivered from the buffer.
      const later = { ...bidEvent(held, '1100.00'), id: String(BigInt(held.id) + BigInt(1)), amount: '1100.00' };
      world.t.app.services.live.publishBid(later);
      await em.commit();
      await feed.take(2);
      await new Promise((r) => setTimeout(r, 200));
      expect(feed.events.map((e) => [e.id, e.amount])).toEqual([
        [held.id, '1050.00'],
        [later.id, '1100.00'],
      ]);
    } finally {
      if (em.isInTransaction()) await em.rollback();
    }
  });
});
