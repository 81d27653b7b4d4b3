import type { Caller, RequestContext } from './context';
import { unauthenticated } from './errors';

/** The caller of an operation that needs one (PROTOCOL.md §3.6): else 401 unauthenticated. */
export function requireCaller(ctx: RequestContext): Caller {
  if (!ctx.caller) throw unauthenticated('unauthenticated', 'this operation needs a valid signature or bearer token');
  return ctx.caller;
}
