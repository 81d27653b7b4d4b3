import { resource, type Resource, type TopLevel } from '../../rest/document';
import type { SubmittedTransaction } from './ledger.embedded';
import type { LedgerAccountView, LedgerTransactionView } from './ledger.service';

/** Stroops as Stellar writes balances: a string with seven decimals ("100.0000000"). */
export function formatStroops(value: bigint): string {
  const whole = value / 10_000_000n;
  const fraction = (value % 10_000_000n).toString().padStart(7, '0');
  return `${whole}.${fraction}`;
}

/** `{type: ledger_accounts, id, attributes: {sequence, balances, signers, thresholds}}`. */
export const presentLedgerAccount = (a: LedgerAccountView): Resource =>
  resource('ledger_accounts', a.id, {
    sequence: a.sequence.toString(),
    balances: a.balances.map((b) => ({ asset_code: b.assetCode, asset_issuer: b.assetIssuer, balance: formatStroops(b.balance) })),
    signers: a.signers,
    thresholds: a.thresholds,
  });

/** POST /transactions: `data: null` and the ledger's answer in `meta`. */
export const presentSubmitted = (s: SubmittedTransaction): TopLevel => ({
  data: null,
  meta: { envelope_xdr: s.envelopeXdr, hash: s.hash, ledger: s.ledger, result_xdr: s.resultXdr, result_meta_xdr: s.resultMetaXdr },
});

/** `{type: ledger_transactions, id: <hash>}`: the fields Horizon's transaction record has under the same names. */
export const presentLedgerTransaction = (t: LedgerTransactionView): Resource =>
  resource('ledger_transactions', t.hash, { hash: t.hash, ledger: t.ledger, source_account: t.sourceAccount, envelope_xdr: t.envelopeXdr, result_xdr: t.resultXdr, successful: t.successful });
