import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentAccount } from '../accounts';
import { masterSignerDocument } from './platforms.schema';
import { createPlatformInput } from './platforms.input';

export function platformsRoutes(router: AppRouter): void {
  const { platforms } = router.services;
  router.post('/master/signers', { summary: 'Add a signer of the master account (loopback callers only)', status: 204, body: { type: 'signers', id: 'required' }, fields: { in: 'body', names: { publicKey: 'id' } } }, async ({ ctx, body }) => {
    const doc = parseDocument(masterSignerDocument, body);
    await platforms.addMasterSigner(ctx, { publicKey: doc.data.id });
  });
  router.post('/platforms', { summary: 'Create a platform account (the seed authenticates)', status: 201, body: { type: 'accounts', input: createPlatformInput(router.services.reference), omit: ['id'], id: 'required' }, response: 'accounts' }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentAccount({ account: await platforms.createPlatform(ctx, { ...allFromWire(data.attributes), id: data.id }), full: true }) };
  });
}
