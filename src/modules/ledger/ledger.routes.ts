import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentLedgerAccount, presentLedgerTransaction, presentSubmitted } from './ledger.presenter';
import { submitTransactionInput } from './ledger.input';

/** The ledger: both operations are public; a transaction is authenticated by its own signatures. */
export function ledgerRoutes(router: AppRouter): void {
  const { ledger } = router.services;
  router.post('/transactions', { summary: 'Submit a signed ledger transaction envelope', body: { type: 'transactions', input: submitTransactionInput }, response: null }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('transactions'), body);
    return presentSubmitted(await ledger.submit(ctx, { tx: data.attributes?.tx }));
  });
  router.get('/ledger/accounts/:id', { summary: 'Read a ledger account (balances, signers)', response: 'ledger_accounts' }, async ({ ctx, params }) => ({ data: presentLedgerAccount(await ledger.account(ctx, params.id)) }));
  router.get('/ledger/transactions/:hash', { summary: 'Read a transaction that reached the ledger (as Horizon shows one): how a verifier reads an anchor (docs/bid-log.md)', response: 'ledger_transactions' }, async ({ ctx, params }) => ({
    data: presentLedgerTransaction(await ledger.transaction(ctx, params.hash)),
  }));
}
