import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentLedgerAccount, presentSubmitted } from './ledger.presenter';

/** The ledger: both operations are public; a transaction is authenticated by its own signatures. */
export function ledgerRoutes(router: AppRouter): void {
  const { ledger } = router.services;
  router.post('/transactions', {}, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('transactions'), body);
    return presentSubmitted(await ledger.submit(rc, { tx: data.attributes?.tx }));
  });
  router.get('/ledger/accounts/:id', {}, async ({ rc, params }) => ({ data: presentLedgerAccount(await ledger.account(rc, params.id)) }));
}
