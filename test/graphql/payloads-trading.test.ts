import type { Keypair } from '@stellar/stellar-sdk';
import { DepositState } from '../../src/modules/trading/trading.entity';
import { createAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { chooseWinner, depositOf, join, pay } from '../trading/trading.helpers';

/** Payload twins of the lot managers' and the saved searches' mutations: each alias answers its own result or refusal. */
const world = appWithTwoPlatforms();

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);
/** The code a deprecated mutation answers at the top level, as a user error names it. */
const oldCode = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code.toUpperCase();

/** An auction whose participant paid its deposit and won. */
async function wonLot() {
  const { t, platform } = world;
  const lot = await createLot(t, platform, ENG_LOT);
  const user = await createAccount(t, platform);
  const winner = await join(t, user.keypair, lot.id);
  await pay(t, platform, winner);
  expect((await chooseWinner(t, platform, lot.id, winner)).status).toBe(200);
  return { lotId: String(lot.id), winner };
}

describe('updateWinnerDetails', () => {
  const UPDATE = (alias: string, details: string) => `${alias}: updateWinnerDetails(input: { lotId: $lot, ${details} }) { winnerDetails { lotId containerId invoicePaid fee { amount currency } } userErrors { code field } }`;

  it('records the details in one alias and refuses undoing a paid invoice in another, the first committed', async () => {
    const { lotId } = await wonLot();
    const res = await gql(world.platform, `mutation($lot: ID!) { ${UPDATE('a', 'containerId: "C-1", invoicePaid: true, feeAmount: "150.50", feeCurrency: "EUR"')} ${UPDATE('b', 'invoicePaid: false')} }`, { lot: lotId });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ winnerDetails: { lotId, containerId: 'C-1', invoicePaid: true, fee: { amount: '150.50', currency: 'EUR' } }, userErrors: [] });
    expect(res.body.data.b).toEqual({ winnerDetails: null, userErrors: [{ code: 'WINNER_DETAILS_FINAL', field: 'invoicePaid' }] });
    const cleared = await gql(world.platform, `mutation($lot: ID!) { ${UPDATE('c', 'containerId: null')} }`, { lot: lotId });
    expect(cleared.body.data.c.winnerDetails).toMatchObject({ containerId: null, invoicePaid: true });
  });

  it('names a malformed fee, and refuses another platform\'s staff as setWinnerDetails does', async () => {
    const { lotId } = await wonLot();
    const bad = await gql(world.platform, `mutation($lot: ID!) { ${UPDATE('x', 'feeAmount: "1.234"')} }`, { lot: lotId });
    expect(bad.body.data.x).toEqual({ winnerDetails: null, userErrors: [expect.objectContaining({ field: 'feeAmount' })] });
    const old = await gql(world.otherAdmin.keypair, 'mutation($lot: ID!) { setWinnerDetails(lotId: $lot, input: { containerId: "X" }) { lotId } }', { lot: lotId });
    const now = await gql(world.otherAdmin.keypair, `mutation($lot: ID!) { ${UPDATE('x', 'containerId: "X"')} }`, { lot: lotId });
    expect(old.body.data).toBeNull();
    expect(now.body.data.x).toEqual({ winnerDetails: null, userErrors: [{ code: oldCode(old), field: null }] });
  });

  it('answers a replayed key with the first result, and a key that clears apart from one that keeps', async () => {
    const { lotId } = await wonLot();
    const KEYED = (alias: string, details: string) => UPDATE(alias, `${details}, idempotencyKey: "wd-1"`);
    const res = await gql(world.platform, `mutation($lot: ID!) { ${KEYED('a', 'containerId: "C-2"')} ${KEYED('b', 'containerId: "C-2"')} ${KEYED('c', 'containerId: "C-2", serviceLink: null')} }`, { lot: lotId });
    expect(res.body.data.a.userErrors).toEqual([]);
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c).toEqual({ winnerDetails: null, userErrors: [{ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' }] });
  });
});

describe('updateDepositState', () => {
  const SET = (alias: string, state: string, key = '') =>
    `${alias}: updateDepositState(input: { id: $id, state: "${state}"${key ? `, idempotencyKey: "${key}"` : ''} }) { deposit { id stateStr createdAt updatedAt } userErrors { code field } }`;

  it('marks the deposit paid once: a replay answers the first result, a second move from pending is refused by name', async () => {
    const { t, platform } = world;
    const lot = await createLot(t, platform, ENG_LOT);
    const user = await createAccount(t, platform);
    const participant = await join(t, user.keypair, lot.id);
    const deposit = await depositOf(t, participant);
    const res = await gql(platform, `mutation($id: ID!) { ${SET('a', 'paid', 'dep-1')} ${SET('b', 'paid', 'dep-1')} ${SET('c', 'paid')} ${SET('d', 'lost')} }`, { id: deposit.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ deposit: { id: deposit.id, stateStr: 'paid', createdAt: expect.any(String), updatedAt: expect.any(String) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c).toEqual({ deposit: null, userErrors: [{ code: 'INVALID_DEPOSIT_TRANSITION', field: 'state' }] });
    expect(res.body.data.d.deposit).toBeNull();
    expect(res.body.data.d.userErrors).toEqual([expect.objectContaining({ field: 'state' })]);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Paid);
  });

  it("refuses another platform's staff and a missing deposit as setDepositState does", async () => {
    const { t, platform } = world;
    const lot = await createLot(t, platform, ENG_LOT);
    const participant = await join(t, (await createAccount(t, platform)).keypair, lot.id);
    const deposit = await depositOf(t, participant);
    for (const [who, id] of [[world.otherAdmin.keypair, deposit.id], [platform, '99999999']] as const) {
      const old = await gql(who, 'mutation($id: ID!) { setDepositState(id: $id, state: "paid") { id } }', { id });
      const now = await gql(who, `mutation($id: ID!) { ${SET('x', 'paid')} }`, { id });
      expect(now.body.data.x).toEqual({ deposit: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
    }
    expect((await depositOf(t, participant)).state).toBe(DepositState.Pending);
  });
});

describe('addSavedSearch', () => {
  const ADD = (alias: string, filter: string, key = '') =>
    `${alias}: addSavedSearch(input: { accountId: $a, filter: ${filter}${key ? `, idempotencyKey: "${key}"` : ''} }) { savedSearch { id accountId filterJson } userErrors { code field } }`;

  it('saves a search beside a refused one, and answers a replayed key with the first search', async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await gql(user.keypair, `mutation($a: String!) { ${ADD('a', '{ city: "Berlin" }', 'ss-1')} ${ADD('b', '{ city: "Berlin" }', 'ss-1')} ${ADD('c', '{ vin: ["X"] }')} }`, { a: user.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ savedSearch: { id: expect.any(String), accountId: user.id, filterJson: expect.any(String) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c.savedSearch).toBeNull();
    expect(res.body.data.c.userErrors).toEqual([{ code: 'SAVED_SEARCH_FILTER_UNSUPPORTED', field: 'filter.vin' }]);
    const listed = await gql(user.keypair, 'query($a: String!) { savedSearches(accountId: $a) { id } }', { a: user.id });
    expect(listed.body.data.savedSearches).toEqual([{ id: res.body.data.a.savedSearch.id }]);
  });

  it("refuses another platform's staff as saveSearch does", async () => {
    const user = await createAccount(world.t, world.platform);
    const old = await gql(world.otherAdmin.keypair, 'mutation($a: String!) { saveSearch(accountId: $a, filter: {}) { id } }', { a: user.id });
    const now = await gql(world.otherAdmin.keypair, `mutation($a: String!) { ${ADD('x', '{}')} }`, { a: user.id });
    expect(now.body.data.x).toEqual({ savedSearch: null, userErrors: [{ code: oldCode(old), field: null }] });
  });
});

it('marks the mutations they replace deprecated, naming them', async () => {
  const res = await gql(world.admin.keypair, '{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
  const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
  expect([reasons.setWinnerDetails, reasons.setDepositState, reasons.saveSearch]).toEqual(['Use updateWinnerDetails', 'Use updateDepositState', 'Use addSavedSearch']);
});
