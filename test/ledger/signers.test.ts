import { Keypair, Operation } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { build, ledgerAccount, operationCodes, pay, rejection, resultCode, submit } from './ledger.helpers';

let t: TestApp;
let platform: Keypair;
let user: CreatedAccount;
const signer = Keypair.random();

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  user = await createAccount(t, platform);
});
afterAll(() => t.close());

const addSigner = (weight: number, signers: Keypair[] = [user.keypair]) =>
  build(t, user.keypair, [Operation.setOptions({ signer: { ed25519PublicKey: signer.publicKey(), weight } })], { signers }).then((tx) => submit(t, tx));

describe('signers added through ledger transactions', () => {
  it('are listed on the ledger account and sign requests for the account', async () => {
    expect((await t.client.as(signer).get(`/accounts/${user.id}`)).status).toBe(401);
    const res = await addSigner(1);
    expect(res.status).toBe(200);
    expect(operationCodes(res.body.meta.result_xdr)).toEqual(['setOptionsSuccess']);
    expect((await ledgerAccount(t, user.id)).signers).toEqual([
      { key: user.id, weight: 1 },
      { key: signer.publicKey(), weight: 1 },
    ]);

    const read = await t.client.as(signer).get(`/accounts/${user.id}`, { headers: { 'x-account-id': user.id }, sign: { keypair: signer, headers: ['(request-target)', 'x-date', 'x-account-id'] } });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.email).toBe(user.email);
    const patch = await t.client.as(signer).patch(`/accounts/${user.id}`, { data: { type: 'accounts', id: user.id, attributes: { city: 'Batumi' } } });
    expect(patch.status).toBe(200);
    expect(patch.body.data.attributes.city).toBe('Batumi');
  });

  it('sign ledger transactions of the account, weighed against its thresholds', async () => {
    const bySigner = await build(t, user.keypair, [Operation.manageData({ name: 'k', value: 'v' })], { signers: [signer] });
    expect((await submit(t, bySigner)).status).toBe(200);

    const raise = Operation.setOptions({ lowThreshold: 2, medThreshold: 2, highThreshold: 2 });
    expect((await submit(t, await build(t, user.keypair, [raise]))).status).toBe(200);
    expect((await ledgerAccount(t, user.id)).thresholds).toEqual({ low: 2, medium: 2, high: 2 });

    const alone = await build(t, user.keypair, [Operation.manageData({ name: 'k', value: 'w' })]);
    expect(resultCode(rejection(await submit(t, alone)))).toBe('txBadAuth');
    const both = await build(t, user.keypair, [Operation.manageData({ name: 'k', value: 'w' })], { signers: [user.keypair, signer] });
    expect((await submit(t, both)).status).toBe(200);
  });

  it('are refused as the account’s own key, and stop signing once removed', async () => {
    const own = await build(t, user.keypair, [Operation.setOptions({ signer: { ed25519PublicKey: user.id, weight: 1 } })], { signers: [user.keypair, signer] });
    const refused = await submit(t, own);
    expect(operationCodes(rejection(refused))).toEqual(['setOptionsBadSigner']);
    expect(refused.body.errors[0].meta.result_codes.operations).toEqual(['op_bad_signer']);

    const removed = await addSigner(0, [user.keypair, signer]);
    expect(removed.status).toBe(200);
    expect((await ledgerAccount(t, user.id)).signers).toEqual([{ key: user.id, weight: 1 }]);
    const read = await t.client.as(signer).get(`/accounts/${user.id}`);
    expect(read.status).toBe(401);
    expect(read.body.errors[0].code).toBe('signature_invalid');
  });

  it("named by an account that exists only on the ledger, neither block a key's self-registration nor make it ambiguous", async () => {
    // A ledger-only account names keys it does not hold as its signers: Stellar asks their holders nothing.
    const squatter = Keypair.random();
    const victim = Keypair.random();
    const device = Keypair.random();
    await submit(t, await build(t, platform, [Operation.createAccount({ destination: squatter.publicKey(), startingBalance: '0' })]));
    const named = [victim, device].map((k) => Operation.setOptions({ signer: { ed25519PublicKey: k.publicKey(), weight: 1 } }));
    expect((await submit(t, await build(t, squatter, named))).status).toBe(200);

    const registered = await t.client.as(victim).post('/accounts', {
      data: { type: 'accounts', id: victim.publicKey(), attributes: { account_type: 'user', platform_id: platform.publicKey(), first_name: 'Vic', last_name: 'Tim', email: `victim-${Date.now()}@example.com`, password: 'correct horse battery' } },
    });
    expect(registered.status).toBe(201);
    // A service account's signer still signs for it alone, without X-Account-Id.
    const owner = await createAccount(t, platform);
    const own = Operation.setOptions({ signer: { ed25519PublicKey: device.publicKey(), weight: 1 } });
    expect((await submit(t, await build(t, owner.keypair, [own]))).status).toBe(200);
    expect((await t.client.as(device).get(`/accounts/${owner.id}`)).body.data.attributes.email).toBe(owner.email);
  });

  it("stop the account's own key from signing requests once a setOptions gave it weight 0", async () => {
    const owner = await createAccount(t, platform);
    const spare = Keypair.random();
    const handOver = [Operation.setOptions({ signer: { ed25519PublicKey: spare.publicKey(), weight: 1 } }), Operation.setOptions({ masterWeight: 0 })];
    expect((await t.client.as(owner.keypair).get(`/accounts/${owner.id}`)).body.data.attributes.email).toBe(owner.email);
    expect((await submit(t, await build(t, owner.keypair, handOver))).status).toBe(200);
    const own = await t.client.as(owner.keypair).get(`/accounts/${owner.id}`);
    expect(own.status).toBe(401);
    expect(own.body.errors[0].code).toBe('signature_invalid');
    expect((await t.client.as(spare).get(`/accounts/${owner.id}`)).body.data.attributes.email).toBe(owner.email);
  });

  it('allows at most 20 signers besides the own key', async () => {
    const owner = Keypair.random();
    await submit(t, await build(t, platform, [Operation.createAccount({ destination: owner.publicKey(), startingBalance: '0' })]));
    const twenty = Array.from({ length: 20 }, () => Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } }));
    expect((await submit(t, await build(t, owner, twenty))).status).toBe(200);
    const more = await submit(t, await build(t, owner, [Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } })]));
    expect(operationCodes(rejection(more))).toEqual(['setOptionsTooManySigners']);
    expect((await ledgerAccount(t, owner.publicKey())).signers).toHaveLength(21);
  });

  it('of the master account include those added by POST /master/signers', async () => {
    const masterSigner = Keypair.random();
    const added = await t.client.post('/master/signers', { data: { type: 'signers', id: masterSigner.publicKey() } });
    expect(added.status).toBe(204);
    expect((await ledgerAccount(t, t.master.publicKey())).signers).toEqual([
      { key: t.master.publicKey(), weight: 1 },
      { key: masterSigner.publicKey(), weight: 1 },
    ]);
    const minted = await submit(t, await build(t, t.master, [pay(user.id, 'EUR', t.master.publicKey(), '1')], { signers: [masterSigner] }));
    expect(minted.status).toBe(200);
  });
});

describe("the master account's signers through the ledger", () => {
  // The rule of POST /master/signers: a caller elsewhere (here, behind a proxy) cannot add a master signer, by either edge.
  const FORWARDED = { 'x-forwarded-for': '203.0.113.9' };
  const envelope = async (key: Keypair) =>
    (await build(t, t.master, [Operation.setOptions({ signer: { ed25519PublicKey: key.publicKey(), weight: 1 } })])).toEnvelope().toXDR('base64');
  const signersOfMaster = async () => ((await ledgerAccount(t, t.master.publicKey())).signers as { key: string }[]).map((s) => s.key);

  it('are changed from the local machine only: a forwarded caller gets 403 local_only on REST and GraphQL, and the key signs nothing', async () => {
    const key = Keypair.random();
    const rest = await t.client.post('/transactions', { data: { type: 'transactions', attributes: { tx: await envelope(key) } } }, { headers: FORWARDED });
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0]).toMatchObject({ status: '403', code: 'local_only' });
    const gql = await t.client.graphql('mutation ($tx: String!) { submitTransaction(tx: $tx) { hash } }', { tx: await envelope(key) }, { headers: FORWARDED });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'local_only', status: 403 });
    expect(await signersOfMaster()).not.toContain(key.publicKey());
    const asMaster = await t.client.as(key).get('/deposits', { headers: { 'x-account-id': t.master.publicKey() }, sign: { keypair: key, headers: ['(request-target)', 'x-date', 'x-account-id'] } });
    expect(asMaster.status).toBe(401);

    const local = await submit(t, await envelope(key));
    expect(local.status).toBe(200);
    expect(await signersOfMaster()).toContain(key.publicKey());
  });

  it("leaves other accounts' signers to their own transactions, wherever they come from", async () => {
    const [key, owner] = [Keypair.random(), await createAccount(t, platform)];
    const tx = await build(t, owner.keypair, [Operation.setOptions({ signer: { ed25519PublicKey: key.publicKey(), weight: 1 } })]);
    const res = await t.client.post('/transactions', { data: { type: 'transactions', attributes: { tx: tx.toEnvelope().toXDR('base64') } } }, { headers: FORWARDED });
    expect(res.status).toBe(200);
  });
});
