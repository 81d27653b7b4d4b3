import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, Memo, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import { DepositState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { JOBS_ENV, waitFor } from '../jobs/jobs.helpers';
import { depositOf, join } from '../trading/trading.helpers';
import { build, horizonRecord, horizonResult, pay, submit } from './ledger.helpers';

/**
 * A stand-in for Horizon that keeps what it took (GET /transactions/{hash} finds it) and can be
 * told how to answer the next submission: take it, take it but answer 504 as if timed out, or refuse it.
 */
type Next = 'take' | 'take_then_time_out' | 'refuse';
let next: Next = 'take';
/** Runs once Horizon took a transaction and before it answers: between the submission and the deposit write. */
let onTaken: () => Promise<void> = async () => {};
const taken = new Map<string, Transaction>();
let horizon: Server;
let t: TestApp;
let platform: Keypair;


async function answer(method: string, url: string, form: URLSearchParams): Promise<{ status: number; body: unknown }> {
  const found = /^\/transactions\/([0-9a-f]{64})$/.exec(url);
  if (method === 'GET' && found) {
    const tx = taken.get(found[1]);
    return tx ? { status: 200, body: horizonRecord(tx) } : { status: 404, body: { status: 404, title: 'Resource Missing' } };
  }
  if (method !== 'POST' || url !== '/transactions' || !form.get('tx')) return { status: 404, body: { status: 404 } };
  const tx = TransactionBuilder.fromXDR(form.get('tx') as string, t.config.NETWORK_PASSPHRASE) as Transaction;
  if (next === 'refuse') {
    return { status: 400, body: { status: 400, extras: { result_codes: { transaction: 'tx_bad_seq' }, result_xdr: horizonResult(xdr.TransactionResultResult.txBadSeq()) } } };
  }
  taken.set(tx.hash().toString('hex'), tx);
  await onTaken();
  if (next === 'take_then_time_out') return { status: 504, body: { status: 504, title: 'Timeout' } };
  return { status: 200, body: horizonRecord(tx) };
}

const execute = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => t.orm.em.fork().getConnection().execute<T[]>(sql, params);

async function relayState(tx: Transaction): Promise<string[]> {
  const rows = await execute<{ state: string }>('select state from ledger_relay_outbox where hash = ? order by id', [tx.hash().toString('hex')]);
  return rows.map((r) => r.state);
}

/** A participant's deposit and a signed payment of it (not yet submitted). */
async function depositPayment() {
  const user = await createAccount(t, platform);
  const participant = await join(t, user.keypair, (await createLot(t, platform, ENG_LOT)).id);
  const deposit = await depositOf(t, participant);
  const tx = await build(t, user.keypair, [pay(platform.publicKey(), 'USD', platform.publicKey(), '100')], { memo: Memo.text(`deposit:${deposit.id}`) });
  const state = async () => (await depositOf(t, participant)).state;
  return { tx, state };
}

beforeAll(async () => {
  horizon = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(req.method ?? '', req.url ?? '', new URLSearchParams(Buffer.concat(chunks).toString('utf8'))).then(({ status, body }) =>
        res.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body)),
      );
    });
  });
  await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({ ...JOBS_ENV, HORIZON_URL: `http://127.0.0.1:${(horizon.address() as AddressInfo).port}`, HORIZON_RETRY_SECONDS: '1' });
  platform = await createPlatform(t);
});
afterEach(() => {
  next = 'take';
  onTaken = async () => {};
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => horizon.close(resolve));
});

describe('POST /transactions relayed to Horizon', () => {
  it('records the relay and completes it with the deposit write', async () => {
    const { tx, state } = await depositPayment();
    expect((await submit(t, tx)).status).toBe(200);
    expect(await state()).toBe(DepositState.Paid);
    expect(await relayState(tx)).toEqual(['completed']);
  });

  it('answers Horizon’s result when the deposit write fails after Horizon took the payment, and the relay job pays the deposit later', async () => {
    const { tx, state } = await depositPayment();
    onTaken = async () => {
      await execute('alter table deposits rename to deposits_away');
    };
    let res;
    try {
      res = await submit(t, tx);
      expect(await relayState(tx)).toEqual(['accepted']);
    } finally {
      await execute('alter table deposits_away rename to deposits');
    }
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ hash: tx.hash().toString('hex'), ledger: 4242 });
    await waitFor('the relay job to pay the deposit', async () => (await state()) === DepositState.Paid);
    expect(await relayState(tx)).toEqual(['completed']);
  });

  it('pays the deposit of a payment Horizon took but whose answer was lost, once the relay job finds it on Horizon', async () => {
    const { tx, state } = await depositPayment();
    next = 'take_then_time_out';
    const res = await submit(t, tx);
    expect(res.status).toBe(502);
    expect(res.body.errors[0].code).toBe('ledger_unavailable');
    expect(await relayState(tx)).toEqual(['pending']);
    await waitFor('the relay job to pay the deposit', async () => (await state()) === DepositState.Paid);
    expect(await relayState(tx)).toEqual(['completed']);
  });

  it('records a refused transaction as rejected and leaves its deposit unpaid', async () => {
    const { tx, state } = await depositPayment();
    next = 'refuse';
    const res = await submit(t, tx);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('transaction_failed');
    expect(await relayState(tx)).toEqual(['rejected']);
    expect(await state()).toBe(DepositState.Pending);
  });
});
