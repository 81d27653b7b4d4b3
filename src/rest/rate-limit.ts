import type { Middleware } from 'koa';
import type { RateLimiter } from '../modules/limits';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every REST write counts against the caller's rate limits (`modules/limits/rate-limit.ts`), and
 * `POST /accounts` against account creation too. GraphQL counts its mutations itself: a POST
 * to it may be a query.
 */
export function restRateLimit(limiter: RateLimiter, graphqlPath: string): Middleware {
  return async (koa, next) => {
    if (!READS.has(koa.method) && koa.path !== graphqlPath) {
      await limiter.hit(koa.state.ctx, { writes: 1, accountCreations: koa.method === 'POST' && koa.path === '/accounts' ? 1 : 0 });
    }
    await next();
  };
}
