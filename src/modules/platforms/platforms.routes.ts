import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentAccount } from '../accounts';
import type { StatsUnit } from '../lots';
import { masterSignerDocument, PLATFORM_STATS_QUERY } from './platforms.schema';
import { presentPlatformStats } from './platforms.stats.presenter';
import { createPlatformInput } from './platforms.input';

export function platformsRoutes(router: AppRouter): void {
  const { platforms, platformStats } = router.services;
  router.post('/master/signers', { summary: 'Add a signer of the master account (loopback callers only)', status: 204, body: { type: 'signers', id: 'required' }, fields: { in: 'body', names: { publicKey: 'id' } } }, async ({ ctx, body }) => {
    const doc = parseDocument(masterSignerDocument, body);
    await platforms.addMasterSigner(ctx, { publicKey: doc.data.id });
  });
  router.post('/platforms', { summary: 'Create a platform account (the seed authenticates)', status: 201, body: { type: 'accounts', input: createPlatformInput(router.services.reference), omit: ['id'], id: 'required' }, response: 'accounts' }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentAccount({ account: await platforms.createPlatform(ctx, { ...allFromWire(data.attributes), id: data.id }), full: true }) };
  });
  // The twin of GraphQL's platformStats: the same service operation, so the same intervals and the same refusals.
  router.get(
    '/platforms/:id/stats',
    { summary: "A platform's lots listed and sold, bids, active bidders and GMV per interval (its staff and the master account)", authenticated: true, query: PLATFORM_STATS_QUERY, response: 'platform_stats', fields: 'query' },
    async ({ ctx, params, query }) => {
      const { from, to, interval, currency } = query.plain as { from: string; to: string; interval: StatsUnit; currency?: string };
      return { data: presentPlatformStats(await platformStats.stats(ctx, { platformId: params.id, from, to, interval, currency })) };
    },
  );
}
