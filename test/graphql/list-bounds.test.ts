import { Keypair } from '@stellar/stellar-sdk';
import { getNullableType, isInterfaceType, isListType, isObjectType, parse } from 'graphql';
import { Money, CURRENCIES } from '../../src/core/money';
import { checkCost } from '../../src/graphql/cost';
import { declaredItems } from '../../src/graphql/list-items';
import { FIELD_STATEMENT_COST } from '../../src/graphql/statement-cost';
import { buildAppSchema } from '../../src/graphql/schema';
import { Account, BlacklistEntry } from '../../src/modules/accounts/accounts.entity';
import { AccountType } from '../../src/core/account-type';
import { MAX_BROKER_CITIES } from '../../src/modules/accounts/accounts.input';
import { MOST_BIDS_PER_REQUEST } from '../../src/modules/bids/bids.per-request';
import { MAX_OWNERS } from '../../src/modules/documents/documents.input';
import { LedgerBalance } from '../../src/modules/ledger/ledger.entity';
import { Message } from '../../src/modules/messages/messages.entity';
import { NOTIFICATION_TYPES } from '../../src/modules/notifications/notifications.entity';
import { SecondChanceOffer } from '../../src/modules/offers/offers.entity';
import { REFERENCE_ITEMS } from '../../src/modules/reference/reference.service';
import { MAX_BANDS } from '../../src/modules/rules/rules.input';
import { Deposit, DepositState, Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { Callback, Star } from '../../src/modules/watchlist/watchlist.entity';
import { bearerFor } from '../blacklist/support';
import { createAccount, createPlatform, insertSigner } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { auction, bid } from '../live/support';

/**
 * Lists the cost counted at 10 items answered every row. Each now takes a size argument (100 by
 * default and at most), which is what the cost counts: 102 rows of each answer 100, or fewer when
 * asked, and a size outside 1 to 100 is refused naming the argument.
 */
const ROWS = 102;
const world = appWithPlatform();
const newIds = () => Array.from({ length: ROWS }, () => Keypair.random().publicKey());

let lotId: string;
let staffToken: string;
let fanId: string;
/** Per lot list, the account ids of its rows, oldest first. */
const lotRows: Record<string, string[]> = {};
/** The platform's blacklisted accounts, oldest first. */
let blacklisted: string[];

beforeAll(async () => {
  const { t, platform } = world;
  const platformId = platform.publicKey();
  lotId = String((await createLot(t, platform)).id);
  const em = t.orm.em.fork();
  const bidders = newIds();
  const callers = newIds();
  const fans = newIds();
  for (const id of [...bidders, ...callers, ...fans]) em.create(Account, { id, accountType: AccountType.User, platformId });
  for (const id of newIds()) em.create(Account, { id, accountType: AccountType.Admin, platformId });
  for (const id of newIds()) em.create(Account, { id, accountType: AccountType.Broker, platformId });
  await em.flush();
  // One flush a row: ids and creation times, and so the lists' order, follow the arrays.
  for (const accountId of bidders) {
    const participant = em.create(Participant, { lotId, accountId, state: ParticipantState.Pending });
    await em.flush();
    em.create(Deposit, { participantId: participant.id, lotId, accountId, amount: new Money('100.00'), currency: 'EUR', state: DepositState.Pending });
    await em.flush();
  }
  for (const accountId of callers) {
    em.create(Callback, { lotId, accountId });
    await em.flush();
  }
  for (const accountId of fans) {
    em.create(Star, { lotId, accountId });
    await em.flush();
  }
  // One account's watchlist of 102 lots.
  fanId = fans[0];
  for (let i = 0; i < ROWS - 1; i++) {
    em.create(Star, { lotId: String((await createLot(t, platform)).id), accountId: fanId });
    await em.flush();
  }
  // Creation times a second apart: the blacklist's order does not rest on insertion order.
  blacklisted = callers;
  const since = Date.now() - ROWS * 1000;
  callers.forEach((accountId, i) => em.create(BlacklistEntry, { accountId, state: 'paused', createdAt: new Date(since + i * 1000) }));
  await em.flush();
  Object.assign(lotRows, { participants: bidders, deposits: bidders, callbacks: callers, stars: fans });
  staffToken = await bearerFor(t, platformId);
}, 120_000);

const gql = (query: string, variables: Record<string, unknown> = {}) => world.t.client.graphql(query, variables, { bearer: staffToken });

const invalidPage = (field: string) => [
  expect.objectContaining({ message: `${field} must be an integer from 1 to 100`, extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field })] }) }),
];

describe.each(['participants', 'deposits', 'callbacks', 'stars'])('Lot.%s of a lot with 102 of them', (list) => {
  const rowsOf = async (args: string) => {
    const res = await gql(`query($id: ID!) { lot(id: $id) { ${list}${args} { accountId } } }`, { id: lotId });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.lot[list].map((r: { accountId: string }) => r.accountId);
  };

  it('answers the newest 100 by default, oldest first, and the newest `last` when asked', async () => {
    expect(await rowsOf('')).toEqual(lotRows[list].slice(-100));
    expect(await rowsOf('(last: 3)')).toEqual(lotRows[list].slice(-3));
  });

  it('refuses `last` outside 1 to 100 with 400 invalid_page naming it', async () => {
    for (const last of [0, 101]) {
      const res = await gql(`query($id: ID!) { lot(id: $id) { ${list}(last: ${last}) { accountId } } }`, { id: lotId });
      expect(res.body.errors).toEqual(invalidPage('last'));
    }
  });
});

describe.each([
  ['admins', () => `platformId: "${world.platform.publicKey()}"`],
  ['brokers', () => `platformId: "${world.platform.publicKey()}"`],
  ['watchlist', () => `accountId: "${fanId}"`],
])('Query.%s answering 102 rows', (field, args) => {
  const query = (more: string) => gql(`{ ${field}(${args()}${more}) { __typename } }`);

  it('answers 100 by default and `limit` when asked', async () => {
    expect((await query('')).body.data[field]).toHaveLength(100);
    expect((await query(', limit: 3')).body.data[field]).toHaveLength(3);
  });

  it('refuses `limit` outside 1 to 100 with 400 invalid_page naming it', async () => {
    for (const limit of [0, 101]) expect((await query(`, limit: ${limit}`)).body.errors).toEqual(invalidPage('limit'));
  });
});

describe('Query.blacklist of a platform with 102 blacklisted accounts', () => {
  const ids = async (args: string) => {
    const res = await gql(`{ blacklist${args} { accountId } }`);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.blacklist.map((e: { accountId: string }) => e.accountId);
  };

  it('answers the newest 100 by default, oldest first, and the newest `last` when asked', async () => {
    expect(await ids('')).toEqual(blacklisted.slice(-100));
    expect(await ids('(last: 3)')).toEqual(blacklisted.slice(-3));
  });

  it('refuses `last` outside 1 to 100 with 400 invalid_page naming it', async () => {
    for (const last of [0, 101]) expect((await gql(`{ blacklist(last: ${last}) { accountId } }`)).body.errors).toEqual(invalidPage('last'));
  });
});

// The bounds are GraphQL's, where a cost counts them: the REST lists keep the contract's whole answer.
describe('the REST twins of the bounded directories', () => {
  it('list all 102 admins, 102 brokers and 102 blacklisted accounts', async () => {
    const platformId = world.platform.publicKey();
    expect((await world.t.client.get(`/admins?filter[platform_id]=${platformId}`)).body.data).toHaveLength(102);
    expect((await world.t.client.get(`/brokers?filter[platform_id]=${platformId}`)).body.data).toHaveLength(102);
    const listed = await world.t.client.request('GET', '/blacklist', { bearer: staffToken });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual(blacklisted);
  });
});

/**
 * The lists the cost counted at a flat 10 whatever they answered. Each that the domain does not
 * bound takes a size argument (100 by default and at most), refused outside 1 to 100 and answering
 * at most that many; the others declare the most they answer. A few rows each show the truncation.
 */
describe('the other lists a request can ask for', () => {
  const ledgerAsset = (i: number) => ({ assetCode: `A${i}`, assetIssuer: Keypair.random().publicKey() });
  let auctionId: string;
  let fanToken: string;
  let receiver: string;
  let adminId: string;
  /** Platform ids, oldest first; the world's own first. */
  const platforms: string[] = [];
  /** Per list, what it answers in full, in its order. */
  const full: Record<string, unknown[]> = {};

  beforeAll(async () => {
    const { t, platform } = world;
    const platformId = platform.publicKey();
    const em = t.orm.em.fork();
    const [bidder, rival] = [await createAccount(t, platform), await createAccount(t, platform)];
    auctionId = await auction(t, platform, [bidder.id, rival.id]);
    for (let i = 0; i < 3; i++) await bid(t, (i % 2 ? rival : bidder).keypair, auctionId, { amount: String(1000 + 50 * i) });
    // Offers to three bidders in turn: a lot has one open offer at a time.
    const participants = await em.find(Participant, { lotId }, { orderBy: { id: 'asc' }, limit: 3 });
    for (const [i, p] of participants.entries()) {
      const state = i < 2 ? 'expired' : 'open';
      const offer = em.create(SecondChanceOffer, { lotId, participantId: p.id, accountId: p.accountId, amount: new Money('1000.00'), currency: 'EUR', state, expiresAt: new Date(Date.now() + 3600_000), offeredBy: platformId });
      await em.flush();
      (full.offers ??= []).push(offer.id);
    }
    // Three dialogs of one receiver, each a second later than the one before.
    receiver = lotRows.participants[0];
    const since = Date.now() - 10_000;
    for (const [i, sender] of lotRows.callbacks.slice(0, 3).entries()) {
      em.create(Message, { lotId, sender, receiver, text: 'hello', createdAt: new Date(since + i * 1000) });
      (full.dialogs ??= []).unshift(sender);
    }
    await em.flush();
    fanToken = await bearerFor(t, fanId);
    for (let i = 0; i < 3; i++) {
      const res = await world.t.client.graphql('mutation($a: String!) { saveSearch(accountId: $a, filter: {}) { id } }', { a: fanId }, { bearer: fanToken });
      expect(res.body.errors).toBeUndefined();
      (full.searches ??= []).push(res.body.data.saveSearch.id);
    }
    platforms.push(platformId);
    for (let i = 0; i < 2; i++) platforms.push((await createPlatform(t)).publicKey());
    adminId = newIds()[0];
    full.trusted = newIds().slice(0, 3);
    em.create(Account, { id: adminId, accountType: AccountType.Admin, platformId, trustingPlatforms: full.trusted as string[] });
    for (let i = 0; i < 3; i++) em.create(LedgerBalance, { accountId: platformId, ...ledgerAsset(i), balance: 1n });
    await em.flush();
    for (let i = 0; i < 3; i++) await insertSigner(t.orm, platformId, Keypair.random());
  }, 60_000);

  /** Each list with its size argument, a request of it at that size, and what that answers. */
  const sized: [string, string, (size: number) => string, (data: any) => unknown[]][] = [
    ['messageDialogs', 'limit', (n) => `{ messageDialogs(receivers: ["${receiver}"], limit: ${n}) { withId } }`, (d) => d.messageDialogs.map((x: any) => x.withId)],
    ['secondChanceOffers', 'last', (n) => `{ secondChanceOffers(lotId: "${lotId}", last: ${n}) { id } }`, (d) => d.secondChanceOffers.map((x: any) => x.id)],
    ['savedSearches', 'limit', (n) => `{ savedSearches(accountId: "${fanId}", limit: ${n}) { id } }`, (d) => d.savedSearches.map((x: any) => x.id)],
    ['BidLog.entries', 'last', (n) => `{ lot(id: "${auctionId}") { bidLog { entries(last: ${n}) { seq } } } }`, (d) => d.lot.bidLog.entries.map((x: any) => x.seq)],
    ['Ping.platforms', 'limit', (n) => `{ ping { platforms(limit: ${n}) } }`, (d) => d.ping.platforms],
    ['Account.trustingPlatforms', 'limit', (n) => `{ account(id: "${adminId}") { trustingPlatforms(limit: ${n}) } }`, (d) => d.account.trustingPlatforms],
    ['LedgerAccount.balances', 'limit', (n) => `{ ledgerAccount(id: "${world.platform.publicKey()}") { balances(limit: ${n}) { assetCode } } }`, (d) => d.ledgerAccount.balances.map((x: any) => x.assetCode)],
    ['LedgerAccount.signers', 'limit', (n) => `{ ledgerAccount(id: "${world.platform.publicKey()}") { signers(limit: ${n}) { key } } }`, (d) => d.ledgerAccount.signers.map((x: any) => x.key)],
  ];
  // Saved searches are their account's own; staff read the rest.
  const ask = (field: string, query: string) => (field === 'savedSearches' ? world.t.client.graphql(query, {}, { bearer: fanToken }) : gql(query));
  const answer = async (field: string, size: number) => {
    const [, , query, pick] = sized.find(([f]) => f === field) as (typeof sized)[number];
    const res = await ask(field, query(size));
    expect(res.body.errors).toBeUndefined();
    return pick(res.body.data);
  };

  it.each(sized)('%s answers at most `%s` of its rows, the rest left out as its description says', async (field, arg) => {
    const rows = await answer(field, 100);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // `last` keeps the newest, `limit` the first, each in the list's own order.
    expect(await answer(field, 2)).toEqual(arg === 'last' ? rows.slice(-2) : rows.slice(0, 2));
  });

  it.each(sized)('%s refuses `%s` outside 1 to 100 with 400 invalid_page naming it', async (field, arg, query) => {
    for (const size of [0, 101]) expect((await ask(field, query(size))).body.errors).toEqual(invalidPage(arg));
  });

  it('answers rows in the order the lists keep: dialogs latest first, offers and searches oldest first, platforms and trusted ones as stored', async () => {
    expect(await answer('messageDialogs', 100)).toEqual(full.dialogs);
    expect(await answer('secondChanceOffers', 100)).toEqual(full.offers);
    expect(await answer('savedSearches', 100)).toEqual(full.searches);
    expect(await answer('BidLog.entries', 100)).toEqual([1, 2, 3]);
    expect((await answer('Ping.platforms', 100)).slice(-3)).toEqual(platforms);
    expect(await answer('Account.trustingPlatforms', 100)).toEqual(full.trusted);
  });

  it('leaves the REST twins whole', async () => {
    const offers = await world.t.client.request('GET', `/lots/${lotId}/second_chance_offers`, { bearer: staffToken });
    expect(offers.body.data.map((o: { id: string }) => o.id)).toEqual(full.offers);
    const log = await world.t.client.get(`/lots/${auctionId}/bid_log`);
    expect(log.body.data.attributes.entries.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    const searches = await world.t.client.request('GET', `/accounts/${fanId}/saved_searches`, { bearer: fanToken });
    expect(searches.body.data.map((s: { id: string }) => s.id)).toEqual(full.searches);
  });
});

describe('the cost of a document', () => {
  const schema = buildAppSchema();
  const limits = { maxCost: 1e9, maxDepth: 15, maxTokens: 5000 };
  const cost = (query: string) => checkCost(schema, parse(query), {}, undefined, limits);
  const S = FIELD_STATEMENT_COST;

  // Each query also runs a statement of its own (statement-cost.ts), S beside its lists.
  it('counts each sized list at its size, 100 when not given', () => {
    expect(cost('{ savedSearches(accountId: "a") { id } }')).toBe(S + 1 + 100);
    expect(cost('{ savedSearches(accountId: "a", limit: 3) { id } }')).toBe(S + 1 + 3);
    expect(cost('{ messageDialogs(receivers: ["a", "b"]) { withId } }')).toBe(S + 1 + 100);
    expect(cost('{ secondChanceOffers(lotId: "1", last: 7) { id } }')).toBe(S + 1 + 7);
    expect(cost('{ lot(id: "1") { bidLog { entries { seq } } } }')).toBe(S + 1 + 1 + 1 + 100);
    expect(cost('{ ping { platforms } }')).toBe(S + 1 + 1 + 100);
    expect(cost('{ ledgerAccount(id: "a") { balances(limit: 4) { assetCode } signers { key } } }')).toBe(S + 1 + (1 + 4) + (1 + 100));
    expect(cost('{ account(id: "a") { trustingPlatforms(limit: 9) brokerCities } }')).toBe(S + 1 + (1 + 9) + (1 + MAX_BROKER_CITIES));
  });

  it('counts a list the domain bounds at its bound', () => {
    expect(cost('mutation { placeBid(lotId: "1", amount: "1") { bids { id } } }')).toBe(1 + 1 + MOST_BIDS_PER_REQUEST);
    expect(cost('{ platformRules(platformId: "1") { increments { minStep } buyerFees { percent } } }')).toBe(S + 1 + 2 * (1 + MAX_BANDS));
    expect(cost('{ currencyRates { currency } notificationCounts { count } }')).toBe(2 * S + 1 + CURRENCIES.length + 1 + Object.keys(NOTIFICATION_TYPES).length);
    expect(cost('{ document(id: "a") { owners } }')).toBe(S + 1 + 1 + MAX_OWNERS);
    // The reference lists are answered whole: their cost is at least what they hold.
    const { makers, classes, models, countries, cities } = REFERENCE_ITEMS;
    expect(cost('{ makers { classes { models } } }')).toBe(1 + makers * (1 + classes * (1 + models)));
    expect(makers * classes * models).toBeGreaterThanOrEqual(2007);
    expect(cost('{ countries { cities } }')).toBe(1 + countries * (1 + cities));
    expect(cost('{ fuelTypes { id } wheelPositions { id } transmissionTypes { id } }')).toBe(3 + REFERENCE_ITEMS.fuels + REFERENCE_ITEMS.wheels + REFERENCE_ITEMS.transmissions);
  });

  it('has every list field of the schema bounded: a size argument, a declared bound, or a page', () => {
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      const page = /(Connection|Page)$/.test(type.name);
      for (const field of Object.values(type.getFields())) {
        if (!isListType(getNullableType(field.type))) continue;
        const sized = field.args.some((a) => ['first', 'last', 'limit', 'size'].includes(a.name));
        // convertMany and nodes answer one item per item of their list, which they hold to 100.
        const perItem = ['Query.convertMany', 'Query.nodes'].includes(`${type.name}.${field.name}`);
        if (!sized && !perItem && declaredItems(field) === undefined && !(page && ['nodes', 'items'].includes(field.name))) unbounded.push(`${type.name}.${field.name}`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});
