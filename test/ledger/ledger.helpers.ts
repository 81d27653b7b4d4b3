import { Account, Asset, Keypair, Operation, TransactionBuilder, xdr, type Transaction, type xdr as Xdr } from '@stellar/stellar-sdk';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';

/** Shared by the ledger tests: envelopes built and signed with the SDK, submitted through the API. */

export interface BuildOptions {
  /** The source's current sequence number; the transaction takes the next one. */
  sequence?: string;
  signers?: Keypair[];
  memo?: Parameters<TransactionBuilder['addMemo']>[0];
  networkPassphrase?: string;
  timebounds?: { minTime: number; maxTime: number };
}

export async function currentSequence(t: TestApp, id: string): Promise<string> {
  const res = await t.client.get(`/ledger/accounts/${id}`);
  if (res.status !== 200) throw new Error(`no ledger account ${id}: ${res.status} ${res.text}`);
  return res.body.data.attributes.sequence;
}

/** A transaction of `source` with the given operations, signed by the source unless told otherwise. */
export async function build(t: TestApp, source: Keypair, ops: Xdr.Operation[], opts: BuildOptions = {}): Promise<Transaction> {
  const sequence = opts.sequence ?? (await currentSequence(t, source.publicKey()));
  const builder = new TransactionBuilder(new Account(source.publicKey(), sequence), {
    fee: '100',
    networkPassphrase: opts.networkPassphrase ?? t.config.NETWORK_PASSPHRASE,
    ...(opts.timebounds ? { timebounds: opts.timebounds } : {}),
  });
  for (const op of ops) builder.addOperation(op);
  if (opts.memo) builder.addMemo(opts.memo);
  if (!opts.timebounds) builder.setTimeout(60);
  const tx = builder.build();
  for (const signer of opts.signers ?? [source]) tx.sign(signer);
  return tx;
}

export const submit = (t: TestApp, tx: Transaction | string): Promise<TestResponse> =>
  t.client.post('/transactions', { data: { type: 'transactions', attributes: { tx: typeof tx === 'string' ? tx : tx.toEnvelope().toXDR('base64') } } });

export const pay = (destination: string, code: string, issuer: string, amount: string, source?: string) =>
  Operation.payment({ destination, asset: new Asset(code, issuer), amount, ...(source ? { source } : {}) });

/** The transaction result code of a result XDR. */
export const resultCode = (resultXdr: string) => xdr.TransactionResult.fromXDR(resultXdr, 'base64').result().switch().name;

/** The operation result names: `opInner` results by their inner code (paymentSuccess, …). */
export function operationCodes(resultXdr: string): string[] {
  return xdr.TransactionResult.fromXDR(resultXdr, 'base64')
    .result()
    .results()
    .map((r) => (r.switch().name === 'opInner' ? r.tr().value().switch().name : r.switch().name));
}

/** The result XDR of a rejection, after checking the error shape. */
export function rejection(res: TestResponse): string {
  if (res.status !== 400 || res.body?.errors?.[0]?.code !== 'transaction_failed') throw new Error(`expected a rejection: ${res.status} ${res.text}`);
  return res.body.errors[0].meta['auction-xdr'];
}

export async function ledgerAccount(t: TestApp, id: string): Promise<any> {
  return (await t.client.get(`/ledger/accounts/${id}`)).body.data.attributes;
}

/** A Horizon result XDR with the given outcome and a fee of 100. */
export const horizonResult = (code: xdr.TransactionResultResult) =>
  new xdr.TransactionResult({ feeCharged: xdr.Int64.fromString('100'), result: code, ext: new xdr.TransactionResultExt(0) }).toXDR('base64');

/** What Horizon answers for a transaction it applied (its POST /transactions body, and GET /transactions/{hash}). */
export function horizonRecord(tx: Transaction) {
  const meta = new xdr.TransactionMeta(2, new xdr.TransactionMetaV2({ txChangesBefore: [], operations: [], txChangesAfter: [] })).toXDR('base64');
  return {
    id: tx.hash().toString('hex'),
    hash: tx.hash().toString('hex'),
    ledger: 4242,
    successful: true,
    envelope_xdr: tx.toEnvelope().toXDR('base64'),
    result_xdr: horizonResult(xdr.TransactionResultResult.txSuccess([])),
    result_meta_xdr: meta,
    paging_token: '18219251265421312',
  };
}
