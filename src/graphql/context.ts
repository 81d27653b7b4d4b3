import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context';
import type { Services } from '../services';
import { createLoaders, type Loaders } from './loaders';

/** What every resolver receives: the request context for the services, the services, the request's loaders. */
export interface GraphQLContext {
  ctx: RequestContext;
  services: Services;
  loaders: Loaders;
  /** Aborted when the HTTP client went away before the answer: resolving stops. */
  signal?: AbortSignal;
}

export function graphqlContext(ctx: RequestContext, services: Services, signal?: AbortSignal): GraphQLContext {
  return { ctx, services, loaders: createLoaders(ctx.em, signal), signal };
}

/**
 * A subscription's context, whose entity manager and loaders are made on first use: thousands of
 * subscribers of a context-free subscription never read the loaders, and would otherwise each
 * hold a set of DataLoaders for as long as they stay subscribed.
 */
export function lazyGraphqlContext(ctx: Omit<RequestContext, 'em'>, fork: () => EntityManager, services: Services): GraphQLContext {
  let em: EntityManager | undefined;
  let loaders: Loaders | undefined;
  const lazy: RequestContext = {
    ...ctx,
    get em() {
      return (em ??= fork());
    },
  };
  return {
    ctx: lazy,
    services,
    get loaders() {
      return (loaders ??= createLoaders(lazy.em));
    },
  };
}

/**
 * The context one event of a subscription executes with. A subscription's context outlives many
 * events: each reads through a fresh entity manager and fresh loaders, as a request would, so
 * that nested fields are not stale, and no resolver has to reset the shared one.
 */
export function eventContext(subscription: GraphQLContext): GraphQLContext {
  return graphqlContext({ ...subscription.ctx, em: subscription.ctx.em.fork() }, subscription.services);
}
