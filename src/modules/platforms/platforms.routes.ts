import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentAccount } from '../accounts/accounts.presenter';
import { masterSignerDocument } from './platforms.schema';

export function platformsRoutes(router: AppRouter): void {
  const { platforms } = router.services;
  router.post('/master/signers', { status: 204, fields: { in: 'body', names: { publicKey: 'id' } } }, async ({ rc, body }) => {
    const doc = parseDocument(masterSignerDocument, body);
    await platforms.addMasterSigner(rc, { publicKey: doc.data.id });
  });
  router.post('/platforms', { status: 201 }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentAccount({ account: await platforms.createPlatform(rc, { ...allFromWire(data.attributes), id: data.id }), full: true }) };
  });
}
