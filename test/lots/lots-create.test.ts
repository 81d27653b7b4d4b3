import { appWithPlatform } from '../helpers/world';
import { createAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';

const world = appWithPlatform();

describe('POST /lots and GET /lots/{id}', () => {
  it('creates an auction for platform staff and shows it', async () => {
    const lot = await createLot(world.t, world.platform);
    const res = await world.t.client.get(`/lots/${lot.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'lots',
      id: lot.id,
      attributes: {
        start_price: '1000.00',
        buy_now_price: '5000.00',
        deposit: '100.00',
        min_step: '50.00',
        max_step: '500.00',
        highest_bid: '0.00',
        buy_now_support: true,
        currency: 'USD',
        duration: '86400',
        lot_state: 1,
        lot_state_str: 'lot_state_pending',
        lot_type: 1,
        lot_type_str: 'lot_type_eng',
        organizer_id: world.platform.publicKey(),
        publisher_id: world.platform.publicKey(),
        winner_id: '',
        details: { country: 'GEO', year: 2018, maker: 'Toyota', model: 'Camry', lot_name: '2018 Toyota Camry', vin_code: '4T1BF1FK5CU123456' },
      },
      relationships: { callbacks: { data: [] } },
    });
    expect(res.body.data.attributes.start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('shows highest_bid "0.00" before the first bid, in lists and over GraphQL, and participants\' bids null', async () => {
    const lot = await createLot(world.t, world.platform);
    const bidder = await createAccount(world.t, world.platform);
    const joined = await world.t.client.as(bidder.keypair).post(`/lots/${lot.id}/participation_requests`, { data: { type: 'participation_requests', attributes: { lot_id: Number(lot.id), buy_now: false } } });
    expect(joined.status).toBe(204);
    const single = await world.t.client.as(world.platform).get(`/lots/${lot.id}?include=participants&currency=EUR`);
    expect(single.body.data.attributes.highest_bid).toBe('0.00');
    expect(single.body.included.find((r: any) => r.type === 'participants').attributes).toMatchObject({ current_bid: null, max_bid: null });
    const list = await world.t.client.get(`/lots?filter[in]=${lot.id}`);
    expect(list.body.data[0].attributes.highest_bid).toBe('0.00');
    const gql = await world.t.client.graphql('query($id: ID!) { lot(id: $id) { highestBid } lots(filter: {in: [$id]}) { nodes { highestBid } } }', { id: lot.id });
    expect(gql.body.data).toEqual({ lot: { highestBid: '0.00' }, lots: { nodes: [{ highestBid: '0.00' }] } });
  });

  it('starts a lot given no start_time at a whole second, the same instant on both edges', async () => {
    const times = async (id: string) => {
      const rest = (await world.t.client.get(`/lots/${id}`)).body.data.attributes;
      const gql = (await world.t.client.graphql('query($id: ID!) { lot(id: $id) { startTime endTime duration } }', { id })).body.data.lot;
      expect(Date.parse(gql.startTime)).toBe(Date.parse(rest.start_time));
      expect(Date.parse(gql.endTime)).toBe(Date.parse(rest.end_time));
      expect(Date.parse(gql.startTime) % 1000).toBe(0);
      expect((Date.parse(gql.endTime) - Date.parse(rest.start_time)) / 1000).toBe(3600);
      expect(gql.duration).toBe(3600);
    };
    await times((await createLot(world.t, world.platform, { ...ENG_LOT, duration: 3600 })).id);
    const input = { type: 'eng', currency: 'EUR', startPrice: '100', buyNowPrice: '0', deposit: '0', minStep: '10', maxStep: '20', duration: 3600, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const created = await world.t.client.as(world.platform).graphql('mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }', { input });
    await times(created.body.data.createLot.lotId);
  });

  it('takes any positive duration, also below a minute, on both edges', async () => {
    const res = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, duration: 5 } } });
    expect(res.status).toBe(204);
    const [lot] = (await world.t.client.get(`/lots?filter[organizer]=${world.platform.publicKey()}&sort=-created_at&page[limit]=1`)).body.data;
    expect(lot.attributes.duration).toBe('5');
    expect(Date.parse(lot.attributes.end_time) - Date.parse(lot.attributes.start_time)).toBe(5000);
    const input = { type: 'eng', currency: 'EUR', startPrice: '100', buyNowPrice: '0', deposit: '0', minStep: '10', maxStep: '20', duration: 1, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const mutation = 'mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }';
    const created = await world.t.client.as(world.platform).graphql(mutation, { input });
    const gql = await world.t.client.graphql('query($id: ID!) { lot(id: $id) { duration } }', { id: created.body.data.createLot.lotId });
    expect(gql.body.data.lot.duration).toBe(1);
    for (const duration of [0, -5]) {
      const refused = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, duration } } });
      expect(refused.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/duration' } });
      const refusedGql = await world.t.client.as(world.platform).graphql(mutation, { input: { ...input, duration } });
      expect(refusedGql.body.errors[0].extensions).toMatchObject({ status: 400, errors: [{ field: 'duration' }] });
    }
  });

  it('keeps a start_time up to 60 s past, ending the lot at start_time + duration, on both edges', async () => {
    const times = async (id: string) => {
      const rest = (await world.t.client.get(`/lots/${id}`)).body.data.attributes;
      const gql = (await world.t.client.graphql('query($id: ID!) { lot(id: $id) { startTime endTime } }', { id })).body.data.lot;
      return { rest: [Date.parse(rest.start_time) / 1000, Date.parse(rest.end_time) / 1000], gql: [Date.parse(gql.startTime) / 1000, Date.parse(gql.endTime) / 1000] };
    };
    const restStart = Math.floor(Date.now() / 1000) - 2;
    const created = await createLot(world.t, world.platform, { ...ENG_LOT, start_time: restStart, duration: 600 });
    expect(await times(created.id)).toEqual({ rest: [restStart, restStart + 600], gql: [restStart, restStart + 600] });

    const gqlStart = Math.floor(Date.now() / 1000) - 55;
    const input = { type: 'eng', currency: 'EUR', startPrice: '100', buyNowPrice: '0', deposit: '0', minStep: '10', maxStep: '20', startTime: gqlStart, duration: 600, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const made = await world.t.client.as(world.platform).graphql('mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }', { input });
    expect(await times(made.body.data.createLot.lotId)).toEqual({ rest: [gqlStart, gqlStart + 600], gql: [gqlStart, gqlStart + 600] });
  });

  it('refuses a start_time more than 60 s past with start_time_past on both edges', async () => {
    const startTime = Math.floor(Date.now() / 1000) - 62;
    const res = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, start_time: startTime } } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'start_time_past', source: { pointer: '/data/attributes/start_time' } })]);
    const input = { type: 'eng', currency: 'EUR', startPrice: '100', buyNowPrice: '0', deposit: '0', minStep: '10', maxStep: '20', startTime, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const gql = await world.t.client.as(world.platform).graphql('mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }', { input });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'start_time_past', status: 400, errors: [{ field: 'startTime' }] });
  });

  it('converts prices with ?currency', async () => {
    const lot = await createLot(world.t, world.platform, DIRECT_SALE);
    const res = await world.t.client.get(`/lots/${lot.id}?currency=USD`);
    expect(res.body.data.attributes).toMatchObject({ currency: 'USD', buy_now_price: '12960.00', start_price: '0.00' });
  });

  it('files a create_lot request instead when a user creates a lot', async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(user.keypair).post('/lots', { data: { type: 'lots', attributes: ENG_LOT } });
    expect(res.status).toBe(204);
    const count = await world.t.client.get(`/lots/count?filter[organizer]=${user.id}`);
    expect(count.body.data).toEqual({ type: 'lots_count', id: '0' });
  });

  it.each([
    ['an auction with max_step not above min_step', { ...ENG_LOT, max_step: '50' }, '/data/attributes/max_step'],
    ['an auction with a zero min_step', { ...ENG_LOT, min_step: '0' }, '/data/attributes/min_step'],
    ['a buy-now price not above the start price', { ...ENG_LOT, buy_now_price: '900' }, '/data/attributes/buy_now_price'],
    ['a direct sale with a start price', { ...DIRECT_SALE, start_price: '10' }, '/data/attributes/start_price'],
    ['a direct sale with steps', { ...DIRECT_SALE, min_step: '5' }, '/data/attributes/min_step'],
    ['details without a model', { ...ENG_LOT, details: { country: 'GEO', year: 2018, maker: 'Toyota' } }, '/data/attributes/details/model'],
    ['an unknown country', { ...ENG_LOT, details: { ...ENG_LOT.details, country: 'ZZZ' } }, '/data/attributes/details/country'],
    ['a malformed price', { ...ENG_LOT, start_price: '10.001' }, '/data/attributes/start_price'],
    ['a start time in the past', { ...ENG_LOT, start_time: Math.floor(Date.now() / 1000) - 3600 }, '/data/attributes/start_time'],
  ])('refuses %s with 400', async (_name, attributes, pointer) => {
    const res = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
  });

  it('answers 401 before looking at the input of an operation that needs a caller', async () => {
    const malformed = await world.t.client.post('/lots', { data: { type: 'wrong', attributes: { type: 'boat' } } });
    expect(malformed.status).toBe(401);
    expect(malformed.body.errors[0].code).toBe('unauthenticated');
    const badQuery = await world.t.client.get('/requests?filter[bogus]=1');
    expect(badQuery.status).toBe(401);
  });

  it('answers 401 unsigned and 404 for an unknown lot', async () => {
    expect((await world.t.client.post('/lots', { data: { type: 'lots', attributes: ENG_LOT } })).status).toBe(401);
    expect((await world.t.client.get('/lots/999999')).status).toBe(404);
    expect((await world.t.client.get('/lots/abc')).status).toBe(404);
  });
});
