import { sql, type Sql } from '../db/sql';
import { AccountType } from './account-type';
import type { Caller, RequestContext } from './context';
import { forbidden, unauthenticated } from './errors';

/** The caller of an operation that needs one: else 401 unauthenticated. */
export function requireCaller(ctx: RequestContext): Caller {
  if (!ctx.caller) throw unauthenticated('unauthenticated', 'this operation needs a valid signature or bearer token');
  return ctx.caller;
}

/**
 * "Staff of platform P": the platform account P itself, an admin of P, or an admin whose
 * trusting_platforms contains P. `staffOfSql` and `staffQuery` are the same rule for statements
 * (test/accounts/account-rule-twins.test.ts runs the three on the same rows): change them together.
 */
export function isStaffOf(caller: Caller | null, platformId: string | null): boolean {
  if (!caller || !platformId) return false;
  if (caller.accountId === platformId) return true;
  return caller.accountType === AccountType.Admin && (caller.platformId === platformId || caller.trustingPlatforms.includes(platformId));
}

/**
 * `isStaffOf` inside SQL, for reads that want the staff themselves (notification recipients, the
 * bid path's announcements): the ids of the staff of the platform, in order. The publisher itself
 * is a platform account, or the master account, which publishes the lots it imports.
 */
export const staffQuery = (platformId: string) =>
  sql`select id from accounts
    where (id = ${platformId} and account_type in (${AccountType.Platform}, ${AccountType.Master}))
       or (account_type = ${AccountType.Admin} and (platform_id = ${platformId} or ${platformId} = any (trusting_platforms)))
    order by id`;

/** `isStaffOf(caller, platform)` inside SQL, the platform an expression of the statement's rows (null: no platform, no staff). */
export function staffOfSql(caller: Caller | null, platform: Sql): Sql {
  if (!caller) return sql`false`;
  const hosts = caller.accountType === AccountType.Admin ? [caller.platformId, ...caller.trustingPlatforms].filter((p): p is string => !!p) : [];
  return sql`coalesce(${platform} = ${caller.accountId} or ${platform} = any (${sql.array(hosts, 'text')}), false)`;
}

/**
 * The full record of an account (else its public view), and the right to change it: the account
 * itself and staff of its platform. `seesFullAccountSql` is the same rule for the row `account`.
 */
export function seesFullAccount(caller: Caller | null, account: { id: string; platformId: string | null }): boolean {
  return caller?.accountId === account.id || isStaffOf(caller, account.platformId);
}

export const seesFullAccountSql = (caller: Caller | null, account: Sql): Sql =>
  caller ? sql`(${account}.id = ${caller.accountId} or ${staffOfSql(caller, sql`${account}.platform_id`)})` : sql`false`;

/**
 * A signature by a key that is no account yet proves the key and nothing more: it is honoured by
 * self-registration alone, and refused elsewhere as every invalid signature is.
 * Each edge calls this before an operation that is not marked as self-registration.
 */
export function refuseUnknownKey(ctx: Pick<RequestContext, 'caller' | 'provenKey'>): void {
  if (!ctx.caller && ctx.provenKey) throw unauthenticated('signature_invalid', 'keyId is not a known account');
}

/**
 * Self-registration: a user account created by a request signed with its own
 * key, which is no account yet.
 */
export function registersItself(ctx: Pick<RequestContext, 'provenKey'>, account: { id: string; accountType: string }): boolean {
  return account.accountType === 'user' && ctx.provenKey === account.id;
}

/** The platforms whose staff the caller is. */
export function staffPlatforms(caller: Caller): string[] {
  if (caller.accountType === AccountType.Platform) return [caller.accountId];
  if (caller.accountType !== AccountType.Admin) return [];
  return [...new Set([caller.platformId, ...caller.trustingPlatforms].filter((p): p is string => !!p))];
}

/** Paused accounts may sign in and read, but not take part. */
export function requireActive(caller: Caller): void {
  if (caller.blacklist === 'paused') throw forbidden('account_paused', 'this account is paused');
}

/** The organizer of a lot and staff of its publisher manage it. */
export function managesLot(caller: Caller | null, lot: { organizerId: string; publisherId: string }): boolean {
  return caller?.accountId === lot.organizerId || isStaffOf(caller, lot.publisherId);
}

/** `managesLot` of the lot row `lot` (a table's alias) inside SQL. */
export const managesLotSql = (caller: Caller | null, lot: Sql): Sql =>
  caller ? sql`(${lot}.organizer_id = ${caller.accountId} or ${staffOfSql(caller, sql`${lot}.publisher_id`)})` : sql`false`;

/**
 * A lot's private rows (participants, deposits, callbacks, stars, bidders) are shown whole to
 * its managers and, to anyone else, only where they are the caller's own.
 */
export function seesLotRow(caller: Caller | null, lot: { organizerId: string; publisherId: string }, accountId: string): boolean {
  return caller?.accountId === accountId || managesLot(caller, lot);
}

/** `seesLotRow` inside SQL, for the lot row `lot` (a table's alias) and the row's account id `accountId`. */
export const seesLotRowSql = (caller: Caller | null, lot: Sql, accountId: Sql): Sql =>
  caller ? sql`(${accountId} = ${caller.accountId} or ${managesLotSql(caller, lot)})` : sql`false`;

/**
 * Who sees a lot's participant, wherever participants are shown (REST `include=participants`,
 * `Lot.participants`) or counted (the filters has_participants, has_participants_from,
 * has_requests): the participant itself, the lot's managers, and staff of the participant's own
 * platform, who see that account whole (`seesFullAccount`). A platform finds the lots its users take
 * part in, and no other platform learns who takes part in a lot it does not manage. In SQL, for the
 * lot row `lot` and the participant's account id `accountId`, so a listing and its filters apply
 * the very same condition; `seesParticipant` is the same rule for a row in hand.
 */
export function seesParticipant(caller: Caller | null, lot: { organizerId: string; publisherId: string }, account: { id: string; platformId: string | null }): boolean {
  return seesLotRow(caller, lot, account.id) || seesFullAccount(caller, account);
}

/** `seesParticipant` inside SQL, for the lot row `lot` and the participant's account id `accountId`. */
export const seesParticipantSql = (caller: Caller | null, lot: Sql, accountId: Sql): Sql =>
  caller
    ? sql`(${accountId} = ${caller.accountId} or ${managesLotSql(caller, lot)} or exists (select 1 from accounts pa where pa.id = ${accountId} and ${staffOfSql(caller, sql`pa.platform_id`)}))`
    : sql`false`;

/** A lot's reserve price is hidden from bidders: its managers alone see the amount (everyone sees whether it is met). */
export function seesReservePrice(caller: Caller | null, lot: { organizerId: string; publisherId: string }): boolean {
  return managesLot(caller, lot);
}

/** Winner details: the lot's managers and its winner. `seesWinnerDetailsSql` is the same rule for the lot row `lot`. */
export function seesWinnerDetails(caller: Caller | null, lot: { organizerId: string; publisherId: string; winnerId: string | null }): boolean {
  return managesLot(caller, lot) || (caller !== null && caller.accountId === lot.winnerId);
}

export const seesWinnerDetailsSql = (caller: Caller | null, lot: Sql): Sql =>
  caller ? sql`(${managesLotSql(caller, lot)} or ${lot}.winner_id = ${caller.accountId})` : sql`false`;

/**
 * Who sees the bidder of a live bid (`bidPlaced`): the bidder itself and staff of
 * the lot's publisher.
 */
export function seesLiveBidder(caller: Caller | null, lot: { publisherId: string }, bidderId: string): boolean {
  return caller?.accountId === bidderId || isStaffOf(caller, lot.publisherId);
}

/** Send message: as the sender itself, or as staff of the sender's platform. */
export function maySendMessageAs(caller: Caller, sender: { id: string; platformId: string | null }): boolean {
  return seesFullAccount(caller, sender);
}

/**
 * Read messages, dialogs and unread counters: the two accounts of a conversation
 * see it, and staff of the lot's publisher see every conversation about the lot.
 */
export function readsConversation(caller: Caller | null, lot: { publisherId: string }, members: readonly string[]): boolean {
  return (caller !== null && members.includes(caller.accountId)) || isStaffOf(caller, lot.publisherId);
}

/** `readsConversation` as the scope of a listing: the caller's conversations, and those about its platforms' lots. */
export function conversationScope(caller: Caller): { accountId: string; publishers: string[] } {
  return { accountId: caller.accountId, publishers: staffPlatforms(caller) };
}

/** Mark messages read: the receiver, staff of the receiver's platform, or staff of the lot's publisher. */
export function mayMarkMessagesRead(caller: Caller, receiver: { id: string; platformId: string | null }, lot: { publisherId: string }): boolean {
  return caller.accountId === receiver.id || isStaffOf(caller, receiver.platformId) || isStaffOf(caller, lot.publisherId);
}
