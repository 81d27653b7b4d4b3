import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, Memo, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import { DepositState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { depositOf, join } from '../trading/trading.helpers';
import { build, horizonRecord, horizonResult, ledgerAccount, pay, rejection, resultCode, submit } from './ledger.helpers';

/** A stand-in for Horizon's POST /transactions: the memo text of a transaction picks the answer. */
let horizon: Server;
const received: Transaction[] = [];
let t: TestApp;
let platform: Keypair;

function answer(tx: Transaction): { status: number; body: unknown } {
  const memo = tx.memo.type === 'text' ? String(tx.memo.value) : '';
  if (memo === 'bad_seq') {
    return {
      status: 400,
      body: {
        type: 'https://stellar.org/horizon-errors/transaction_failed',
        title: 'Transaction Failed',
        status: 400,
        detail: 'The transaction failed when submitted to the stellar network.',
        extras: { envelope_xdr: tx.toEnvelope().toXDR('base64'), result_codes: { transaction: 'tx_bad_seq' }, result_xdr: horizonResult(xdr.TransactionResultResult.txBadSeq()) },
      },
    };
  }
  if (memo === 'down') return { status: 503, body: { type: 'https://stellar.org/horizon-errors/stale_history', title: 'Historical DB Is Too Stale', status: 503 } };
  return { status: 200, body: horizonRecord(tx) };
}

beforeAll(async () => {
  horizon = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const found = req.method === 'POST' && req.url === '/transactions' && form.get('tx');
      if (!found) {
        res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
        return;
      }
      const tx = TransactionBuilder.fromXDR(form.get('tx') as string, t.config.NETWORK_PASSPHRASE) as Transaction;
      received.push(tx);
      const { status, body } = answer(tx);
      res.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({ HORIZON_URL: `http://127.0.0.1:${(horizon.address() as AddressInfo).port}` });
  platform = await createPlatform(t);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => horizon.close(resolve));
});

describe('POST /transactions with HORIZON_URL', () => {
  it('relays the envelope and answers with Horizon’s result, leaving the embedded ledger alone', async () => {
    const user = await createAccount(t, platform);
    const tx = await build(t, platform, [pay(user.id, 'USD', platform.publicKey(), '5')]);
    const res = await submit(t, tx);
    expect(res.status).toBe(200);
    expect(received.at(-1)?.hash().toString('hex')).toBe(tx.hash().toString('hex'));
    expect(res.body).toEqual({
      data: null,
      meta: { envelope_xdr: tx.toEnvelope().toXDR('base64'), hash: tx.hash().toString('hex'), ledger: 4242, result_xdr: expect.any(String), result_meta_xdr: expect.any(String) },
    });
    expect(resultCode(res.body.meta.result_xdr)).toBe('txSuccess');
    expect((await ledgerAccount(t, user.id)).balances).toEqual([]);
  });

  it('answers a refused transaction with Horizon’s result XDR', async () => {
    const res = await submit(t, await build(t, platform, [pay(platform.publicKey(), 'USD', platform.publicKey(), '1')], { memo: Memo.text('bad_seq') }));
    expect(resultCode(rejection(res))).toBe('txBadSeq');
    expect(res.body.errors[0].meta.result_codes).toEqual({ transaction: 'tx_bad_seq' });
  });

  it('answers 502 when Horizon fails without a result', async () => {
    const res = await submit(t, await build(t, platform, [pay(platform.publicKey(), 'USD', platform.publicKey(), '1')], { memo: Memo.text('down') }));
    expect(res.status).toBe(502);
    expect(res.body.errors[0].code).toBe('ledger_unavailable');
  });

  it('marks a deposit paid once Horizon accepted its payment', async () => {
    const user = await createAccount(t, platform);
    const lotId = (await createLot(t, platform, ENG_LOT)).id;
    const participant = await join(t, user.keypair, lotId);
    const deposit = await depositOf(t, participant);
    const tx = await build(t, user.keypair, [pay(platform.publicKey(), 'USD', platform.publicKey(), '100')], { memo: Memo.text(`deposit:${deposit.id}`) });
    expect((await submit(t, tx)).status).toBe(200);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Paid);
  });
});
