import type { Keypair } from '@stellar/stellar-sdk';
import { Deposit, DepositState, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { bid } from '../rules/rules.helpers';
import { chooseWinner, codeOf, depositOf, join, participantOf, setDeposit } from './trading.helpers';

let t: TestApp;
let platform: Keypair;
let otherPlatform: Keypair;
let users: CreatedAccount[];
let admin: CreatedAccount;
/** Deposit ids by name, made in beforeAll: a and b on lot 1 (a by users[0], b by users[1]), c by users[0] on lot 2, d on the other platform's lot. */
const ids: Record<string, string> = {};
let lot1: string;
let lot2: string;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  otherPlatform = await createPlatform(t);
  users = [];
  for (let i = 0; i < 3; i++) users.push(await createAccount(t, platform));
  admin = await createAccount(t, platform, { type: 'admin' });
  lot1 = (await createLot(t, platform, ENG_LOT)).id;
  lot2 = (await createLot(t, platform, { ...ENG_LOT, deposit: '75.25', currency: 'GEL' })).id;
  const lot3 = (await createLot(t, otherPlatform, ENG_LOT)).id;
  ids.a = (await depositOf(t, await join(t, users[0].keypair, lot1))).id;
  ids.b = (await depositOf(t, await join(t, users[1].keypair, lot1))).id;
  ids.c = (await depositOf(t, await join(t, users[0].keypair, lot2))).id;
  ids.d = (await depositOf(t, await join(t, users[0].keypair, lot3))).id;
});
afterAll(() => t.close());

const list = (who: Keypair, query = '') => t.client.as(who).get(`/deposits${query}`);
const idsOf = (res: { body: any }) => res.body.data.map((d: any) => d.id);

describe('GET /deposits', () => {
  it('shows a user its own deposits, newest first, with amounts as two-decimal strings', async () => {
    const res = await list(users[0].keypair);
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids.d, ids.c, ids.a]);
    expect(res.body.meta).toEqual({ on_page: 3 });
    expect(res.body.data[1]).toMatchObject({
      type: 'deposits',
      id: ids.c,
      attributes: { amount: '75.25', currency: 'GEL', account_id: users[0].id, state: 1, state_str: 'pending' },
    });
    expect(res.body.data[1].attributes.participant_id).toEqual(expect.any(Number));
    expect(res.body.links.next).toBeUndefined();
    expect(idsOf(await list(users[2].keypair))).toEqual([]);
  });

  it("shows staff the deposits on their platform's lots only", async () => {
    expect(idsOf(await list(platform))).toEqual([ids.c, ids.b, ids.a]);
    expect(idsOf(await list(admin.keypair, '?sort=created_at'))).toEqual([ids.a, ids.b, ids.c]);
    expect(idsOf(await list(otherPlatform))).toEqual([ids.d]);
  });

  it('filters by state and lot_id', async () => {
    expect(idsOf(await list(platform, `?filter[lot_id]=${lot1}`))).toEqual([ids.b, ids.a]);
    expect(idsOf(await list(platform, `?filter[lot_id]=${lot2}&filter[state]=pending,paid`))).toEqual([ids.c]);
    expect(idsOf(await list(platform, '?filter[state]=returned,fee_charged'))).toEqual([]);
  });

  it('pages with cursors that keep the other parameters', async () => {
    const first = await list(platform, '?page[limit]=2&filter[state]=pending');
    expect(idsOf(first)).toEqual([ids.c, ids.b]);
    expect(first.body.links.next).toMatch(/^\/deposits\?/);
    expect(first.body.links.next).toContain('filter[state]=pending');
    const second = await list(platform, first.body.links.next.replace(/^\/deposits/, ''));
    expect(idsOf(second)).toEqual([ids.a]);
    expect(second.body.links.next).toBeUndefined();
    const back = await list(platform, second.body.links.prev.replace(/^\/deposits/, ''));
    expect(idsOf(back)).toEqual([ids.c, ids.b]);
  });

  it('includes the participants', async () => {
    const res = await list(users[0].keypair, `?include=participant&filter[lot_id]=${lot1}`);
    const participant = await participantOf(t, lot1, users[0].id);
    expect(res.body.data[0].relationships).toEqual({ participant: { data: { type: 'participants', id: participant.id } } });
    expect(res.body.included).toEqual([
      expect.objectContaining({ type: 'participants', id: participant.id, attributes: expect.objectContaining({ account_id: users[0].id, state_str: 'deposit_pending' }) }),
    ]);
  });

  it('answers 400 to an unknown filter, state, sort, include or cursor, and 401 unsigned', async () => {
    for (const [query, parameter] of [
      ['?filter[state]=lost', 'filter[state]'],
      ['?filter[account]=x', 'filter[account]'],
      ['?filter[lot_id]=abc', 'filter[lot_id]'],
      ['?sort=amount', 'sort'],
      ['?include=lot', 'include'],
      ['?page[cursor]=bogus', 'page[cursor]'],
      ['?page[limit]=101', 'page[limit]'],
    ]) {
      const res = await list(platform, query);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
    expect((await t.client.get('/deposits')).status).toBe(401);
  });

  it('is the GraphQL query deposits too, with the participant', async () => {
    const res = await t.client.as(users[0].keypair).graphql('{ deposits(first: 2) { nodes { id amount state stateStr participant { accountId } } pageInfo { hasNextPage endCursor } } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.deposits.nodes.map((d: any) => d.id)).toEqual([ids.d, ids.c]);
    expect(res.body.data.deposits.nodes[1]).toEqual({ id: ids.c, amount: '75.25', state: 1, stateStr: 'pending', participant: { accountId: users[0].id } });
    expect(res.body.data.deposits.pageInfo.hasNextPage).toBe(true);
    const next = await t.client.as(users[0].keypair).graphql('query ($after: String) { deposits(first: 2, after: $after) { nodes { id } } }', { after: res.body.data.deposits.pageInfo.endCursor });
    expect(next.body.data.deposits.nodes).toEqual([{ id: ids.a }]);
    const bad = await t.client.as(users[0].keypair).graphql('{ deposits(state: ["lost"]) { nodes { id } } }');
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', status: 400 });
    const anonymous = await t.client.graphql('{ deposits { nodes { id } } }');
    expect(anonymous.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});

describe('PATCH /deposits/{id}', () => {
  it('marks a pending deposit paid, moves its participant to pending, and answers with amount as a number', async () => {
    const lot = await createLot(t, platform, { ...ENG_LOT, deposit: '120.5' });
    const p = await join(t, users[2].keypair, lot.id);
    const deposit = await depositOf(t, p);
    const res = await setDeposit(t, admin.keypair, deposit.id, 'paid');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'deposits',
      id: deposit.id,
      attributes: { amount: 120.5, currency: 'USD', account_id: users[2].id, participant_id: Number(p.id), state: 2, state_str: 'paid' },
    });
    expect((await participantOf(t, lot.id, p.accountId)).state).toBe(ParticipantState.Pending);

    const returned = await setDeposit(t, platform, deposit.id, 'returned');
    expect(returned.status).toBe(200);
    expect(returned.body.data.attributes).toMatchObject({ state: 3, state_str: 'returned', amount: 120.5 });
    expect((await participantOf(t, lot.id, p.accountId)).state).toBe(ParticipantState.DepositPending);
  });

  it('returning the deposit of a participant still taking part takes back its right to bid until it is paid again; its bids stand (REST and GraphQL)', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const [bidder, rival] = [users[2], users[1]];
    const deposit = await depositOf(t, await join(t, bidder.keypair, lot.id));
    const rivalDeposit = await depositOf(t, await join(t, rival.keypair, lot.id));
    for (const d of [deposit, rivalDeposit]) expect((await setDeposit(t, admin.keypair, d.id, 'paid')).status).toBe(200);
    expect((await bid(t, bidder.keypair, lot.id, { amount: '1000' })).status).toBe(204);

    expect((await setDeposit(t, admin.keypair, deposit.id, 'returned')).status).toBe(200);
    expect((await participantOf(t, lot.id, bidder.id)).state).toBe(ParticipantState.DepositPending);
    const refused = await bid(t, bidder.keypair, lot.id, { amount: '1100' });
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('deposit_not_paid');
    // Its bid stands; others bid on as before.
    expect((await bid(t, rival.keypair, lot.id, { amount: '1050' })).status).toBe(204);

    const SET = /* GraphQL */ `mutation ($id: ID!, $state: String!) { setDepositState(id: $id, state: $state) { state stateStr } }`;
    const again = await t.client.as(admin.keypair).graphql(SET, { id: deposit.id, state: 'paid' });
    expect(again.body).toEqual({ data: { setDepositState: { state: 2, stateStr: 'paid' } } });
    expect((await participantOf(t, lot.id, bidder.id)).state).toBe(ParticipantState.Pending);
    expect((await bid(t, bidder.keypair, lot.id, { amount: '1100' })).status).toBe(204);
  });

  it('refuses to pay again a deposit returned to a participant that no longer takes part', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const loser = await join(t, users[0].keypair, lot.id);
    const winner = await join(t, users[1].keypair, lot.id);
    const deposit = await depositOf(t, loser);
    expect((await setDeposit(t, admin.keypair, deposit.id, 'paid')).status).toBe(200);
    expect((await setDeposit(t, admin.keypair, (await depositOf(t, winner)).id, 'paid')).status).toBe(200);
    expect((await chooseWinner(t, admin.keypair, lot.id, winner)).status).toBe(200);
    // Losing returned the deposit.
    expect((await t.orm.em.fork().findOneOrFail(Deposit, { id: deposit.id })).state).toBe(DepositState.Returned);
    const res = await setDeposit(t, admin.keypair, deposit.id, 'paid');
    expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_deposit_transition', source: { pointer: '/data/attributes/state' } });
    expect((await t.orm.em.fork().findOneOrFail(Deposit, { id: deposit.id })).state).toBe(DepositState.Returned);
  });

  it('answers an amount no JSON number carries exactly as its decimal string, never as a nearby number', async () => {
    const amounts: (number | string)[] = [];
    for (const deposit of ['9999999999999.99', '999999999999999999.99']) {
      const lot = await createLot(t, platform, { ...ENG_LOT, start_price: '999999999999999000', buy_now_price: '999999999999999999.99', max_step: '999999999999999', deposit });
      const res = await setDeposit(t, admin.keypair, (await depositOf(t, await join(t, users[2].keypair, lot.id))).id, 'paid');
      expect(res.status).toBe(200);
      amounts.push(res.body.data.attributes.amount);
    }
    // 15 digits: a number; 20: as a number it was 1000000000000000000.
    expect(amounts).toEqual([9999999999999.99, '999999999999999999.99']);
  });

  it('answers 400 invalid_deposit_transition to any other move', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const deposit = await depositOf(t, await join(t, users[1].keypair, lot.id));
    const early = await setDeposit(t, platform, deposit.id, 'returned');
    expect(early.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_deposit_transition', source: { pointer: '/data/attributes/state' } });
    expect((await setDeposit(t, platform, deposit.id, 'paid')).status).toBe(200);
    expect(codeOf(await setDeposit(t, admin.keypair, deposit.id, 'paid'))).toBe('invalid_deposit_transition');
    expect((await setDeposit(t, platform, deposit.id, 'returned')).status).toBe(200);
    // Returned twice: refused. (Paid again, while its participant takes part, is a move of its own: above.)
    expect(codeOf(await setDeposit(t, admin.keypair, deposit.id, 'returned'))).toBe('invalid_deposit_transition');
    expect((await t.orm.em.fork().findOneOrFail(Deposit, { id: deposit.id })).state).toBe(DepositState.Returned);
  });

  it('answers 400 to a malformed document', async () => {
    for (const [attributes, pointer] of [
      [{ state: 'fee_charged' }, '/data/attributes/state'],
      [{}, '/data/attributes/state'],
    ] as const) {
      const res = await t.client.as(platform).patch(`/deposits/${ids.a}`, { data: { type: 'deposits', id: ids.a, attributes } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    }
    const wrongType = await t.client.as(platform).patch(`/deposits/${ids.a}`, { data: { type: 'lots', attributes: { state: 'paid' } } });
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
    const wrongId = await t.client.as(platform).patch(`/deposits/${ids.a}`, { data: { type: 'deposits', id: ids.b, attributes: { state: 'paid' } } });
    expect(wrongId.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/id' } });
    expect((await t.orm.em.fork().findOneOrFail(Deposit, { id: ids.a })).state).toBe(DepositState.Pending);
  });

  it("answers 403 to anyone but staff of the lot's publisher, 404 and 401", async () => {
    for (const who of [users[0].keypair, otherPlatform]) {
      const res = await setDeposit(t, who, ids.a, 'paid');
      expect([res.status, codeOf(res)]).toEqual([403, 'not_allowed']);
    }
    const missing = await setDeposit(t, platform, '99999999', 'paid');
    expect([missing.status, codeOf(missing)]).toEqual([404, 'deposit_not_found']);
    expect((await setDeposit(t, platform, 'abc', 'paid')).status).toBe(404);
    expect((await t.client.patch(`/deposits/${ids.a}`, { data: { type: 'deposits', attributes: { state: 'paid' } } })).status).toBe(401);
    expect((await t.orm.em.fork().findOneOrFail(Deposit, { id: ids.a })).state).toBe(DepositState.Pending);
  });

  it('is the GraphQL mutation setDepositState too', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const p = await join(t, users[2].keypair, lot.id);
    const deposit = await depositOf(t, p);
    const query = 'mutation ($id: ID!, $s: String!) { setDepositState(id: $id, state: $s) { id state stateStr amount } }';
    const denied = await t.client.as(users[2].keypair).graphql(query, { id: deposit.id, s: 'paid' });
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const res = await t.client.as(platform).graphql(query, { id: deposit.id, s: 'paid' });
    expect(res.body).toEqual({ data: { setDepositState: { id: deposit.id, state: 2, stateStr: 'paid', amount: '100.00' } } });
    expect((await participantOf(t, lot.id, p.accountId)).state).toBe(ParticipantState.Pending);
  });
});
