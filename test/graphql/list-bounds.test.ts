import { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Account, BlacklistEntry } from '../../src/modules/accounts/accounts.entity';
import { AccountType } from '../../src/core/account-type';
import { Deposit, DepositState, Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { Callback, Star } from '../../src/modules/watchlist/watchlist.entity';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

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
