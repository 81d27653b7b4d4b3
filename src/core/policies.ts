import { AccountType } from '../modules/accounts/accounts.entity';
import type { Caller, RequestContext } from './context';
import { forbidden, unauthenticated } from './errors';

/** The caller of an operation that needs one (PROTOCOL.md §3.6): else 401 unauthenticated. */
export function requireCaller(ctx: RequestContext): Caller {
  if (!ctx.caller) throw unauthenticated('unauthenticated', 'this operation needs a valid signature or bearer token');
  return ctx.caller;
}

/**
 * "Staff of platform P" (PROTOCOL.md §4): the platform account P itself, an admin of P, or an
 * admin whose trusting_platforms contains P.
 */
export function isStaffOf(caller: Caller | null, platformId: string | null): boolean {
  if (!caller || !platformId) return false;
  if (caller.accountId === platformId) return true;
  return caller.accountType === AccountType.Admin && (caller.platformId === platformId || caller.trustingPlatforms.includes(platformId));
}

/** The platforms whose staff the caller is. */
export function staffPlatforms(caller: Caller): string[] {
  if (caller.accountType === AccountType.Platform) return [caller.accountId];
  if (caller.accountType !== AccountType.Admin) return [];
  return [...new Set([caller.platformId, ...caller.trustingPlatforms].filter((p): p is string => !!p))];
}

/** Paused accounts may sign in and read, but not take part (PROTOCOL.md §3.4). */
export function requireActive(caller: Caller): void {
  if (caller.blacklist === 'paused') throw forbidden('account_paused', 'this account is paused');
}

/** An admin of any platform, or a platform account (who may set currency rates, PROTOCOL.md §8). */
export function isStaffOfAnyPlatform(caller: Caller): boolean {
  return caller.accountType === AccountType.Admin || caller.accountType === AccountType.Platform;
}

/** The organizer of a lot and staff of its publisher manage it (PROTOCOL.md §4). */
export function managesLot(caller: Caller | null, lot: { organizerId: string; publisherId: string }): boolean {
  return caller?.accountId === lot.organizerId || isStaffOf(caller, lot.publisherId);
}

/**
 * A lot's private rows (participants, deposits, callbacks, stars, bidders) are shown whole to
 * its managers and, to anyone else, only where they are the caller's own.
 */
export function seesLotRow(caller: Caller | null, lot: { organizerId: string; publisherId: string }, accountId: string): boolean {
  return caller?.accountId === accountId || managesLot(caller, lot);
}

/** Winner details: the lot's managers and its winner. */
export function seesWinnerDetails(caller: Caller | null, lot: { organizerId: string; publisherId: string; winnerId: string | null }): boolean {
  return managesLot(caller, lot) || (caller !== null && caller.accountId === lot.winnerId);
}
