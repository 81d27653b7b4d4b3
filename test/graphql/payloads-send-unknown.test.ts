import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { build, horizonRecord, pay } from '../ledger/ledger.helpers';

/**
 * sendTransaction relayed to Horizon: a submission Horizon does not answer (504) is said to be of
 * unknown outcome, with its hash, and not called a failure; its key is kept for no result, so the
 * same key sends it again. A stand-in for Horizon answers 504 or takes the transaction, as told.
 */
let timeOut = true;
let horizon: Server;
let t: TestApp;

function answer(method: string, url: string, form: URLSearchParams): { status: number; body: unknown } {
  if (method !== 'POST' || url !== '/transactions' || !form.get('tx')) return { status: 404, body: { status: 404 } };
  if (timeOut) return { status: 504, body: { status: 504, title: 'Timeout' } };
  return { status: 200, body: horizonRecord(TransactionBuilder.fromXDR(form.get('tx') as string, t.config.NETWORK_PASSPHRASE) as Transaction) };
}

beforeAll(async () => {
  horizon = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { status, body } = answer(req.method ?? '', req.url ?? '', new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({ HORIZON_URL: `http://127.0.0.1:${(horizon.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => horizon.close(resolve));
});

const SEND = 'mutation($tx: String!) { a: sendTransaction(input: { tx: $tx, idempotencyKey: "send-1" }) { outcome hash transaction { hash } userErrors { code } } bad: sendTransaction(input: { tx: "AAAA" }) { outcome userErrors { code field } } }';

it('answers UNKNOWN with the hash when Horizon does not answer, keeps the sibling fields, and sends it again under the same key', async () => {
  const source = (await createAccount(t, await createPlatform(t))).keypair;
  const tx = await build(t, source, [pay(Keypair.random().publicKey(), 'USD', source.publicKey(), '1')], { sequence: '0' });
  const hash = tx.hash().toString('hex');
  const envelope = tx.toEnvelope().toXDR('base64');
  const unknown = await t.client.as(source).graphql(SEND, { tx: envelope });
  expect(unknown.body.errors).toBeUndefined();
  expect(unknown.body.data.a).toEqual({ outcome: 'UNKNOWN', hash, transaction: null, userErrors: [] });
  expect(unknown.body.data.bad).toEqual({ outcome: null, userErrors: [{ code: 'INVALID_FIELD', field: 'tx' }] });
  timeOut = false;
  const applied = await t.client.as(source).graphql(SEND, { tx: envelope });
  expect(applied.body.data.a).toEqual({ outcome: 'APPLIED', hash, transaction: { hash }, userErrors: [] });
});
