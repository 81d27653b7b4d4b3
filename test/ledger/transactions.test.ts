import { Asset, Keypair, Networks, Operation, xdr } from '@stellar/stellar-sdk';
import { formatStroops } from '../../src/modules/ledger/ledger.presenter';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { build, currentSequence, ledgerAccount, operationCodes, pay, rejection, resultCode, submit } from './ledger.helpers';

let t: TestApp;
let platform: Keypair;
let alice: Keypair;
let bob: Keypair;
let usd: (amount: string, to: string, source?: string) => xdr.Operation;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  alice = (await createAccount(t, platform)).keypair;
  bob = (await createAccount(t, platform)).keypair;
  usd = (amount, to, source) => pay(to, 'USD', platform.publicKey(), amount, source);
});
afterAll(() => t.close());

const balanceOf = async (id: string, code = 'USD') =>
  (await ledgerAccount(t, id)).balances.find((b: any) => b.asset_code === code && b.asset_issuer === platform.publicKey())?.balance;

describe('POST /transactions', () => {
  it('applies a payment: the issuer creates its asset, holders pass it on, and a ledger closes', async () => {
    const tx = await build(t, platform, [usd('100', alice.publicKey())]);
    const res = await submit(t, tx);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const { meta } = res.body;
    expect(meta.hash).toBe(tx.hash().toString('hex'));
    expect(meta.envelope_xdr).toBe(tx.toEnvelope().toXDR('base64'));
    expect(Number.isInteger(meta.ledger)).toBe(true);
    expect(resultCode(meta.result_xdr)).toBe('txSuccess');
    expect(operationCodes(meta.result_xdr)).toEqual(['paymentSuccess']);
    const txMeta = xdr.TransactionMeta.fromXDR(meta.result_meta_xdr, 'base64');
    expect(txMeta.switch()).toBe(2);
    const changes = txMeta.v2().operations()[0].changes().map((c) => c.switch().name);
    expect(changes).toContain('ledgerEntryCreated');
    expect(await balanceOf(alice.publicKey())).toBe('100.0000000');
    expect((await ledgerAccount(t, platform.publicKey())).sequence).toBe('1');

    const second = await submit(t, await build(t, alice, [usd('40.5', bob.publicKey())]));
    expect(second.status).toBe(200);
    expect(second.body.meta.ledger).toBeGreaterThan(meta.ledger);
    expect(await balanceOf(alice.publicKey())).toBe('59.5000000');
    expect(await balanceOf(bob.publicKey())).toBe('40.5000000');
    expect((await ledgerAccount(t, platform.publicKey())).balances).toEqual([]);
  });

  it('refuses a sequence number other than the next one (txBAD_SEQ) and keeps the sequence', async () => {
    const before = await currentSequence(t, alice.publicKey());
    const res = await submit(t, await build(t, alice, [usd('1', bob.publicKey())], { sequence: (BigInt(before) + 1n).toString() }));
    expect(resultCode(rejection(res))).toBe('txBadSeq');
    expect(res.body.errors[0].meta.result_codes).toEqual({ transaction: 'tx_bad_seq' });
    expect(await currentSequence(t, alice.publicKey())).toBe(before);
  });

  it('refuses a transaction without the source signature (txBAD_AUTH)', async () => {
    const unsigned = await build(t, alice, [usd('1', bob.publicKey())], { signers: [] });
    expect(resultCode(rejection(await submit(t, unsigned)))).toBe('txBadAuth');
    const stranger = await build(t, alice, [usd('1', bob.publicKey())], { signers: [Keypair.random()] });
    expect(resultCode(rejection(await submit(t, stranger)))).toBe('txBadAuth');
  });

  it('refuses a transaction signed for another network (txBAD_AUTH: its signatures do not verify here)', async () => {
    const res = await submit(t, await build(t, alice, [usd('1', bob.publicKey())], { networkPassphrase: Networks.TESTNET }));
    expect(resultCode(rejection(res))).toBe('txBadAuth');
  });

  it('answers opNOT_SUPPORTED for an operation the ledger does not apply', async () => {
    const res = await submit(t, await build(t, alice, [Operation.bumpSequence({ bumpTo: '1000' })]));
    const result = rejection(res);
    expect(resultCode(result)).toBe('txFailed');
    expect(operationCodes(result)).toEqual(['opNotSupported']);
    expect(res.body.errors[0].meta.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_not_supported'] });
  });

  it('answers op_underfunded for more than the source holds, and for the native asset', async () => {
    const res = await submit(t, await build(t, bob, [usd('1000', alice.publicKey())]));
    expect(operationCodes(rejection(res))).toEqual(['paymentUnderfunded']);
    expect(res.body.errors[0].meta.result_codes.operations).toEqual(['op_underfunded']);
    const native = await submit(t, await build(t, bob, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '1' })]));
    expect(operationCodes(rejection(native))).toEqual(['paymentUnderfunded']);
  });

  it('changes nothing when a later operation fails: balances and the sequence stay', async () => {
    const [seq, aliceBefore, bobBefore] = [await currentSequence(t, bob.publicKey()), await balanceOf(alice.publicKey()), await balanceOf(bob.publicKey())];
    const tx = await build(t, bob, [usd('10', alice.publicKey()), usd('5', bob.publicKey(), platform.publicKey()), usd('999', alice.publicKey())], {
      signers: [bob, platform],
    });
    const result = rejection(await submit(t, tx));
    expect(resultCode(result)).toBe('txFailed');
    expect(operationCodes(result)).toEqual(['paymentSuccess', 'paymentSuccess', 'paymentUnderfunded']);
    expect(await currentSequence(t, bob.publicKey())).toBe(seq);
    expect(await balanceOf(alice.publicKey())).toBe(aliceBefore);
    expect(await balanceOf(bob.publicKey())).toBe(bobBefore);
  });

  it('checks the signature of each operation source (opBAD_AUTH) and refuses unused signatures', async () => {
    const tx = await build(t, bob, [usd('5', bob.publicKey(), platform.publicKey())]);
    expect(operationCodes(rejection(await submit(t, tx)))).toEqual(['opBadAuth']);
    const extra = await build(t, bob, [usd('1', alice.publicKey())], { signers: [bob, Keypair.random()] });
    expect(resultCode(rejection(await submit(t, extra)))).toBe('txBadAuthExtra');
  });

  it('refuses a transaction outside its time bounds', async () => {
    const now = Math.floor(Date.now() / 1000);
    const late = await build(t, bob, [usd('1', alice.publicKey())], { timebounds: { minTime: 0, maxTime: now - 10 } });
    expect(resultCode(rejection(await submit(t, late)))).toBe('txTooLate');
    const early = await build(t, bob, [usd('1', alice.publicKey())], { timebounds: { minTime: now + 3600, maxTime: 0 } });
    expect(resultCode(rejection(await submit(t, early)))).toBe('txTooEarly');
  });

  it('creates accounts with sequence 0 and keeps data entries', async () => {
    const fresh = Keypair.random();
    const res = await submit(t, await build(t, platform, [Operation.createAccount({ destination: fresh.publicKey(), startingBalance: '0' })]));
    expect(res.status).toBe(200);
    expect(operationCodes(res.body.meta.result_xdr)).toEqual(['createAccountSuccess']);
    expect(await ledgerAccount(t, fresh.publicKey())).toEqual({
      sequence: '0',
      balances: [],
      signers: [{ key: fresh.publicKey(), weight: 1 }],
      thresholds: { low: 0, medium: 0, high: 0 },
    });
    const data = await submit(t, await build(t, fresh, [Operation.manageData({ name: 'vin', value: 'WVW123' })]));
    expect(data.status).toBe(200);
    const created = xdr.TransactionMeta.fromXDR(data.body.meta.result_meta_xdr, 'base64').v2().operations()[0].changes().find((c) => c.switch().name === 'ledgerEntryCreated');
    expect(created?.created().data().data().dataValue().toString()).toBe('WVW123');
    const again = await submit(t, await build(t, platform, [Operation.createAccount({ destination: fresh.publicKey(), startingBalance: '0' })]));
    expect(again.body.errors[0].meta.result_codes.operations).toEqual(['op_already_exists']);
    const missing = await submit(t, await build(t, fresh, [Operation.manageData({ name: 'nothing', value: null })]));
    expect(operationCodes(rejection(missing))).toEqual(['manageDataNameNotFound']);
  });

  it('answers txNO_ACCOUNT for an unknown source and opNO_ACCOUNT for an unknown operation source', async () => {
    const ghost = Keypair.random();
    expect(resultCode(rejection(await submit(t, await build(t, ghost, [usd('1', alice.publicKey())], { sequence: '0' }))))).toBe('txNoAccount');
    const tx = await build(t, bob, [usd('1', alice.publicKey(), ghost.publicKey())], { signers: [bob, ghost] });
    expect(operationCodes(rejection(await submit(t, tx)))).toEqual(['opNoAccount']);
    const nowhere = await build(t, platform, [usd('1', ghost.publicKey())]);
    expect(operationCodes(rejection(await submit(t, nowhere)))).toEqual(['paymentNoDestination']);
  });

  it('applies one of two concurrent transactions with the same sequence number', async () => {
    const sequence = await currentSequence(t, alice.publicKey());
    const before = await balanceOf(alice.publicKey());
    const [one, two] = await Promise.all([
      submit(t, await build(t, alice, [usd('1', bob.publicKey())], { sequence })),
      submit(t, await build(t, alice, [usd('2', bob.publicKey())], { sequence })),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    const failed = one.status === 400 ? one : two;
    expect(resultCode(rejection(failed))).toBe('txBadSeq');
    expect(await currentSequence(t, alice.publicKey())).toBe((BigInt(sequence) + 1n).toString());
    const spent = one.status === 200 ? 10_000_000n : 20_000_000n;
    expect(await balanceOf(alice.publicKey())).toBe(formatStroops(BigInt(before.replace('.', '')) - spent));
  });

  it('answers 400 naming the field for a missing or malformed envelope', async () => {
    const missing = await t.client.post('/transactions', { data: { type: 'transactions', attributes: {} } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_field', source: { pointer: '/data/attributes/tx' } });
    const garbage = await t.client.post('/transactions', { data: { type: 'transactions', attributes: { tx: 'not-xdr' } } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/tx' } });
    const wrongType = await t.client.post('/transactions', { data: { type: 'payments', attributes: { tx: 'AAAA' } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].source).toEqual({ pointer: '/data/type' });
  });
});
