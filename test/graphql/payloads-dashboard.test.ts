import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { canceledDeal } from '../offers/offers.helpers';

/** Payload twins of messages, second-chance offers and the blacklist: each alias answers its own result or refusal. */
const world = appWithTwoPlatforms();

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);
/** The code a deprecated mutation answers at the top level, as a user error names it. */
const oldCode = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code.toUpperCase();

let buyer: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  buyer = await createAccount(world.t, world.platform);
  lotId = String((await createLot(world.t, world.platform)).id);
});

describe('postMessage and markMessagesAsRead', () => {
  const POST = (alias: string, text: string, key = '') =>
    `${alias}: postMessage(input: { sender: $s, receiver: $r, lotId: $lot, text: "${text}"${key ? `, idempotencyKey: "${key}"` : ''} }) { message { id senderId receiverId text readAt } userErrors { code field } }`;

  it('sends beside a refused message, answers a replayed key with the first message, and marks them read', async () => {
    const vars = { s: buyer.id, r: world.admin.id, lot: lotId };
    const res = await gql(buyer.keypair, `mutation($s: String!, $r: String!, $lot: ID!) { ${POST('a', 'Hello', 'm-1')} ${POST('b', 'Hello', 'm-1')} ${POST('c', 'x'.repeat(4001))} }`, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ message: { id: expect.any(String), senderId: buyer.id, receiverId: world.admin.id, text: 'Hello', readAt: null }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c).toEqual({ message: null, userErrors: [expect.objectContaining({ field: 'text' })] });
    const MARK = 'mutation($a: String!, $s: String!, $lot: ID!, $key: String) { markMessagesAsRead(input: { accountId: $a, sender: $s, lotId: $lot, idempotencyKey: $key }) { markedCount userErrors { code field } } }';
    for (let i = 0; i < 2; i++) {
      const marked = await gql(world.admin.keypair, MARK, { a: world.admin.id, s: buyer.id, lot: lotId, key: 'mr-1' });
      expect(marked.body.data.markMessagesAsRead).toEqual({ markedCount: 1, userErrors: [] });
    }
    expect((await gql(world.admin.keypair, MARK, { a: world.admin.id, s: buyer.id, lot: lotId })).body.data.markMessagesAsRead).toEqual({ markedCount: 0, userErrors: [] });
    const old = await gql(world.otherAdmin.keypair, 'mutation($a: String!, $s: String!, $lot: ID!) { markMessagesRead(accountId: $a, sender: $s, lotId: $lot) }', { a: world.admin.id, s: buyer.id, lot: lotId });
    const now = await gql(world.otherAdmin.keypair, MARK, { a: world.admin.id, s: buyer.id, lot: lotId });
    expect(now.body.data.markMessagesAsRead).toEqual({ markedCount: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });

  it("refuses sending as another platform's account, and to a lot that is not there, as sendMessage does", async () => {
    for (const [who, vars] of [
      [world.otherAdmin.keypair, { s: buyer.id, r: world.admin.id, lot: lotId }],
      [buyer.keypair, { s: buyer.id, r: world.admin.id, lot: '99999999' }],
    ] as const) {
      const old = await gql(who, 'mutation($s: String!, $r: String!, $lot: ID!) { sendMessage(sender: $s, receiver: $r, lotId: $lot, text: "Hi") { id } }', vars);
      const now = await gql(who, `mutation($s: String!, $r: String!, $lot: ID!) { ${POST('x', 'Hi')} }`, vars);
      expect(now.body.data.x).toEqual({ message: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
    }
  });
});

describe('createSecondChanceOffer and answerSecondChanceOffer', () => {
  const OFFER_FIELDS = 'secondChanceOffer { id accountId amount state expiresAt } userErrors { code field }';

  it('offers the lot once, a replay answering the first offer; the bidder accepts it, a second answer refused', async () => {
    const { t, platform } = world;
    const [a, b] = [await createAccount(t, platform), await createAccount(t, platform)];
    const { lot } = await canceledDeal(t, platform, [a.keypair, b.keypair]);
    const OFFER = (alias: string, extra = '') => `${alias}: createSecondChanceOffer(input: { lotId: $lot${extra} }) { ${OFFER_FIELDS} }`;
    const made = await gql(platform, `mutation($lot: ID!) { ${OFFER('x', ', expiresIn: -1')} ${OFFER('a', ', idempotencyKey: "sc-1"')} ${OFFER('b', ', idempotencyKey: "sc-1"')} }`, { lot: lot.id });
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.x).toEqual({ secondChanceOffer: null, userErrors: [expect.objectContaining({ field: 'expiresIn' })] });
    expect(made.body.data.a).toEqual({ secondChanceOffer: { id: expect.any(String), accountId: a.id, amount: '1000.00', state: 'open', expiresAt: expect.any(String) }, userErrors: [] });
    expect(made.body.data.b).toEqual(made.body.data.a);
    const offerId = made.body.data.a.secondChanceOffer.id;
    const ANSWER = (alias: string) => `${alias}: answerSecondChanceOffer(input: { lotId: $lot, offerId: $offer, state: "accepted" }) { ${OFFER_FIELDS} }`;
    const stranger = await gql(b.keypair, `mutation($lot: ID!, $offer: ID!) { ${ANSWER('s')} }`, { lot: lot.id, offer: offerId });
    const old = await gql(b.keypair, 'mutation($lot: ID!, $offer: ID!) { answerSecondChance(lotId: $lot, offerId: $offer, state: "accepted") { id } }', { lot: lot.id, offer: offerId });
    expect(stranger.body.data.s).toEqual({ secondChanceOffer: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
    const res = await gql(a.keypair, `mutation($lot: ID!, $offer: ID!) { ${ANSWER('a0')} ${ANSWER('a1')} }`, { lot: lot.id, offer: offerId });
    expect(res.body.data.a0).toMatchObject({ secondChanceOffer: { id: offerId, state: 'accepted' }, userErrors: [] });
    expect(res.body.data.a1.secondChanceOffer).toBeNull();
    expect(res.body.data.a1.userErrors).toHaveLength(1);
  });

  it("refuses another platform's staff as offerSecondChance does", async () => {
    const old = await gql(world.otherAdmin.keypair, 'mutation($lot: ID!) { offerSecondChance(lotId: $lot) { id } }', { lot: lotId });
    const now = await gql(world.otherAdmin.keypair, `mutation($lot: ID!) { createSecondChanceOffer(input: { lotId: $lot }) { ${OFFER_FIELDS} } }`, { lot: lotId });
    expect(now.body.data.createSecondChanceOffer).toEqual({ secondChanceOffer: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });
});

describe('addBlacklistEntry and removeBlacklistEntry', () => {
  const ADD = (alias: string, state: string) => `${alias}: addBlacklistEntry(input: { accountId: $a, state: "${state}" }) { blacklistEntry { accountId state } userErrors { code field } }`;
  const REMOVE = (alias: string, key = '') => `${alias}: removeBlacklistEntry(input: { accountId: $a${key ? `, idempotencyKey: "${key}"` : ''} }) { accountId userErrors { code field } }`;

  it('pauses an account beside a refused state, and takes it off, a replay answering the first result', async () => {
    const target = await createAccount(world.t, world.platform);
    const res = await gql(world.platform, `mutation($a: String!) { ${ADD('bad', 'gone')} ${ADD('ok', 'paused')} }`, { a: target.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad).toEqual({ blacklistEntry: null, userErrors: [expect.objectContaining({ field: 'state' })] });
    expect(res.body.data.ok).toEqual({ blacklistEntry: { accountId: target.id, state: 'paused' }, userErrors: [] });
    const off = await gql(world.platform, `mutation($a: String!) { ${REMOVE('r0', 'bl-1')} ${REMOVE('r1', 'bl-1')} }`, { a: target.id });
    expect(off.body.data.r0).toEqual({ accountId: target.id, userErrors: [] });
    expect(off.body.data.r1).toEqual(off.body.data.r0);
    const listed = await gql(world.platform, '{ blacklist { accountId } }');
    expect(listed.body.data.blacklist).not.toContainEqual({ accountId: target.id });
  });

  it("refuses another platform's staff as blacklistAccount and unblacklistAccount do", async () => {
    const target = await createAccount(world.t, world.platform);
    const oldAdd = await gql(world.otherAdmin.keypair, 'mutation($a: String!) { blacklistAccount(accountId: $a, state: "stopped") { accountId } }', { a: target.id });
    const oldRemove = await gql(world.otherAdmin.keypair, 'mutation($a: String!) { unblacklistAccount(accountId: $a) }', { a: target.id });
    const now = await gql(world.otherAdmin.keypair, `mutation($a: String!) { ${ADD('add', 'stopped')} ${REMOVE('remove')} }`, { a: target.id });
    expect(now.body.errors).toBeUndefined();
    expect(now.body.data.add).toEqual({ blacklistEntry: null, userErrors: [expect.objectContaining({ code: oldCode(oldAdd) })] });
    expect(now.body.data.remove).toEqual({ accountId: null, userErrors: [expect.objectContaining({ code: oldCode(oldRemove) })] });
  });
});

it('marks the mutations they replace deprecated, naming them', async () => {
  const res = await gql(world.admin.keypair, '{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
  const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
  expect([reasons.sendMessage, reasons.markMessagesRead, reasons.offerSecondChance, reasons.answerSecondChance, reasons.blacklistAccount, reasons.unblacklistAccount]).toEqual([
    'Use postMessage',
    'Use markMessagesAsRead',
    'Use createSecondChanceOffer',
    'Use answerSecondChanceOffer',
    'Use addBlacklistEntry',
    'Use removeBlacklistEntry',
  ]);
});
