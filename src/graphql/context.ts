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

/** Each context's loaders, kept beside it: a context stays as it was made (resolvers never write to it). */
const loadersOf = new WeakMap<LazyLoadersContext, Loaders>();

/**
 * Its loaders are made on first use: a page of lots without relations, or an event of a
 * subscription whose fields read none, never reads them. The getter is the class's, not the
 * object's own: Apollo copies each request's context with Object.assign, which would read it.
 */
class LazyLoadersContext implements GraphQLContext {
  constructor(
    readonly ctx: RequestContext,
    readonly services: Services,
    readonly signal?: AbortSignal,
  ) {}

  get loaders(): Loaders {
    let loaders = loadersOf.get(this);
    if (!loaders) loadersOf.set(this, (loaders = createLoaders(this.ctx, this.services, this.signal)));
    return loaders;
  }
}

export function graphqlContext(ctx: RequestContext, services: Services, signal?: AbortSignal): GraphQLContext {
  return new LazyLoadersContext(ctx, services, signal);
}

/**
 * A subscription's context, whose entity manager (and loaders) are made on first use: thousands
 * of subscribers of a context-free subscription never read them, and would otherwise each hold an
 * entity manager and a set of DataLoaders for as long as they stay subscribed.
 */
export function lazyGraphqlContext(ctx: Omit<RequestContext, 'em'>, fork: () => EntityManager, services: Services): GraphQLContext {
  let em: EntityManager | undefined;
  const lazy: RequestContext = {
    ...ctx,
    get em() {
      return (em ??= fork());
    },
  };
  return graphqlContext(lazy, services);
}

/**
 * The context one event of a subscription executes with. A subscription's context outlives many
 * events: each reads through a fresh entity manager and fresh loaders, as a request would, so
 * that nested fields are not stale, and no resolver has to reset the shared one.
 */
export function eventContext(subscription: GraphQLContext): GraphQLContext {
  return graphqlContext({ ...subscription.ctx, em: subscription.ctx.em.fork() }, subscription.services);
}
