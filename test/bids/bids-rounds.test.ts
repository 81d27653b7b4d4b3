import { Client } from 'pg';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import type { CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

const world = appWithPlatform({ accounts: 5 });

const bid = (who: CreatedAccount, lotId: string, amount: string) =>
  world.t.client.as(who.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });

/** Holds the lot's row lock from another connection until `release()`: the service's bids on it wait. */
async function holdLot(lotId: string): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: world.t.orm.config.get('clientUrl') });
  await client.connect();
  await client.query('begin');
  await client.query('select id from lots where id = $1 for update', [lotId]);
  return async () => {
    await client.query('commit');
    await client.end();
  };
}

/** Connections of this test's database that wait for a lock: the service's round, once it reached the lot. */
const waitingForLock = async () => {
  const rows = await world.t.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
  return Number(rows[0].n);
};

describe('bid rounds', () => {
  it('decides the bids that waited for the lot together, in ascending order, so that each one that can lead is accepted', async () => {
    const lot = await createLot(world.t, world.platform, { ...ENG_LOT, start_price: '1000', min_step: '1', max_step: '1000' });
    const em = world.t.orm.em.fork();
    world.accounts.forEach((b) => em.create(Participant, { lotId: lot.id, accountId: b.id, state: ParticipantState.Pending }));
    await em.flush();

    const release = await holdLot(lot.id);
    // The first request opens a round and waits for the lock; the others queue behind that round.
    const first = bid(world.accounts[0], lot.id, '1000');
    for (let i = 0; i < 100 && (await waitingForLock()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await waitingForLock()).toBe(1);
    // Highest first: one by one, each after the first would be refused as too low.
    const rest = ['1040', '1030', '1020', '1010'].map((amount, i) => bid(world.accounts[i + 1], lot.id, amount));
    await new Promise((r) => setTimeout(r, 200));
    await release();

    expect((await first).status).toBe(204);
    expect((await Promise.all(rest)).map((r) => r.status)).toEqual([204, 204, 204, 204]);
    const rows = await world.t.orm.em.fork().find(Bid, { lotId: lot.id }, { orderBy: { id: 'asc' } });
    expect(rows.map((b) => b.amount.toFixed(2))).toEqual(['1000.00', '1010.00', '1020.00', '1030.00', '1040.00']);
    // The bids of the second round were placed together.
    expect(new Set(rows.slice(1).map((b) => b.createdAt.getTime())).size).toBe(1);
    const lotRow = await world.t.client.get(`/lots/${lot.id}`);
    expect(lotRow.body.data.attributes.highest_bid).toBe('1040.00');
  });
});
