import Decimal from 'decimal.js';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { countStatements } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';
import { ready, socketsClosedAfterEach } from '../live/support';
import { cleanersOf, jobsOf } from '../../src/jobs/jobs';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';

const world = appWithPlatform({ accounts: 3 });
const sockets = socketsClosedAfterEach();

const exec = (text: string, params: unknown[] = []) => world.t.orm.em.fork().getConnection().execute(text, params);

async function save(i: number, filter: Record<string, unknown>): Promise<string> {
  const res = await world.t.client.as(world.accounts[i].keypair).post(`/accounts/${world.accounts[i].id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter } } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The meta of account i's saved_search_matched notifications, oldest first. */
async function alerts(i: number): Promise<Record<string, string>[]> {
  const res = await world.t.client.as(world.accounts[i].keypair).get('/notifications?sort=created_at');
  expect(res.status).toBe(200);
  return res.body.data.filter((n: any) => n.attributes.type === NotificationType.SavedSearchMatched).map((n: any) => n.attributes.meta);
}

/** Sets a rate as the master account, through GraphQL's setCurrencyRate (the only way a rate changes but the rates source). */
async function setRate(currency: string, rate: string): Promise<void> {
  const res = await world.t.client.as(world.t.master).graphql('mutation($c: String!, $r: String!) { setCurrencyRate(currency: $c, unitsPerEur: $r) { currency } }', { c: currency, r: rate });
  expect(res.body.errors).toBeUndefined();
}

const fell = (lotId: string, searchId: string) => ({ lot_id: lotId, search_id: searchId, reason: 'price_fell' });

beforeEach(async () => {
  await exec('delete from saved_searches');
  await exec(`delete from notifications where type = ?`, [NotificationType.SavedSearchMatched]);
  await exec(`update lots set lot_state = 3`);
  await setRate('USD', '1.08');
});

describe('price-fall alerts of saved searches', () => {
  it('says why a new lot matched: new_lot, with the search', async () => {
    const search = await save(0, { maker: 'Toyota' });
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    expect(await alerts(0)).toEqual([{ lot_id: lot.id, search_id: search, reason: 'new_lot' }]);
  });

  it('alerts when a rate change moves a lot’s converted price under a search’s max, at most once a day however often it leaves and re-enters', async () => {
    // 1000 USD is 925.93 EUR at 1.08 USD a euro: above the max of 900.
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const search = await save(0, { maker: 'Toyota', price: ',900', currency: 'EUR' });
    await save(1, { maker: 'Toyota', price: ',800', currency: 'EUR' });
    await save(2, { maker: 'BMW', price: ',900', currency: 'EUR' });
    expect(await alerts(0)).toEqual([]);

    await setRate('USD', '1.12'); // 892.86 EUR: under 900, not under 800
    expect(await alerts(0)).toEqual([fell(lot.id, search)]);
    expect(await alerts(1)).toEqual([]);
    expect(await alerts(2)).toEqual([]);

    await setRate('USD', '1.13'); // 884.96 EUR: under still, no new alert
    expect(await alerts(0)).toHaveLength(1);
    await setRate('USD', '1.08'); // left
    expect(await alerts(0)).toHaveLength(1);
    await setRate('USD', '1.111112'); // 900.00 EUR exactly: the max is inclusive; re-entered within the day
    expect(await alerts(0)).toEqual([fell(lot.id, search)]);
    // A day after the alert, leaving and re-entering alerts again.
    await exec(`update saved_search_alerts set alerted_at = now() - interval '1 day 1 minute' where search_id = ?`, [search]);
    await setRate('USD', '1.08');
    await setRate('USD', '1.12');
    expect(await alerts(0)).toEqual([fell(lot.id, search), fell(lot.id, search)]);
  });

  it('forgets, by the periodic cleaner, only the alerts older than the day they keep a search quiet', async () => {
    const { services } = world.t.app;
    const cleaner = cleanersOf(jobsOf(services, world.t.config), services).find((c) => c.name === 'saved search alerts')!;
    expect(cleaner).toBeDefined();
    const kept = async () => (await exec(`select count(*)::int as n from saved_search_alerts where search_id = ?`, [search]))[0].n;
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const search = await save(0, { maker: 'Toyota', price: ',900', currency: 'EUR' });
    await setRate('USD', '1.12');
    expect(await alerts(0)).toEqual([fell(lot.id, search)]);

    await cleaner.run(world.t.orm.em.fork());
    expect(await kept()).toBe(1);
    // Still quiet within the day: the cleaner took nothing the rule reads.
    await setRate('USD', '1.08');
    await setRate('USD', '1.12');
    expect(await alerts(0)).toHaveLength(1);

    await exec(`update saved_search_alerts set alerted_at = now() - interval '1 day 1 minute' where search_id = ?`, [search]);
    expect(await cleaner.run(world.t.orm.em.fork())).toBeGreaterThanOrEqual(1);
    expect(await kept()).toBe(0);
    await setRate('USD', '1.08');
    await setRate('USD', '1.12');
    expect(await alerts(0)).toEqual([fell(lot.id, search), fell(lot.id, search)]);
  });

  it('alerts on a refresh from the rates source as on a rate set by staff', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const search = await save(0, { maker: 'Toyota', price: ',900', currency: 'EUR' });
    const doc = { asOf: new Date(), rates: new Map([['USD' as const, new Decimal('1.12')]]) };
    expect(await world.t.app.services.currency.applyRates(world.t.orm.em.fork(), doc)).toBe(1);
    expect(await alerts(0)).toEqual([fell(lot.id, search)]);
  });

  it('alerts when the search’s currency moves, and keeps the other filters and the price min', async () => {
    // 12,000 EUR is 13,440 USD at 1.12 USD a euro, 12,960 at 1.08.
    await setRate('USD', '1.12');
    const lot = await createLot(world.t, world.platform, DIRECT_SALE);
    const search = await save(0, { maker: 'BMW', price: ',13000' });
    await save(1, { maker: 'BMW', price: '12970,13000' });
    await save(2, { maker: 'BMW', lot_type: 'eng', price: ',13000' });
    await setRate('USD', '1.08');
    expect(await alerts(0)).toEqual([fell(lot.id, search)]);
    expect(await alerts(1)).toEqual([]);
    expect(await alerts(2)).toEqual([]);
  });

  it('does not alert for a closed lot', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    await save(0, { maker: 'Toyota', price: ',900', currency: 'EUR' });
    const closed = await world.t.client.as(world.platform).post('/lots/closed', { data: { type: 'lots', id: lot.id, attributes: { state: 'finished' } } });
    expect(closed.status).toBe(200);
    await setRate('USD', '1.12');
    expect(await alerts(0)).toEqual([]);
  });

  it('sends the savedSearchMatched event and at most one email a day per search', async () => {
    const emails = async () => (await exec(`select count(*)::int as n from outbox_messages where recipient = ? and subject = 'A lot fell under the price of your saved search'`, [world.accounts[0].email]))[0].n;
    const before = await emails();
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const search = await save(0, { maker: 'Toyota', price: ',900', currency: 'EUR' });
    const socket = await sockets.openFor(world.t, world.accounts[0].id);
    const feed = socket.subscribe('subscription { savedSearchMatched { type meta } }');
    const probe = () => world.t.app.services.live.publishNotification({ id: '0', recipient: world.accounts[0].id, type: NotificationType.SavedSearchMatched, typeStr: 'probe', meta: {}, createdAt: new Date() });
    await ready(feed, probe);
    await setRate('USD', '1.12');
    const [event] = (await feed.take(1)) as any[];
    expect(event).toEqual({ type: 31, meta: fell(lot.id, search) });
    expect(await emails()).toBe(before + 1);
    await exec(`update saved_search_alerts set alerted_at = now() - interval '1 day 1 minute' where search_id = ?`, [search]);
    await setRate('USD', '1.08');
    await setRate('USD', '1.12');
    expect(await alerts(0)).toHaveLength(2);
    expect(await emails()).toBe(before + 1);
  });

  it('matches in one statement: as many statements for a rate change with 3 searches as with 3,000', async () => {
    for (let i = 0; i < 3; i++) await createLot(world.t, world.platform, ENG_LOT);
    // Emailed just now: the emails, at most one a day per search, are counted apart above.
    const seed = (n: number) =>
      exec(`insert into saved_searches (account_id, filters, currency, maker, price_max, last_emailed_at)
            select ?, '{}', 'EUR', case when g % 2 = 0 then 'Toyota' else 'Lada' end, 900, now() from generate_series(1, ?) g`, [world.accounts[2].id, n]);
    await seed(3);
    const few = await countStatements(world.t, () => setRate('USD', '1.12'));
    await setRate('USD', '1.08');
    await seed(2997);
    const many = await countStatements(world.t, () => setRate('USD', '1.12'));
    expect(many).toBe(few);
    // 3 lots for each Toyota search: 1 of the first 3, then the 1,498 new ones (the first alerted today already).
    const [row] = await exec(`select count(*)::int as n from notifications where type = 31 and meta->>'reason' = 'price_fell'`);
    expect(row.n).toBe(3 * 1 + 3 * 1498);
  });
});
