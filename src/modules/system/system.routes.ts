import type { AppRouter } from '../../rest/router';
import { presentPing } from './system.presenter';

export function systemRoutes(router: AppRouter): void {
  const { system } = router.services;
  router.get('/', { summary: 'Ping: the network, the master account and the caller', response: null }, async ({ ctx }) => presentPing(await system.ping(ctx)));
}
