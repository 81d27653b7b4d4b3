import { extractBaseAddress, StrKey, type Operation, type Transaction, type xdr } from '@stellar/stellar-sdk';
import type { AssetRef, EntryKey, LedgerState } from './ledger.state';
import { opFailure, opSuccess } from './ledger.xdr';

/** The operations the embedded ledger applies (docs/ledger.md); any other is opNOT_SUPPORTED. */
export type SupportedOperation = Operation.CreateAccount | Operation.Payment | Operation.ManageData | Operation.SetOptions;

export type Threshold = 'low' | 'medium' | 'high';

const SUPPORTED = new Set(['createAccount', 'payment', 'manageData', 'setOptions']);
const MAX_SIGNERS = 20;
const INT64_MAX = 9223372036854775807n;

/** An amount as the SDK decodes it ("10.0000000") in stroops. */
export function stroops(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0').slice(0, 7)) * (whole.startsWith('-') ? -1n : 1n);
}

export const baseAddress = (address: string) => (address.startsWith('M') ? extractBaseAddress(address) : address);

/** Null for an operation (or a setOptions field) the embedded ledger does not support. */
export function supported(op: Operation): SupportedOperation | null {
  if (!SUPPORTED.has(op.type)) return null;
  if (op.type === 'setOptions') {
    const o = op as Operation.SetOptions;
    const signerKind = o.signer ? Object.keys(o.signer).find((k) => k !== 'weight') : 'ed25519PublicKey';
    if (o.inflationDest !== undefined || o.clearFlags !== undefined || o.setFlags !== undefined || o.homeDomain !== undefined || signerKind !== 'ed25519PublicKey') return null;
  }
  return op as SupportedOperation;
}

/** The threshold an operation needs of its source account's signers, as in stellar-core. */
export function thresholdOf(op: SupportedOperation): Threshold {
  if (op.type !== 'setOptions') return 'medium';
  const changesAuth = op.masterWeight !== undefined || op.lowThreshold !== undefined || op.medThreshold !== undefined || op.highThreshold !== undefined || op.signer !== undefined;
  return changesAuth ? 'high' : 'medium';
}

/**
 * Whether a transaction changes who may sign for `account` (a `setOptions` of its signers, master
 * weight or thresholds, from it as the transaction's or the operation's source).
 */
export function changesAuthOf(tx: Transaction, account: string): boolean {
  return tx.operations.some((op) => {
    const known = supported(op);
    return known !== null && thresholdOf(known) === 'high' && baseAddress(op.source ?? tx.source) === account;
  });
}

/** The accounts an operation touches besides its source (locked before anything is applied). */
export function otherAccounts(op: Operation): string[] {
  if (op.type === 'payment') return [baseAddress(op.destination)];
  if (op.type === 'createAccount') return [op.destination];
  return [];
}

const assetOf = (asset: Operation.Payment['asset']): AssetRef | null => (asset.isNative() ? null : { code: asset.getCode(), issuer: asset.getIssuer() });

/** The ledger entries an operation may change, for its meta. */
export function entriesOf(op: SupportedOperation, source: string): EntryKey[] {
  if (op.type === 'payment') {
    const asset = assetOf(op.asset);
    const destination = baseAddress(op.destination);
    const accounts: EntryKey[] = [['account', source], ['account', destination]];
    return asset ? [...accounts, ['trustline', source, asset], ['trustline', destination, asset]] : accounts;
  }
  if (op.type === 'createAccount') return [['account', source], ['account', op.destination]];
  if (op.type === 'manageData') return [['account', source], ['data', source, op.name]];
  return [['account', source]];
}

/** Applies one checked operation; a failure result leaves it to the caller to roll back. */
export async function applyOperation(state: LedgerState, op: SupportedOperation, source: string): Promise<{ ok: boolean; result: xdr.OperationResult }> {
  const fail = (result: xdr.OperationResult) => ({ ok: false, result });
  switch (op.type) {
    case 'createAccount': {
      const starting = stroops(op.startingBalance);
      if (starting < 0n || !StrKey.isValidEd25519PublicKey(op.destination)) return fail(opFailure.createAccount('createAccountMalformed'));
      // No one holds the native asset on the embedded ledger, so only a zero start can be funded.
      if (starting > 0n) return fail(opFailure.createAccount('createAccountUnderfunded'));
      if (state.account(op.destination) || !(await state.create(op.destination))) return fail(opFailure.createAccount('createAccountAlreadyExist'));
      return { ok: true, result: opSuccess.createAccount() };
    }
    case 'payment': {
      const amount = stroops(op.amount);
      const destination = baseAddress(op.destination);
      if (amount <= 0n) return fail(opFailure.payment('paymentMalformed'));
      if (!state.account(destination)) return fail(opFailure.payment('paymentNoDestination'));
      const asset = assetOf(op.asset);
      if (!asset) return fail(opFailure.payment('paymentUnderfunded'));
      // An issuer creates its own asset when it pays it and retires it when it receives it.
      if (source !== asset.issuer) {
        const held = state.balance(source, asset) ?? 0n;
        if (held < amount) return fail(opFailure.payment('paymentUnderfunded'));
        state.setBalance(source, asset, held - amount);
      }
      if (destination !== asset.issuer) {
        const next = (state.balance(destination, asset) ?? 0n) + amount;
        if (next > INT64_MAX) return fail(opFailure.payment('paymentLineFull'));
        state.setBalance(destination, asset, next);
      }
      return { ok: true, result: opSuccess.payment() };
    }
    case 'manageData': {
      if (op.value === null || op.value === undefined) {
        if (state.dataOf(source, op.name) === null) return fail(opFailure.manageData('manageDataNameNotFound'));
        state.setData(source, op.name, null);
      } else {
        state.setData(source, op.name, Buffer.from(op.value));
      }
      return { ok: true, result: opSuccess.manageData() };
    }
    case 'setOptions':
      return applySetOptions(state, op, source);
  }
}

function applySetOptions(state: LedgerState, op: Operation.SetOptions, source: string): { ok: boolean; result: xdr.OperationResult } {
  const fail = (code: Parameters<typeof opFailure.setOptions>[0]) => ({ ok: false, result: opFailure.setOptions(code) });
  const account = state.account(source);
  if (!account) return fail('setOptionsBadSigner');
  const levels = [op.masterWeight, op.lowThreshold, op.medThreshold, op.highThreshold];
  if (levels.some((v) => v !== undefined && (v < 0 || v > 255))) return fail('setOptionsThresholdOutOfRange');
  if (op.masterWeight !== undefined) account.masterWeight = op.masterWeight;
  if (op.lowThreshold !== undefined) account.lowThreshold = op.lowThreshold;
  if (op.medThreshold !== undefined) account.medThreshold = op.medThreshold;
  if (op.highThreshold !== undefined) account.highThreshold = op.highThreshold;
  if (op.signer) {
    const key = (op.signer as { ed25519PublicKey: string }).ed25519PublicKey;
    const weight = Number(op.signer.weight ?? 0);
    if (key === source || weight < 0 || weight > 255) return fail('setOptionsBadSigner');
    const isNew = !state.signersOf(source).some((s) => s.key === key);
    if (weight > 0 && isNew && state.signerCount(source) >= MAX_SIGNERS) return fail('setOptionsTooManySigners');
    state.setSigner(source, key, weight);
  }
  return { ok: true, result: opSuccess.setOptions() };
}
