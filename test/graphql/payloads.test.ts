import type { Keypair } from '@stellar/stellar-sdk';
import { Bid } from '../../src/modules/bids/bids.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { blacklist } from '../blacklist/support';
import { FREE_LOT, join, pay } from '../trading/trading.helpers';

/** Payload mutations: each alias answers its own result or its own user errors, and the rest of the request stands. */
const world = appWithTwoPlatforms();

const BID_FIELDS = 'lotId highestBid endTime reserveMet bids { id amount bidderId } lot { id } userErrors { code field message minimumAmount maximumAmount }';
const SUBMIT = (alias: string, input: string) => `${alias}: submitBid(input: ${input}) { ${BID_FIELDS} }`;

let bidder: CreatedAccount;
let rival: CreatedAccount;
let otherUser: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  const { t, platform, otherPlatform } = world;
  bidder = await createAccount(t, platform);
  rival = await createAccount(t, platform);
  otherUser = await createAccount(t, otherPlatform);
  lotId = String((await createLot(t, platform)).id);
  for (const who of [bidder, rival]) await pay(t, platform, await join(t, who.keypair, lotId));
});

const bidsOn = (id: string) => world.t.orm.em.fork().count(Bid, { lotId: id });
const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);

describe('submitBid', () => {
  it('answers an accepted and a refused alias side by side: a is committed and reported, b names the minimum', async () => {
    const res = await gql(bidder.keypair, `mutation($lot: ID!) { ${SUBMIT('a', '{ lotId: $lot, amount: "1000" }')} ${SUBMIT('b', '{ lotId: $lot, amount: "1000" }')} }`, { lot: lotId });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const { a, b } = res.body.data;
    expect(a).toMatchObject({ lotId, highestBid: '1000.00', reserveMet: null, lot: { id: lotId }, userErrors: [] });
    expect(a.bids).toEqual([expect.objectContaining({ amount: '1000.00', bidderId: bidder.id })]);
    expect(typeof a.endTime).toBe('string');
    expect(b).toEqual({
      lotId: null,
      highestBid: null,
      endTime: null,
      reserveMet: null,
      bids: null,
      lot: null,
      userErrors: [{ code: 'BID_TOO_LOW', field: 'amount', message: 'amount must be at least 1050.00', minimumAmount: '1050.00', maximumAmount: null }],
    });
    expect(await bidsOn(lotId)).toBe(1);
  });

  it('names the most the lot takes when a bid steps too far, and the minimum of a max bid', async () => {
    const res = await gql(rival.keypair, `mutation($lot: ID!) { ${SUBMIT('far', '{ lotId: $lot, amount: "9000" }')} ${SUBMIT('max', '{ lotId: $lot, maxAmount: "1" }')} }`, { lot: lotId });
    expect(res.body.data.far.userErrors).toEqual([{ code: 'BID_STEP_INVALID', field: 'amount', message: 'amount may exceed the highest bid by at most 500.00', minimumAmount: null, maximumAmount: '1500.00' }]);
    expect(res.body.data.max.userErrors).toEqual([expect.objectContaining({ code: 'BID_TOO_LOW', field: 'maxAmount', minimumAmount: '1050.00' })]);
    expect(await bidsOn(lotId)).toBe(1);
  });

  it('answers malformed input as user errors naming the field', async () => {
    const res = await gql(rival.keypair, `mutation($lot: ID!) { ${SUBMIT('x', '{ lotId: $lot, amount: "12.345" }')} }`, { lot: lotId });
    expect(res.body.data.x.userErrors).toEqual([expect.objectContaining({ field: 'amount' })]);
    expect(res.body.data.x.bids).toBeNull();
  });

  it('keeps authentication a top-level error', async () => {
    const res = await world.t.client.graphql(`mutation($lot: ID!) { ${SUBMIT('x', '{ lotId: $lot, amount: "5000" }')} }`, { lot: lotId });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('answers a stopped account with a top-level 403, a paused one with its refusal in userErrors', async () => {
    const { t, platform } = world;
    const [stopped, paused] = [await createAccount(t, platform), await createAccount(t, platform)];
    await blacklist(t, platform, stopped.id, 'stopped');
    await blacklist(t, platform, paused.id, 'paused');
    const asStopped = await gql(stopped.keypair, `mutation($lot: ID!) { ${SUBMIT('x', '{ lotId: $lot, amount: "5000" }')} }`, { lot: lotId });
    expect(asStopped.status).toBe(403);
    expect(asStopped.body.data ?? null).toBeNull();
    expect(asStopped.body.errors[0].extensions).toMatchObject({ code: 'account_blocked', status: 403 });
    const asPaused = await gql(paused.keypair, `mutation($lot: ID!) { ${SUBMIT('x', '{ lotId: $lot, amount: "5000" }')} }`, { lot: lotId });
    expect(asPaused.body.errors).toBeUndefined();
    expect(asPaused.body.data.x.userErrors).toHaveLength(1);
  });

  it("refuses another platform's user and staff as placeBid does, in userErrors", async () => {
    for (const who of [otherUser.keypair, world.otherAdmin.keypair, world.otherPlatform, world.admin.keypair]) {
      const old = await gql(who, 'mutation($lot: ID!) { placeBid(lotId: $lot, amount: "5000") { highestBid } }', { lot: lotId });
      const now = await gql(who, `mutation($lot: ID!) { ${SUBMIT('x', '{ lotId: $lot, amount: "5000" }')} }`, { lot: lotId });
      expect(old.body.errors[0].extensions.code).toEqual(expect.any(String));
      expect(now.body.data.x.userErrors.map((e: { code: string }) => e.code)).toEqual([old.body.errors[0].extensions.code.toUpperCase()]);
    }
    expect(await bidsOn(lotId)).toBe(1);
  });
});

describe('placeBid, deprecated', () => {
  it('still answers as before: one refused alias blanks the whole answer', async () => {
    const before = await bidsOn(lotId);
    const res = await gql(rival.keypair, 'mutation($lot: ID!) { a: placeBid(lotId: $lot, amount: "1050") { highestBid } b: placeBid(lotId: $lot, amount: "1050") { highestBid } }', { lot: lotId });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['b'], extensions: expect.objectContaining({ code: 'bid_too_low', status: 400 }) })]);
    expect(await bidsOn(lotId)).toBe(before + 1);
  });

  it('names its replacement', async () => {
    const res = await world.t.client.graphql('{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
    const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
    expect(reasons).toMatchObject({
      placeBid: 'Use submitBid',
      starLot: 'Use addStar',
      unstarLot: 'Use removeStar',
      requestParticipation: 'Use submitParticipationRequest',
      requestBuyNow: 'Use submitBuyNowRequest',
      submitBid: null,
    });
  });
});

describe('addStar and removeStar', () => {
  const STAR = (alias: string) => `${alias}: addStar(input: { accountId: $account, lotId: $lot }) { watchlistEntry { lotId accountId } userErrors { code field } }`;

  it('answers a new star and refuses one already starred, each in its own alias', async () => {
    const { t, platform } = world;
    const starred = String((await createLot(t, platform)).id);
    expect((await gql(bidder.keypair, `mutation($account: String!, $lot: ID!) { ${STAR('s')} }`, { account: bidder.id, lot: starred })).body.data.s.userErrors).toEqual([]);
    const STAR_ON = (alias: string, lot: string) => `${alias}: addStar(input: { accountId: $account, lotId: ${lot} }) { watchlistEntry { lotId accountId } userErrors { code field } }`;
    const res = await gql(bidder.keypair, `mutation($account: String!, $lot: ID!, $starred: ID!) { ${STAR_ON('s0', '$lot')} ${STAR_ON('s1', '$starred')} }`, { account: bidder.id, lot: lotId, starred });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.s0).toEqual({ watchlistEntry: { lotId, accountId: bidder.id }, userErrors: [] });
    expect(res.body.data.s1).toEqual({ watchlistEntry: null, userErrors: [{ code: 'STAR_EXISTS', field: 'lotId' }] });
  });

  it('refuses the second of two stars of the same lot in one request, as REST answers 409 to the second POST', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform)).id);
    const res = await gql(bidder.keypair, `mutation($account: String!, $lot: ID!) { ${STAR('a')} ${STAR('b')} }`, { account: bidder.id, lot });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ watchlistEntry: { lotId: lot, accountId: bidder.id }, userErrors: [] });
    expect(res.body.data.b).toEqual({ watchlistEntry: null, userErrors: [{ code: 'STAR_EXISTS', field: 'lotId' }] });
  });

  it("refuses another platform's staff as starLot does", async () => {
    for (const who of [world.otherAdmin.keypair, world.otherPlatform, otherUser.keypair]) {
      const old = await gql(who, 'mutation($a: String!, $l: String!) { starLot(accountId: $a, lotId: $l) { lotId } }', { a: rival.id, l: lotId });
      const now = await gql(who, 'mutation($a: String!, $l: ID!) { addStar(input: { accountId: $a, lotId: $l }) { watchlistEntry { lotId } userErrors { code } } }', { a: rival.id, l: lotId });
      expect(now.body.data.addStar).toEqual({ watchlistEntry: null, userErrors: [{ code: old.body.errors[0].extensions.code.toUpperCase() }] });
    }
  });

  it('takes the star off, and answers a second removal as a user error', async () => {
    const REMOVE = (alias: string) => `${alias}: removeStar(input: { accountId: $account, lotId: $lot }) { lotId accountId userErrors { code } }`;
    const res = await gql(bidder.keypair, `mutation($account: String!, $lot: ID!) { ${REMOVE('r0')} ${REMOVE('r1')} }`, { account: bidder.id, lot: lotId });
    expect(res.body.data.r0).toEqual({ lotId, accountId: bidder.id, userErrors: [] });
    expect(res.body.data.r1.lotId).toBeNull();
    expect(res.body.data.r1.userErrors).toHaveLength(1);
  });
});

describe('submitParticipationRequest and submitBuyNowRequest', () => {
  it('joins once, refuses the second request and the organizer as requestParticipation does', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform)).id);
    const user = await createAccount(t, platform);
    const JOIN = (alias: string) => `${alias}: submitParticipationRequest(input: { lotId: $lot }) { participant { lotId accountId stateStr } userErrors { code field } }`;
    const res = await gql(user.keypair, `mutation($lot: ID!) { ${JOIN('j0')} ${JOIN('j1')} }`, { lot });
    expect(res.body.data.j0).toEqual({ participant: { lotId: lot, accountId: user.id, stateStr: expect.any(String) }, userErrors: [] });
    expect(res.body.data.j1).toEqual({ participant: null, userErrors: [{ code: 'ALREADY_PARTICIPANT', field: null }] });
    for (const who of [platform, world.admin.keypair]) {
      const old = await gql(who, 'mutation($lot: ID!) { requestParticipation(lotId: $lot) { id } }', { lot });
      const now = await gql(who, `mutation($lot: ID!) { ${JOIN('j')} }`, { lot });
      expect(now.body.data.j.userErrors.map((e: { code: string }) => e.code)).toEqual([old.body.errors[0].extensions.code.toUpperCase()]);
    }
  });

  it("requests buy now for the caller's own participation only", async () => {
    const { t, platform } = world;
    const sale = String((await createLot(t, platform, { ...DIRECT_SALE, deposit: '0' })).id);
    const buyer = await createAccount(t, platform);
    const joined = await gql(buyer.keypair, 'mutation($lot: ID!) { submitParticipationRequest(input: { lotId: $lot, buyNow: true }) { participant { id } userErrors { code } } }', { lot: sale });
    expect(joined.body.data.submitParticipationRequest.userErrors).toEqual([]);
    const BUY = 'mutation($lot: ID!, $a: String!) { submitBuyNowRequest(input: { lotId: $lot, accountId: $a }) { participant { accountId requestedBuyNow } userErrors { code } } }';
    const stranger = await gql(otherUser.keypair, BUY, { lot: sale, a: buyer.id });
    const old = await gql(otherUser.keypair, 'mutation($lot: ID!, $a: String!) { requestBuyNow(lotId: $lot, accountId: $a) { id } }', { lot: sale, a: buyer.id });
    expect(stranger.body.data.submitBuyNowRequest).toEqual({ participant: null, userErrors: [{ code: old.body.errors[0].extensions.code.toUpperCase() }] });
  });
});

describe('payload twins of the Boolean mutations', () => {
  /** The code a deprecated mutation answers at the top level, as a user error names it. */
  const oldCode = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code.toUpperCase();

  it('asks for a callback once, refuses the second in its own alias, and takes it back', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform)).id);
    const ASK = (alias: string) => `${alias}: addCallbackRequest(input: { lotId: $lot }) { callback { lotId accountId } userErrors { code } }`;
    const res = await gql(rival.keypair, `mutation($lot: ID!) { ${ASK('c0')} ${ASK('c1')} }`, { lot });
    expect(res.body.data.c0).toEqual({ callback: { lotId: lot, accountId: rival.id }, userErrors: [] });
    expect(res.body.data.c1).toEqual({ callback: null, userErrors: [{ code: 'CALLBACK_EXISTS' }] });
    const TAKE_BACK = 'mutation($lot: ID!, $a: String!) { removeCallbackRequest(input: { lotId: $lot, accountId: $a }) { lotId accountId userErrors { code } } }';
    for (const who of [otherUser.keypair, world.otherAdmin.keypair]) {
      const old = await gql(who, 'mutation($lot: String!, $a: String!) { deleteCallback(lotId: $lot, accountId: $a) }', { lot, a: rival.id });
      const now = await gql(who, TAKE_BACK, { lot, a: rival.id });
      expect(now.body.data.removeCallbackRequest).toEqual({ lotId: null, accountId: null, userErrors: [{ code: oldCode(old) }] });
    }
    expect((await gql(rival.keypair, TAKE_BACK, { lot, a: rival.id })).body.data.removeCallbackRequest).toEqual({ lotId: lot, accountId: rival.id, userErrors: [] });
  });

  it("deletes a saved search once; another platform's staff are refused as deleteSavedSearch refuses them", async () => {
    const saved = await gql(rival.keypair, 'mutation($a: String!) { saveSearch(accountId: $a, filter: {}) { id } }', { a: rival.id });
    const id = saved.body.data.saveSearch.id;
    const REMOVE = (alias: string) => `${alias}: removeSavedSearch(input: { accountId: $a, id: $id }) { savedSearchId userErrors { code } }`;
    const old = await gql(world.otherAdmin.keypair, 'mutation($a: String!, $id: ID!) { deleteSavedSearch(accountId: $a, id: $id) }', { a: rival.id, id });
    const stranger = await gql(world.otherAdmin.keypair, `mutation($a: String!, $id: ID!) { ${REMOVE('r')} }`, { a: rival.id, id });
    expect(stranger.body.data.r).toEqual({ savedSearchId: null, userErrors: [{ code: oldCode(old) }] });
    const res = await gql(rival.keypair, `mutation($a: String!, $id: ID!) { ${REMOVE('r0')} ${REMOVE('r1')} }`, { a: rival.id, id });
    expect(res.body.data.r0).toEqual({ savedSearchId: id, userErrors: [] });
    expect(res.body.data.r1).toEqual({ savedSearchId: null, userErrors: [{ code: 'SAVED_SEARCH_NOT_FOUND' }] });
  });

  it("refuses marking notifications that are not the caller's, and more than 100, as markNotificationsRead does", async () => {
    const MARK = 'mutation($ids: [ID!]!) { markNotificationsAsRead(input: { ids: $ids }) { notificationIds userErrors { code field } } }';
    for (const ids of [['999999'], Array.from({ length: 101 }, (_, i) => String(i + 1))]) {
      const old = await gql(rival.keypair, 'mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) }', { ids });
      const now = await gql(rival.keypair, MARK, { ids });
      expect(now.body.data.markNotificationsAsRead.notificationIds).toBeNull();
      expect(now.body.data.markNotificationsAsRead.userErrors.map((e: { code: string }) => e.code)).toEqual([oldCode(old)]);
    }
    expect((await gql(rival.keypair, MARK, { ids: [] })).body.data.markNotificationsAsRead).toEqual({ notificationIds: [], userErrors: [] });
  });

  it('refuses canceling a request that is not there as cancelRequest does', async () => {
    const old = await gql(rival.keypair, 'mutation { cancelRequest(id: "999999") }');
    const now = await gql(rival.keypair, 'mutation { cancelCreateLotRequest(input: { id: "999999" }) { requestId userErrors { code } } }');
    expect(now.body.data.cancelCreateLotRequest).toEqual({ requestId: null, userErrors: [{ code: oldCode(old) }] });
  });
});

describe('selectWinner, removeParticipant and settleLot', () => {
  const SELECT = (alias: string, key: string) =>
    `${alias}: selectWinner(input: { lotId: $lot, participantId: $participant${key ? `, idempotencyKey: "${key}"` : ''} }) { participant { id accountId stateStr } userErrors { code field } }`;
  const REMOVE = (alias: string) => `${alias}: removeParticipant(input: { lotId: $lot, accountId: $account }) { lotId accountId userErrors { code field } }`;
  const SETTLE = (alias: string, state: string, key = '') => `${alias}: settleLot(input: { lotId: $lot, state: "${state}"${key ? `, idempotencyKey: "${key}"` : ''} }) { lotId lot { id lotStateStr } userErrors { code field } }`;

  it('chooses the winner once: a replay of the key answers the first result, another call the refusal chooseWinner gives, each in its own alias', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform, FREE_LOT)).id);
    const user = await createAccount(t, platform);
    const participant = (await join(t, user.keypair, lot)).id;
    const vars = { lot, participant };
    const outsider = await gql(world.otherAdmin.keypair, `mutation($lot: ID!, $participant: ID!) { ${SELECT('s', '')} }`, vars);
    const old = await gql(world.otherAdmin.keypair, 'mutation($lot: ID!, $participant: ID!) { chooseWinner(lotId: $lot, participantId: $participant) { id } }', vars);
    expect(outsider.body.data.s).toEqual({ participant: null, userErrors: [{ code: old.body.errors[0].extensions.code.toUpperCase(), field: null }] });
    const res = await gql(platform, `mutation($lot: ID!, $participant: ID!) { ${SELECT('a', 'win-1')} ${SELECT('b', 'win-1')} ${SELECT('c', '')} }`, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ participant: { id: participant, accountId: user.id, stateStr: expect.stringMatching(/winner/) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c.participant).toBeNull();
    expect(res.body.data.c.userErrors).toHaveLength(1);
  });

  it('closes the lot, answering it as it is now; a second close is a user error, a replay of the key the first result', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform)).id);
    const res = await gql(platform, `mutation($lot: ID!) { ${SETTLE('bad', 'gone')} ${SETTLE('a', 'finished', 'close-1')} ${SETTLE('b', 'finished', 'close-1')} ${SETTLE('c', 'finished')} }`, { lot });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad).toEqual({ lotId: null, lot: null, userErrors: [{ code: expect.any(String), field: 'state' }] });
    expect(res.body.data.a).toEqual({ lotId: lot, lot: { id: lot, lotStateStr: expect.stringMatching(/finished/) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c).toMatchObject({ lotId: null, lot: null, userErrors: [{ code: expect.any(String) }] });
  });

  it('rejects a participant, again as a success, and refuses another platform\'s staff as rejectParticipant does', async () => {
    const { t, platform } = world;
    const lot = String((await createLot(t, platform)).id);
    const user = await createAccount(t, platform);
    await join(t, user.keypair, lot);
    const vars = { lot, account: user.id };
    const old = await gql(world.otherAdmin.keypair, 'mutation($lot: ID!, $account: String!) { rejectParticipant(lotId: $lot, accountId: $account) }', vars);
    const outsider = await gql(world.otherAdmin.keypair, `mutation($lot: ID!, $account: String!) { ${REMOVE('r')} }`, vars);
    expect(outsider.body.data.r).toEqual({ lotId: null, accountId: null, userErrors: [{ code: old.body.errors[0].extensions.code.toUpperCase(), field: null }] });
    const res = await gql(platform, `mutation($lot: ID!, $account: String!) { ${REMOVE('r0')} ${REMOVE('r1')} }`, vars);
    expect(res.body.data.r0).toEqual({ lotId: lot, accountId: user.id, userErrors: [] });
    // Rejecting a rejected participant changes nothing and succeeds, as a second DELETE of REST's twin does.
    expect(res.body.data.r1).toEqual(res.body.data.r0);
    expect((await world.t.client.as(platform).delete(`/v2/lots/${lot}/participants/${user.id}`)).status).toBe(204);
  });

  it('marks the mutations they replace deprecated, naming them', async () => {
    const res = await gql(world.admin.keypair, '{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
    const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
    expect([reasons.chooseWinner, reasons.rejectParticipant, reasons.closeLot]).toEqual(['Use selectWinner', 'Use removeParticipant', 'Use settleLot']);
  });
});
