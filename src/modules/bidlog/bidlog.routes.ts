import type { AppRouter } from '../../rest/router';
import { presentBidLog } from './bidlog.presenter';

export function bidLogRoutes(router: AppRouter): void {
  const { bidLog } = router.services;
  router.get('/lots/:id/bid_log', { summary: "The lot's hash-chained bid log and, once closed, its signed head (docs/bid-log.md)", response: 'bid_logs' }, async ({ ctx, params }) => ({ data: presentBidLog(await bidLog.get(ctx, { lotId: params.id })) }));
}
