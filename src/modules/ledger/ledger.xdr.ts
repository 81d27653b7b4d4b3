import { Asset, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import type { AssetRef, Snapshot } from './ledger.state';

/** Builds the XDR the embedded ledger answers with, using the SDK's own types. */

const INT64_MAX = 9223372036854775807n;
const int64 = (v: bigint) => xdr.Int64.fromString(v.toString());
const accountIdOf = (id: string) => Keypair.fromPublicKey(id).xdrAccountId();
const trustAssetOf = (asset: AssetRef) => new Asset(asset.code, asset.issuer).toTrustLineXDRObject();

function entryData(s: Snapshot): xdr.LedgerEntryData {
  if (s.kind === 'trustline') {
    return xdr.LedgerEntryData.trustline(
      new xdr.TrustLineEntry({ accountId: accountIdOf(s.id), asset: trustAssetOf(s.asset), balance: int64(s.balance), limit: int64(INT64_MAX), flags: 1, ext: new xdr.TrustLineEntryExt(0) }),
    );
  }
  if (s.kind === 'data') {
    return xdr.LedgerEntryData.data(new xdr.DataEntry({ accountId: accountIdOf(s.id), dataName: s.name, dataValue: s.value, ext: new xdr.DataEntryExt(0) }));
  }
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: accountIdOf(s.id),
      balance: int64(0n),
      seqNum: int64(s.sequence),
      numSubEntries: s.subEntries,
      inflationDest: null,
      flags: 0,
      homeDomain: '',
      thresholds: Buffer.from(s.thresholds),
      signers: s.signers.map((g) => new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(StrKey.decodeEd25519PublicKey(g.key)), weight: g.weight })),
      ext: new xdr.AccountEntryExt(0),
    }),
  );
}

function entryOf(s: Snapshot, lastModified: number): xdr.LedgerEntry {
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: lastModified, data: entryData(s), ext: new xdr.LedgerEntryExt(0) });
}

function keyOf(s: Snapshot): xdr.LedgerKey {
  if (s.kind === 'trustline') return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: accountIdOf(s.id), asset: trustAssetOf(s.asset) }));
  if (s.kind === 'data') return xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: accountIdOf(s.id), dataName: s.name }));
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: accountIdOf(s.id) }));
}

/** Entries before and after one step (the sequence bump or one operation). */
export interface EntryChange {
  before: Snapshot | null;
  after: Snapshot | null;
}

const same = (a: Snapshot, b: Snapshot) => entryOf(a, 0).toXDR('base64') === entryOf(b, 0).toXDR('base64');

/** The LedgerEntryChanges of one step, as stellar-core writes them: state then created/updated/removed. */
export function entryChanges(changes: EntryChange[], ledger: number): xdr.LedgerEntryChange[] {
  const out: xdr.LedgerEntryChange[] = [];
  for (const { before, after } of changes) {
    if (!before && after) out.push(xdr.LedgerEntryChange.ledgerEntryCreated(entryOf(after, ledger)));
    else if (before && !after) out.push(xdr.LedgerEntryChange.ledgerEntryState(entryOf(before, before.lastModified)), xdr.LedgerEntryChange.ledgerEntryRemoved(keyOf(before)));
    else if (before && after && !same(before, after)) {
      out.push(xdr.LedgerEntryChange.ledgerEntryState(entryOf(before, before.lastModified)), xdr.LedgerEntryChange.ledgerEntryUpdated(entryOf(after, ledger)));
    }
  }
  return out;
}

export function transactionMeta(txChanges: EntryChange[], operations: EntryChange[][], ledger: number): xdr.TransactionMeta {
  return new xdr.TransactionMeta(
    2,
    new xdr.TransactionMetaV2({
      txChangesBefore: entryChanges(txChanges, ledger),
      operations: operations.map((changes) => new xdr.OperationMeta({ changes: entryChanges(changes, ledger) })),
      txChangesAfter: [],
    }),
  );
}

/** No fees on the embedded ledger: every result charges 0. */
export function transactionResult(result: xdr.TransactionResultResult): xdr.TransactionResult {
  return new xdr.TransactionResult({ feeCharged: int64(0n), result, ext: new xdr.TransactionResultExt(0) });
}

export const opSuccess = {
  createAccount: () => xdr.OperationResult.opInner(xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountSuccess())),
  payment: () => xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess())),
  manageData: () => xdr.OperationResult.opInner(xdr.OperationResultTr.manageData(xdr.ManageDataResult.manageDataSuccess())),
  setOptions: () => xdr.OperationResult.opInner(xdr.OperationResultTr.setOptions(xdr.SetOptionsResult.setOptionsSuccess())),
};

export const opFailure = {
  createAccount: (code: 'createAccountMalformed' | 'createAccountUnderfunded' | 'createAccountAlreadyExist') =>
    xdr.OperationResult.opInner(xdr.OperationResultTr.createAccount(xdr.CreateAccountResult[code]())),
  payment: (code: 'paymentMalformed' | 'paymentUnderfunded' | 'paymentNoDestination' | 'paymentLineFull') =>
    xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult[code]())),
  manageData: (code: 'manageDataNameNotFound' | 'manageDataInvalidName') => xdr.OperationResult.opInner(xdr.OperationResultTr.manageData(xdr.ManageDataResult[code]())),
  setOptions: (code: 'setOptionsTooManySigners' | 'setOptionsThresholdOutOfRange' | 'setOptionsBadSigner') =>
    xdr.OperationResult.opInner(xdr.OperationResultTr.setOptions(xdr.SetOptionsResult[code]())),
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const INNER_PREFIX = /^(createAccount|payment|manageData|setOptions)/;
const HORIZON_OP_NAMES: Record<string, string> = { opNoAccount: 'op_no_source_account', createAccountAlreadyExist: 'op_already_exists' };

/** Horizon's names of the result codes (`tx_bad_seq`, `op_underfunded`), for error bodies. */
export function resultCodes(result: xdr.TransactionResult): { transaction: string; operations?: string[] } {
  const tx = result.result();
  const transaction = snake(tx.switch().name);
  if (tx.switch().name !== 'txFailed' && tx.switch().name !== 'txSuccess') return { transaction };
  const operations = tx.results().map((op) => {
    if (op.switch().name !== 'opInner') return HORIZON_OP_NAMES[op.switch().name] ?? snake(op.switch().name);
    const name = op.tr().value().switch().name;
    if (HORIZON_OP_NAMES[name]) return HORIZON_OP_NAMES[name];
    return /Success$/.test(name) ? 'op_success' : `op${snake(name.replace(INNER_PREFIX, ''))}`;
  });
  return { transaction, operations };
}
