import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { build, pay, resultCode } from './ledger.helpers';

let t: TestApp;
let platform: Keypair;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
});
afterAll(() => t.close());

const opened = (id: string) => ({
  type: 'ledger_accounts',
  id,
  attributes: { sequence: '0', balances: [], signers: [{ key: id, weight: 1 }], thresholds: { low: 0, medium: 0, high: 0 } },
});

describe('GET /ledger/accounts/{id}', () => {
  it('shows every account created through the API, and the master, with sequence 0 and no balances', async () => {
    const user = await createAccount(t, platform);
    const admin = await createAccount(t, platform, { type: 'admin' });
    for (const id of [platform.publicKey(), user.id, admin.id, t.master.publicKey()]) {
      const res = await t.client.get(`/ledger/accounts/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/vnd.api+json');
      expect(res.body).toEqual({ data: opened(id) });
    }
  });

  it('answers 404 for an unknown account', async () => {
    const res = await t.client.get(`/ledger/accounts/${Keypair.random().publicKey()}`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('ledger_account_not_found');
    expect((await t.client.get('/ledger/accounts/nonsense')).status).toBe(404);
  });
});

describe('GraphQL', () => {
  const ACCOUNT = `query ($id: String!) { ledgerAccount(id: $id) { id sequence balances { assetCode assetIssuer balance } signers { key weight } thresholds { low medium high } } }`;
  const SUBMIT = `mutation ($tx: String!) { submitTransaction(tx: $tx) { envelopeXdr hash ledger resultXdr resultMetaXdr } }`;

  it('submitTransaction applies a transaction and ledgerAccount shows its effect', async () => {
    const user = await createAccount(t, platform);
    const tx = await build(t, platform, [pay(user.id, 'GEL', platform.publicKey(), '12.5')]);
    const res = await t.client.graphql(SUBMIT, { tx: tx.toEnvelope().toXDR('base64') });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.submitTransaction.hash).toBe(tx.hash().toString('hex'));
    expect(resultCode(res.body.data.submitTransaction.resultXdr)).toBe('txSuccess');
    const account = await t.client.graphql(ACCOUNT, { id: user.id });
    expect(account.body.data.ledgerAccount).toEqual({
      id: user.id,
      sequence: '0',
      balances: [{ assetCode: 'GEL', assetIssuer: platform.publicKey(), balance: '12.5000000' }],
      signers: [{ key: user.id, weight: 1 }],
      thresholds: { low: 0, medium: 0, high: 0 },
    });
  });

  it('carries the result XDR of a rejected transaction, and not_found for an unknown account', async () => {
    const tx = await build(t, platform, [pay(platform.publicKey(), 'GEL', platform.publicKey(), '1')], { sequence: '41' });
    const res = await t.client.graphql(SUBMIT, { tx: tx.toEnvelope().toXDR('base64') });
    const error = res.body.errors[0];
    expect(error.extensions).toMatchObject({ code: 'transaction_failed', status: 400 });
    expect(resultCode(error.extensions.meta['auction-xdr'])).toBe('txBadSeq');
    const missing = await t.client.graphql(ACCOUNT, { id: Keypair.random().publicKey() });
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'ledger_account_not_found', status: 404 });
    const garbage = await t.client.graphql(SUBMIT, { tx: '%%%' });
    expect(garbage.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
  });
});
