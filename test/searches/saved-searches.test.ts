import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { countStatements } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';
import { ready, socketsClosedAfterEach } from '../live/support';
import { fileRequest, reviewDoc } from '../requests/requests.helpers';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';

const world = appWithPlatform({ accounts: 3 });
const sockets = socketsClosedAfterEach();

const save = (i: number, filter: Record<string, unknown>, accountIndex = i) =>
  world.t.client.as(world.accounts[i].keypair).post(`/accounts/${world.accounts[accountIndex].id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter } } });

async function matched(i: number): Promise<string[]> {
  const res = await world.t.client.as(world.accounts[i].keypair).get('/notifications');
  expect(res.status).toBe(200);
  return res.body.data.filter((n: any) => n.attributes.type === 31).map((n: any) => n.attributes.meta.lot_id);
}

const exec = (text: string, params: unknown[] = []) => world.t.orm.em.fork().getConnection().execute(text, params);

describe('/accounts/{id}/saved_searches', () => {
  it('saves, lists and deletes an account’s own searches; another account gets 403', async () => {
    const created = await save(0, { maker: 'Toyota', model_prefix: 'cam', price: ',20000', currency: 'EUR' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ type: 'saved_searches', attributes: { account_id: world.accounts[0].id, currency: 'EUR', filter: { maker: 'Toyota', model_prefix: 'cam', price: ',20000', currency: 'EUR' } } });
    const listed = await world.t.client.as(world.accounts[0].keypair).get(`/accounts/${world.accounts[0].id}/saved_searches`);
    expect(listed.body.data.map((s: any) => s.id)).toEqual([created.body.data.id]);
    expect((await save(1, { maker: 'BMW' }, 0)).body.errors[0]).toMatchObject({ status: '403', code: 'saved_search_forbidden' });
    const path = `/accounts/${world.accounts[0].id}/saved_searches/${created.body.data.id}`;
    expect((await world.t.client.as(world.accounts[0].keypair).delete(path)).status).toBe(204);
    expect((await world.t.client.as(world.accounts[0].keypair).delete(path)).body.errors[0].code).toBe('saved_search_not_found');
  });

  it('refuses, naming it, a filter a saved search cannot hold, and malformed filters as GET /lots does', async () => {
    const starred = await save(0, { stars_of: world.accounts[0].id });
    expect(starred.status).toBe(400);
    expect(starred.body.errors[0]).toMatchObject({ code: 'saved_search_filter_unsupported', source: { pointer: '/data/attributes/filter/stars_of' } });
    expect(JSON.stringify(starred.body.errors[0])).not.toContain('starsOf');
    expect((await save(0, { tab: 'won' })).body.errors[0].code).toBe('saved_search_filter_unsupported');
    const badRange = await save(0, { year: '2020,2010' });
    expect(badRange.status).toBe(400);
    expect(badRange.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/filter/year' } });
  });
});

describe('a saved search’s filter, written as GET /lots takes it', () => {
  it('takes the names and value syntax of GET /lots, shows them back, and GET /lots takes what it shows', async () => {
    const filter = { maker: 'Toyota', model_prefix: 'Cam', price: ',5000', year: '2015,', lot_type: 'eng,no_auction', buy_now: 'false', currency: 'USD' };
    const created = await save(0, filter);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.filter).toEqual(filter);
    const listed = await world.t.client.as(world.accounts[0].keypair).get(`/accounts/${world.accounts[0].id}/saved_searches`);
    expect(listed.body.data.find((x: any) => x.id === created.body.data.id).attributes.filter).toEqual(filter);
    const query = Object.entries(created.body.data.attributes.filter).map(([k, v]) => `filter[${k}]=${encodeURIComponent(String(v))}`).join('&');
    expect((await world.t.client.get(`/lots?${query}`)).status).toBe(200);
    await exec('delete from saved_searches where id = ?', [created.body.data.id]);
  });

  it('names the faulty filter by its GET /lots name', async () => {
    const empty = await save(0, { model_prefix: '' });
    expect(empty.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/filter/model_prefix' } })]);
    expect(empty.body.errors[0].detail).toContain('filter[model_prefix]');
    const unknown = await save(0, { modelprefix: 'Cam' });
    expect(unknown.body.errors[0]).toMatchObject({ status: '400', code: 'unknown_filter', source: { pointer: '/data/attributes/filter/modelprefix' } });
    const object = await save(0, { price: { max: '5000' } });
    expect(object.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/filter/price' } })]);
    const unsupported = await save(0, { has_winner: 'true' });
    expect(unsupported.body.errors[0]).toMatchObject({ code: 'saved_search_filter_unsupported', source: { pointer: '/data/attributes/filter/has_winner' } });
    expect(JSON.stringify([empty.body, unknown.body, object.body, unsupported.body])).not.toMatch(/modelPrefix|hasWinner/);
  });

  it('shows, and alerts, a search stored in the earlier form (domain names, range objects, lists)', async () => {
    await exec('delete from saved_searches');
    await exec(`insert into saved_searches (account_id, filters, currency, maker, model_prefix, lot_types, price_max)
                values (?, '{"maker": "Toyota", "modelPrefix": "Cam", "lotType": ["eng"], "price": {"max": "5000"}}', 'USD', 'Toyota', 'Cam', '{1}', 5000)`, [world.accounts[2].id]);
    const listed = await world.t.client.as(world.accounts[2].keypair).get(`/accounts/${world.accounts[2].id}/saved_searches`);
    expect(listed.body.data[0].attributes.filter).toEqual({ maker: 'Toyota', model_prefix: 'Cam', lot_type: 'eng', price: ',5000' });
    const gql = await world.t.client.as(world.accounts[2].keypair).graphql(`query($a: String!) { savedSearches(accountId: $a) { filterJson } }`, { a: world.accounts[2].id });
    expect(JSON.parse(gql.body.data.savedSearches[0].filterJson)).toMatchObject({ modelPrefix: 'Cam', price: { max: '5000' } });
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    expect(await matched(2)).toContain(lot.id);
    // The alert tests below count the account's alerts from none.
    await exec('delete from notifications where recipient = ? and type = 31', [world.accounts[2].id]);
  });
});

describe('alerts of saved searches', () => {
  it('notifies the accounts whose searches a new lot matches, by maker, price in the search currency and lot type', async () => {
    await exec('delete from saved_searches');
    expect((await save(0, { maker: 'toyota', lot_type: 'eng', price: ',1500', currency: 'USD' })).status).toBe(201);
    expect((await save(1, { maker: 'Toyota', price: ',999', currency: 'USD' })).status).toBe(201);
    expect((await save(2, { maker: 'BMW' })).status).toBe(201);
    const toyota = await createLot(world.t, world.platform, ENG_LOT);
    const bmw = await createLot(world.t, world.platform, DIRECT_SALE);
    expect(await matched(0)).toEqual([toyota.id]);
    expect(await matched(1)).toEqual([]);
    expect(await matched(2)).toEqual([bmw.id]);
  });

  it('notifies a search naming no maker of a new lot of any maker, and one naming the lot’s maker in any case, not a prefix of it', async () => {
    await exec('delete from saved_searches');
    expect((await save(0, { lot_type: 'eng' })).status).toBe(201);
    expect((await save(1, { maker: 'TOYOTA' })).status).toBe(201);
    expect((await save(2, { maker: 'Toyot' })).status).toBe(201);
    const toyota = await createLot(world.t, world.platform, ENG_LOT);
    const bmw = await createLot(world.t, world.platform, { ...ENG_LOT, details: { ...ENG_LOT.details, maker: 'BMW', model: 'X5', vin_code: 'WBAFR7C57BC123456' } });
    expect(await matched(0)).toEqual(expect.arrayContaining([toyota.id, bmw.id]));
    expect(await matched(1)).toContain(toyota.id);
    expect(await matched(1)).not.toContain(bmw.id);
    expect(await matched(2)).not.toContain(toyota.id);
  });

  it('matches a new lot against all saved searches in one statement: as many statements for 3 searches as for 3,000', async () => {
    await exec('delete from saved_searches');
    const seed = (n: number) =>
      // Emailed just now: the emails, at most one a day per search, are counted apart below.
      exec(`insert into saved_searches (account_id, filters, currency, maker, last_emailed_at)
            select ?, '{}', 'USD', case when g % 2 = 0 then 'Toyota' else 'Lada' end, now() from generate_series(1, ?) g`, [world.accounts[2].id, n]);
    await seed(3);
    const few = await countStatements(world.t, () => createLot(world.t, world.platform, ENG_LOT));
    await seed(2997);
    const many = await countStatements(world.t, () => createLot(world.t, world.platform, ENG_LOT));
    expect(many).toBe(few);
    const [row] = await exec(`select count(*)::int as n from notifications where type = 31 and meta->>'lot_id' = (select max(id)::text from lots)`);
    // The Toyota searches: g = 2 of the first 3, and the 1,498 even g of the next 2,997.
    expect(row.n).toBe(1499);
  });

  it('matches a lot approved from a create-lot request, not the request itself', async () => {
    await exec('delete from saved_searches');
    expect((await save(0, { maker: 'Toyota' })).status).toBe(201);
    const before = (await matched(0)).length;
    const request = await fileRequest(world.t, world.accounts[1].keypair);
    expect((await matched(0)).length).toBe(before);
    const res = await world.t.client.as(world.platform).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }));
    expect(res.status).toBe(200);
    const lots = await matched(0);
    expect(lots).toHaveLength(before + 1);
    expect(lots).toContain(String(res.body.data.attributes.lot_id));
  });

  it('emails the account through the outbox at most once a day per search', async () => {
    await exec('delete from saved_searches');
    expect((await save(0, { maker: 'Toyota' })).status).toBe(201);
    const emails = async () => (await exec(`select count(*)::int as n from outbox_messages where recipient = ? and subject = 'A new lot matches your saved search'`, [world.accounts[0].email]))[0].n;
    const before = await emails();
    await createLot(world.t, world.platform, ENG_LOT);
    await createLot(world.t, world.platform, ENG_LOT);
    expect(await emails()).toBe(before + 1);
    await exec(`update saved_searches set last_emailed_at = now() - interval '25 hours'`);
    await createLot(world.t, world.platform, ENG_LOT);
    expect(await emails()).toBe(before + 2);
  });

  it('has GraphQL twins: saveSearch, savedSearches, deleteSavedSearch', async () => {
    const client = world.t.client.as(world.accounts[1].keypair);
    const id = world.accounts[1].id;
    const saved = await client.graphql(`mutation($a: String!) { saveSearch(accountId: $a, filter: { maker: "Toyota", price: { max: "5000" } }) { id currency filterJson } }`, { a: id });
    expect(saved.body.errors).toBeUndefined();
    expect(saved.body.data.saveSearch).toMatchObject({ currency: 'USD' });
    expect(JSON.parse(saved.body.data.saveSearch.filterJson)).toMatchObject({ maker: 'Toyota' });
    const refused = await client.graphql(`mutation($a: String!) { saveSearch(accountId: $a, filter: { tab: "won" }) { id } }`, { a: id });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('saved_search_filter_unsupported');
    const listed = await client.graphql(`query($a: String!) { savedSearches(accountId: $a) { id } }`, { a: id });
    expect(listed.body.data.savedSearches.map((s: any) => s.id)).toContain(saved.body.data.saveSearch.id);
    const deleted = await client.graphql(`mutation($a: String!, $id: ID!) { deleteSavedSearch(accountId: $a, id: $id) }`, { a: id, id: saved.body.data.saveSearch.id });
    expect(deleted.body.data.deleteSavedSearch).toBe(true);
  });

  it('sends the savedSearchMatched subscription event to the account, and only saved_search_matched notifications', async () => {
    await exec('delete from saved_searches');
    expect((await save(0, { maker: 'Toyota' })).status).toBe(201);
    const socket = await sockets.openFor(world.t, world.accounts[0].id);
    const feed = socket.subscribe('subscription { savedSearchMatched { id type typeStr meta } }');
    const probe = () =>
      world.t.app.services.live.publishNotification({ id: '0', recipient: world.accounts[0].id, type: NotificationType.SavedSearchMatched, typeStr: 'probe', meta: {}, createdAt: new Date() });
    await ready(feed, probe);
    world.t.app.services.live.publishNotification({ id: '0', recipient: world.accounts[0].id, type: NotificationType.Overbid, typeStr: 'overbid', meta: {}, createdAt: new Date() });
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const [event] = (await feed.take(1)) as any[];
    expect(event).toMatchObject({ type: 31, typeStr: 'saved_search_matched', meta: { lot_id: lot.id } });
    expect(feed.events).toHaveLength(1);
  });
});
