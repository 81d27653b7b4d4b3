import type { AppRouter } from '../../rest/router';
import { presentPing } from './system.presenter';

export function systemRoutes(router: AppRouter): void {
  const { system } = router.services;
  router.get('/', {}, async ({ rc }) => presentPing(await system.ping(rc)));
}
