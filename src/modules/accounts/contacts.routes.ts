import type { AppRouter } from '../../rest/router';
import type { QuerySpec } from '../../rest/query';
import { presentContact } from './contacts.presenter';

const FILTERS = { in: 'query', names: { platformId: 'filter.platformId', region: 'filter.region', lotId: 'filter.lotId' } } as const;

/** GET /brokers and GET /admins (public). */
export function contactsRoutes(router: AppRouter): void {
  const { accounts } = router.services;
  const brokersQuery: QuerySpec = {
    filters: { platform_id: { kind: 'string', max: 56, required: true }, region: { kind: 'string', max: 30 }, lot_id: { kind: 'string', max: 18 } },
  };
  const adminsQuery: QuerySpec = { filters: { platform_id: { kind: 'string', max: 56, required: true } } };
  router.get('/brokers', { summary: 'List the brokers of a platform', query: brokersQuery, response: ['accounts'], fields: FILTERS }, async ({ ctx, query }) => {
    const { platform_id, region, lot_id } = query.filters as { platform_id: string; region?: string; lot_id?: string };
    return { data: (await accounts.brokers(ctx, { platformId: platform_id, region, lotId: lot_id })).map(presentContact) };
  });
  router.get('/admins', { summary: 'List the admins of a platform', query: adminsQuery, response: ['accounts'], fields: FILTERS }, async ({ ctx, query }) => {
    const { platform_id } = query.filters as { platform_id: string };
    return { data: (await accounts.admins(ctx, { platformId: platform_id })).map(presentContact) };
  });
}
