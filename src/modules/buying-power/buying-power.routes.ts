import type { AppRouter } from '../../rest/router';
import { presentBuyingPower } from './buying-power.presenter';

export function buyingPowerRoutes(router: AppRouter): void {
  const { buyingPower } = router.services;
  router.get(
    '/accounts/:id/buying_power',
    { summary: "An account's buying power on a platform (its own by default): the account itself and the platform's staff", authenticated: true, response: 'buying_power', query: { plain: { platform_id: { kind: 'string', max: 56 } } }, fields: 'query' },
    async ({ ctx, params, query }) => ({ data: presentBuyingPower(await buyingPower.get(ctx, { accountId: params.id, platformId: query.plain.platform_id })) }),
  );
}
