import type { AppRouter } from '../../rest/router';

export function systemRoutes(router: AppRouter): void {
  const { system } = router.services;
  router.get('/', {}, async ({ rc }) => {
    const ping = await system.ping(rc);
    return {
      data: null,
      meta: {
        current_time: ping.currentTime,
        network_passphrase: ping.networkPassphrase,
        platforms: ping.platforms,
        master_account_id: ping.masterAccountId,
      },
    };
  });
}
