import type { AppRouter } from '../../rest/router';
import { presentToken } from './credentials.presenter';

export function credentialsRoutes(router: AppRouter): void {
  const { credentials } = router.services;
  router.patch('/jwt', { status: 201 }, async ({ rc }) => presentToken(await credentials.refreshToken(rc)));
}
