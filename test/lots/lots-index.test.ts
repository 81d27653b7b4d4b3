import type { Keypair } from '@stellar/stellar-sdk';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { Deposit, DepositState, Participant, ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { Callback, Star } from '../../src/modules/watchlist/watchlist.entity';
import { Money } from '../../src/core/money';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
let other: Keypair;
let admin: CreatedAccount;
let user: CreatedAccount;
let loser: CreatedAccount;
const lots: Record<'A' | 'B' | 'C' | 'D' | 'E', string> = { A: '', B: '', C: '', D: '', E: '' };
const name = (id: string) => (Object.entries(lots).find(([, v]) => v === id) ?? ['?'])[0];
const inFuture = (s: number) => Math.floor(Date.now() / 1000) + s;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  other = await createPlatform(t);
  admin = await createAccount(t, platform, { type: 'admin' });
  user = await createAccount(t, platform);
  loser = await createAccount(t, other);

  lots.A = (await createLot(t, platform, { ...ENG_LOT, details: { ...ENG_LOT.details, registered: true, engine_volume: 2.5, city: 'Tbilisi' } })).id;
  lots.B = (await createLot(t, platform, { ...DIRECT_SALE, details: { ...DIRECT_SALE.details, wheel: 'RIGHT', transmission: 'manual_gearbox', registered: false, vin_code: 'WBA8E9G50GNU12345' } })).id;
  lots.C = (
    await createLot(t, admin.keypair, {
      ...ENG_LOT,
      currency: 'GEL',
      deposit: '0',
      buy_now_price: '0',
      start_time: inFuture(86400),
      details: { country: 'UKR', year: 2012, maker: 'Toyota', model: 'Corolla', fuel_type: 'hybrid' },
    })
  ).id;
  lots.D = (await createLot(t, other, { ...ENG_LOT, start_price: '20000', buy_now_price: '30000', details: { country: 'USA', year: 2022, maker: 'Tesla', model: 'Model 3', fuel_type: 'electric' } })).id;

  const em = t.orm.em.fork();
  const partner = em.create(Lot, {
    lotType: LotType.PartnerA,
    currency: 'USD',
    startPrice: new Money(3000),
    buyNowPrice: new Money(0),
    deposit: new Money(0),
    minStep: new Money(0),
    maxStep: new Money(0),
    startTime: new Date(Date.now() + 600_000),
    duration: 3600,
    endTime: new Date(Date.now() + 4_200_000),
    organizerId: other.publicKey(),
    publisherId: other.publicKey(),
    details: { country: 'USA', year: 2015, maker: 'Ford', model: 'F-150', partnerA_lot_id: 777001, yard_number: 12 },
    country: 'USA',
    year: 2015,
    maker: 'Ford',
    model: 'F-150',
    sourceLotId: '777001',
    yardNumber: 12,
    saleStatus: 'pure',
  });
  await em.flush();
  lots.E = partner.id;

  // Trading rows the trading issue will create through its API.
  const pa = em.create(Participant, { lotId: lots.A, accountId: user.id, state: ParticipantState.DepositPending });
  const pb = em.create(Participant, { lotId: lots.B, accountId: user.id, state: ParticipantState.BuyNowWinner, requestedBuyNow: true });
  em.create(Participant, { lotId: lots.D, accountId: loser.id, state: ParticipantState.Lost });
  await em.flush();
  em.create(Deposit, { participantId: pa.id, lotId: lots.A, accountId: user.id, amount: new Money(100), currency: 'USD', state: DepositState.Pending });
  em.create(WinnerDetails, { lotId: lots.B, invoiceId: 'inv.pdf', invoicePaid: true });
  em.create(Callback, { lotId: lots.A, accountId: user.id });
  em.create(Star, { lotId: lots.C, accountId: user.id });
  await em.nativeUpdate(Lot, { id: lots.B }, { winnerId: user.id });
  await em.nativeUpdate(Lot, { id: lots.D }, { highestBid: new Money(21000), endTime: new Date(Date.now() - 1000) });
  await em.flush();
  void pb;
});
afterAll(() => t.close());

async function matching(query: string, opts: { as?: Keypair } = {}): Promise<string[]> {
  const client = t.client.as(opts.as ?? platform);
  const res = await client.get(`/lots?page[limit]=100&${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  const count = await client.get(`/lots/count?${query}`);
  expect(count.body.data.id).toBe(String(res.body.data.length));
  return res.body.data.map((l: { id: string }) => name(l.id)).sort();
}

describe('GET /lots filters', () => {
  const cases: [string, () => string, string[]][] = [
    ['country', () => 'filter[country]=GEO', ['A']],
    ['city', () => 'filter[city]=tbilisi', ['A']],
    ['stars_of', () => `filter[stars_of]=${user.id}`, ['C']],
    ['in', () => `filter[in]=${lots.A},${lots.C}`, ['A', 'C']],
    ['vin', () => 'filter[vin]=WBA8E9G50GNU12345', ['B']],
    ['organizer_type admin', () => 'filter[organizer_type]=admin', ['C']],
    ['organizer_type platform', () => 'filter[organizer_type]=platform', ['A', 'B', 'D', 'E']],
    ['lot_type', () => 'filter[lot_type]=no_auction,partnerA', ['B', 'E']],
    ['lot_state', () => 'filter[lot_state]=pending', ['A', 'B', 'C', 'D', 'E']],
    ['lot_state sold', () => 'filter[lot_state]=sold,finished', []],
    ['participant', () => `filter[participant]=${user.id}`, ['A', 'B']],
    ['winner', () => `filter[winner]=${user.id}`, ['B']],
    ['not_winner', () => `filter[not_winner]=${user.id}`, ['A', 'C', 'D', 'E']],
    ['wheel', () => 'filter[wheel]=right', ['B']],
    ['year range', () => 'filter[year]=2015,2018', ['A', 'E']],
    ['year open max', () => 'filter[year]=2020,', ['B', 'D']],
    ['engine_volume', () => 'filter[engine_volume]=2,3', ['A']],
    ['price in USD (default)', () => 'filter[price]=10000,13000', ['B']],
    ['price in EUR', () => 'filter[price]=900,1000&filter[currency]=EUR', ['A']],
    ['transmission', () => 'filter[transmission]=MANUAL_GEARBOX', ['B']],
    ['fuel', () => 'filter[fuel]=hybrid,electric', ['C', 'D']],
    ['maker', () => 'filter[maker]=toyota', ['A', 'C']],
    ['model', () => 'filter[model]=Corolla', ['C']],
    ['model_prefix', () => 'filter[model_prefix]=cor', ['C']],
    ['start_time', () => `filter[start_time]=${inFuture(3600)}`, ['C']],
    ['time_period', () => `filter[time_period]=${inFuture(300)},${inFuture(7200)}`, ['E']],
    ['trim_partnerA', () => 'filter[trim_partnerA]=3600', ['A', 'B', 'C', 'D']],
    ['trim_partnerB', () => 'filter[trim_partnerB]=3600', ['A', 'B', 'C', 'D', 'E']],
    ['yard_number', () => 'filter[yard_number]=12', ['E']],
    ['partnerA_status', () => 'filter[partnerA_status]=pure', ['E']],
    ['registered true', () => 'filter[registered]=true', ['A']],
    ['registered false', () => 'filter[registered]=false', ['B']],
    ['deposit true', () => 'filter[deposit]=true', ['A', 'D']],
    ['deposit false', () => 'filter[deposit]=false', ['B', 'C', 'E']],
    ['has_winner', () => 'filter[has_winner]=true', ['B']],
    ['has_callbacks', () => 'filter[has_callbacks]=true', ['A']],
    ['has_callbacks false', () => 'filter[has_callbacks]=false', ['B', 'C', 'D', 'E']],
    ['has_requests', () => 'filter[has_requests]=true', ['A']],
    // D's participant is the other platform's business (test/lots/participant-filters.test.ts).
    ['has_participants', () => 'filter[has_participants]=true', ['A', 'B']],
    ['has_participants false', () => 'filter[has_participants]=false', ['C', 'D', 'E']],
    ['has_participants_from', () => `filter[has_participants_from]=${other.publicKey()}`, []],
    ['is_finished', () => 'filter[is_finished]=true', ['D']],
    ['is_finished false', () => 'filter[is_finished]=false', ['A', 'B', 'C', 'E']],
    ['buy_now', () => 'filter[buy_now]=true', ['A', 'B', 'D']],
    ['buy_now false', () => 'filter[buy_now]=false', ['C', 'E']],
    ['search by VIN', () => 'filter[search]=4T1BF1FK5CU123456', ['A']],
    ['search by model', () => 'filter[search]=corolla', ['C']],
    ['search by source lot id', () => 'filter[search]=777001', ['E']],
    ['search by lot id', () => `filter[search]=${lots.D}`, ['D']],
    ['publisher', () => `filter[publisher]=${other.publicKey()}`, ['D', 'E']],
    ['direct_sale_publisher', () => `filter[direct_sale_publisher]=${other.publicKey()}`, ['A', 'C', 'D', 'E']],
    ['organizer', () => `filter[organizer]=${admin.id}`, ['C']],
    ['winner_account_type', () => 'filter[winner_account_type]=user', ['B']],
    ['invoice_sent', () => 'filter[invoice_sent]=true', ['B']],
    ['invoice_paid false', () => 'filter[invoice_paid]=false', ['A', 'C', 'D', 'E']],
    ['two filters together', () => 'filter[maker]=toyota&filter[country]=UKR', ['C']],
  ];
  it.each(cases)('%s', async (_name, query, expected) => {
    expect(await matching(query())).toEqual(expected);
  });

  // Vocabulary filters compare case-insensitively; fuel also takes the /enums/fuels ids.
  const vocabulary: [string, () => string, string[]][] = [
    ['fuel by enum ids', () => 'filter[fuel]=DIESEL,GASOLINE', ['A', 'B']],
    ['fuel in mixed case', () => 'filter[fuel]=Hybrid,eLeCtRiC', ['C', 'D']],
    ['wheel capitalised', () => 'filter[wheel]=Right', ['B']],
    ['wheel by enum id', () => 'filter[wheel]=LEFT', ['A']],
    ['transmission in lowercase', () => 'filter[transmission]=manual_gearbox', ['B']],
    ['lot_type in uppercase', () => 'filter[lot_type]=NO_AUCTION,PARTNERA', ['B', 'E']],
    ['lot_state in uppercase', () => 'filter[lot_state]=PENDING', ['A', 'B', 'C', 'D', 'E']],
    ['organizer_type capitalised', () => 'filter[organizer_type]=Admin', ['C']],
    ['winner_account_type in uppercase', () => 'filter[winner_account_type]=USER', ['B']],
    ['partnerA_status in uppercase', () => 'filter[partnerA_status]=PURE', ['E']],
    ['price in eur', () => 'filter[price]=900,1000&filter[currency]=eur', ['A']],
  ];
  it.each(vocabulary)('matches %s', async (_name, query, expected) => {
    expect(await matching(query())).toEqual(expected);
  });

  it('tab=won and tab=lost are the caller’s own', async () => {
    expect(await matching('filter[tab]=won', { as: user.keypair })).toEqual(['B']);
    expect(await matching('filter[tab]=lost', { as: loser.keypair })).toEqual(['D']);
    expect(await matching('filter[tab]=lost', { as: user.keypair })).toEqual([]);
  });

  it('stars_of and participant name only the caller or an account of the caller’s platforms', async () => {
    expect(await matching(`filter[stars_of]=${user.id}`, { as: user.keypair })).toEqual(['C']);
    expect(await matching(`filter[participant]=${loser.id}`, { as: other })).toEqual(['D']);
    const anonymous = await t.client.get(`/lots?filter[stars_of]=${user.id}`);
    expect(anonymous.status).toBe(401);
    const stranger = await t.client.as(loser.keypair).get(`/lots/count?filter[participant]=${user.id}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body.errors[0].code).toBe('not_allowed');
  });

  it('has_participants and has_participants_from find the participants of the lots the caller manages', async () => {
    expect(await matching('filter[has_participants]=true', { as: other })).toEqual(['D']);
    expect(await matching(`filter[has_participants_from]=${other.publicKey()}`, { as: other })).toEqual(['D']);
  });

  it('tab needs an authenticated caller', async () => {
    const res = await t.client.get('/lots?filter[tab]=won');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it.each([
    ['filter[year]=abc', 'filter[year]'],
    ['filter[year]=2020,2010', 'filter[year]'],
    ['filter[lot_type]=boat', 'filter[lot_type]'],
    ['filter[fuel]=coal', 'filter[fuel]'],
    ['filter[currency]=JPY', 'filter[currency]'],
    ['filter[registered]=maybe', 'filter[registered]'],
    ['filter[colour]=red', 'filter[colour]'],
    ['sort=colour', 'sort'],
    ['include=offers', 'include'],
    ['page[limit]=101', 'page[limit]'],
    ['page[cursor]=garbage', 'page[cursor]'],
  ])('answers 400 to %s', async (query, parameter) => {
    const res = await t.client.get(`/lots?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].source).toEqual({ parameter });
  });
});

describe('GET /lots sorting', () => {
  const order = async (sort: string, extra = '') => {
    const res = await t.client.get(`/lots?sort=${sort}&page[limit]=100${extra}`);
    return res.body.data.map((l: { id: string }) => name(l.id)).join('');
  };

  it('sorts by start_time, newest first by default', async () => {
    const byDefault = (await t.client.get('/lots?page[limit]=100')).body.data.map((l: { id: string }) => name(l.id)).join('');
    expect(byDefault).toBe(await order('-start_time'));
    expect((await order('start_time')).split('').reverse().join('')).toBe(await order('-start_time'));
    expect(await order('start_time')).toBe('ABDEC');
  });

  it('sorts by time_left', async () => {
    // Ends: D has passed, E in 70 minutes, A in a day, C in two, B (a direct sale, default seven days) last.
    expect(await order('time_left')).toBe('DEACB');
    expect(await order('-time_left')).toBe('BCAED');
  });

  it('sorts by price in the selected currency', async () => {
    // USD prices: A 1000, B 12960 (12000 EUR), C ~341 (1000 GEL), D 21000 (highest bid), E 3000.
    expect(await order('price')).toBe('CAEBD');
    expect(await order('-price')).toBe('DBEAC');
    expect(await order('price', '&filter[currency]=GEL')).toBe('CAEBD');
  });

  it('sorts by buy_now_price, created_at and updated_at both ways', async () => {
    const buyNow = await order('buy_now_price');
    expect(buyNow.slice(2)).toBe('ABD');
    expect(await order('-buy_now_price')).toBe(buyNow.split('').reverse().join(''));
    expect(await order('created_at')).toBe('ABCDE');
    expect(await order('-created_at')).toBe('EDCBA');
    const updated = await order('updated_at');
    expect(await order('-updated_at')).toBe(updated.split('').reverse().join(''));
  });
});
