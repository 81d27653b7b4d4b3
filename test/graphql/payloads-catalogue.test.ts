import { Keypair } from '@stellar/stellar-sdk';
import { AccountSigner } from '../../src/modules/accounts/accounts.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Notification } from '../../src/modules/notifications/notifications.entity';
import { createAccount } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';
import { build, pay } from '../ledger/ledger.helpers';

/** The payload twins of createLot, reportNotificationEvent, submitTransaction and addMasterSigner. */
const world = appWithTwoPlatforms();

const gql = (who: Keypair | null, query: string, variables?: Record<string, unknown>) => (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);
const key = (k?: string) => (k ? `, idempotencyKey: "${k}"` : '');

describe('addLot', () => {
  const LOT = { type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '5000', deposit: '100', minStep: '50', maxStep: '500', reservePrice: '2000', duration: 3600, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
  const ADD = (alias: string, input: string) => `${alias}: addLot(input: ${input}) { lotId requestId lot { id reservePrice organizer { id } } userErrors { code field } }`;

  it("publishes staff's lot beside a refused one, its reserve shown as the lot view shows it, a replay making nothing more", async () => {
    const organized = () => world.t.orm.em.fork().count(Lot, { organizerId: world.platform.publicKey() });
    const before = await organized();
    const res = await gql(world.platform, `mutation($a: AddLotInput!, $b: AddLotInput!, $bad: AddLotInput!) { ${ADD('a', '$a')} ${ADD('b', '$b')} ${ADD('bad', '$bad')} }`, {
      a: { ...LOT, idempotencyKey: 'lot-1' },
      b: { ...LOT, idempotencyKey: 'lot-1' },
      bad: { ...LOT, minStep: 'ten' },
    });
    expect(res.body.errors).toBeUndefined();
    const { lotId } = res.body.data.a;
    expect(res.body.data.a).toEqual({ lotId, requestId: null, lot: { id: lotId, reservePrice: expect.stringMatching(/^2000(\.00)?$/), organizer: { id: world.platform.publicKey() } }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.bad).toEqual({ lotId: null, requestId: null, lot: null, userErrors: [expect.objectContaining({ field: 'minStep' })] });
    expect(await organized()).toBe(before + 1);
    const asViewed = await gql(world.platform, 'query($id: ID!) { lot(id: $id) { reservePrice } }', { id: lotId });
    expect(asViewed.body.data.lot.reservePrice).toBe(res.body.data.a.lot.reservePrice);
  });

  it("files a request for anyone but staff, answering no lot, so no reserve reaches a buyer's view", async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await gql(user.keypair, `mutation($a: AddLotInput!) { ${ADD('a', '$a')} }`, { a: LOT });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ lotId: null, requestId: expect.any(String), lot: null, userErrors: [] });
  });
});

describe('recordNotificationEvent', () => {
  const RECORD = (alias: string, fields: string) => `${alias}: recordNotificationEvent(input: { ${fields} }) { notificationId recipientId userErrors { code field } }`;

  it("notifies an account of the caller's platform beside a refused type; another platform's staff are refused as REST refuses them", async () => {
    const user = await createAccount(world.t, world.platform);
    const vars = { r: user.id };
    const res = await gql(world.platform, `mutation($r: String!) { ${RECORD('a', `type: 9, recipient: $r${key('ev-1')}`)} ${RECORD('b', `type: 9, recipient: $r${key('ev-1')}`)} ${RECORD('bad', 'type: 1, recipient: $r')} }`, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ notificationId: expect.any(String), recipientId: user.id, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.bad).toEqual({ notificationId: null, recipientId: null, userErrors: [expect.objectContaining({ code: 'INVALID_FIELD', field: 'type' })] });
    expect(await world.t.orm.em.fork().count(Notification, { recipient: user.id })).toBe(1);

    const rest = await world.t.client.as(world.otherPlatform).post('/notifications/events', { data: { type: 'notification_events', attributes: { type: 9, recipient: user.id } } });
    expect(rest.status).toBe(400);
    const outsider = await gql(world.otherPlatform, `mutation($r: String!) { ${RECORD('x', 'type: 9, recipient: $r')} }`, vars);
    expect(outsider.body.data.x).toEqual({ notificationId: null, recipientId: null, userErrors: [{ code: rest.body.errors[0].code.toUpperCase(), field: 'recipient' }] });
    const buyer = await gql(user.keypair, `mutation($r: String!) { ${RECORD('x', 'type: 9, recipient: $r')} }`, vars);
    expect(buyer.body.data.x).toEqual({ notificationId: null, recipientId: null, userErrors: [{ code: 'NOT_ALLOWED', field: null }] });
    expect(await world.t.orm.em.fork().count(Notification, { recipient: user.id })).toBe(1);
  });
});

describe('sendTransaction', () => {
  const SEND = (alias: string, tx: string, k = '') => `${alias}: sendTransaction(input: { tx: ${tx}${key(k)} }) { outcome hash transaction { hash ledger } userErrors { code field } }`;

  it('applies a payment beside a rejected one and a malformed one, a replay answering the first result', async () => {
    const user = await createAccount(world.t, world.platform);
    const tx = await build(world.t, world.platform, [pay(user.id, 'USD', world.platform.publicKey(), '100')]);
    const overdraft = await build(world.t, user.keypair, [pay(world.platform.publicKey(), 'EUR', world.otherPlatform.publicKey(), '5')]);
    const hash = tx.hash().toString('hex');
    const res = await gql(user.keypair, `mutation($tx: String!, $no: String!) { ${SEND('a', '$tx', 'tx-1')} ${SEND('b', '$tx', 'tx-1')} ${SEND('rejected', '$no')} ${SEND('bad', '"AAAA"')} }`, {
      tx: tx.toEnvelope().toXDR('base64'),
      no: overdraft.toEnvelope().toXDR('base64'),
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ outcome: 'APPLIED', hash, transaction: { hash, ledger: expect.any(Number) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.rejected).toEqual({ outcome: null, hash: null, transaction: null, userErrors: [{ code: 'TRANSACTION_FAILED', field: null }] });
    expect(res.body.data.bad).toEqual({ outcome: null, hash: null, transaction: null, userErrors: [{ code: 'INVALID_FIELD', field: 'tx' }] });
  });
});

describe('addMasterAccountSigner', () => {
  const ADD = (alias: string, publicKey: string, k = '') => `${alias}: addMasterAccountSigner(input: { publicKey: "${publicKey}"${key(k)} }) { publicKey userErrors { code field message } }`;

  it('adds a signer from the loopback beside a refused one, and echoes no secret sent by mistake', async () => {
    const signer = Keypair.random();
    const secret = Keypair.random().secret();
    const res = await gql(null, `mutation { ${ADD('a', signer.publicKey())} ${ADD('bad', secret)} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ publicKey: signer.publicKey(), userErrors: [] });
    expect(res.body.data.bad).toEqual({ publicKey: null, userErrors: [{ code: 'INVALID_PUBLIC_KEY', field: 'publicKey', message: expect.any(String) }] });
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(await world.t.orm.em.fork().count(AccountSigner, { signerKey: signer.publicKey() })).toBe(1);
  });

  it('answers a replayed key with the first result', async () => {
    const signer = Keypair.random();
    const res = await gql(world.t.master, `mutation { ${ADD('a', signer.publicKey(), 'sg-1')} ${ADD('b', signer.publicKey(), 'sg-1')} ${ADD('c', Keypair.random().publicKey(), 'sg-1')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c.userErrors).toEqual([expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' })]);
  });
});

it('marks the mutations they replace deprecated, naming them', async () => {
  const res = await gql(world.admin.keypair, '{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
  const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
  expect([reasons.createLot, reasons.reportNotificationEvent, reasons.submitTransaction, reasons.addMasterSigner]).toEqual([
    'Use addLot',
    'Use recordNotificationEvent',
    'Use sendTransaction',
    'Use addMasterAccountSigner',
  ]);
});
