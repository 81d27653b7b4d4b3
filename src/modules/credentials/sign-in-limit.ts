import type { EntityManager } from '@mikro-orm/postgresql';
import { rateLimited } from '../../core/errors';
import { inTransaction } from '../../core/transaction';
import { anyIn, changedBy, rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { SignInFailure } from './credentials.entity';

/**
 * At most 10 failed sign-ins per account or per email in 15 minutes: from each
 * address the account signed in from before, and from all other addresses together.
 */
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** How long an address stays familiar to an account after a sign-in from it with the password. */
export const FAMILIAR_DAYS = 90;

export const accountSubject = (accountId: string) => `account:${accountId}`;
export const emailSubject = (platformId: string, email: string) => `email:${platformId}:${email.trim().toLowerCase()}`;
/**
 * An account's or email's failures are counted per address (an IPv4 address, an IPv6 /64): a
 * stranger who fails ten times elsewhere does not lock the owner out of an address he signed in from.
 */
export const fromAddress = (subject: string, address: string) => `${subject} from ${address}`;
/**
 * The failures from every address the account has not signed in from, together: holding many
 * addresses gives a guesser no more than 10 checks per account, not 10 per address. Named like a
 * per-address subject, so that a password recovery forgets it with them.
 */
export const fromStrangers = (subject: string) => fromAddress(subject, 'unfamiliar addresses');
/** Every failure from one address, whatever account it tried: one guess on each of many accounts meets a limit too. */
export const addressSubject = (address: string) => `address:${address}`;

export interface SubjectLimit {
  subject: string;
  /** Failures in the window that refuse further attempts. */
  max: number;
}

const likePrefix = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Failed attempts are rows of `sign_in_failures`, so the limit holds across instances. An attempt
 * first reserves one row per subject, as if it were going to fail; the check and the reservation
 * run under a transaction-scoped advisory lock per subject, so concurrent attempts cannot both see
 * room for one more. A successful attempt gives its reservation back (`release`).
 */
export class SignInLimit {
  /** Reserves an attempt against every subject, or answers 429 when one has used up its failures. */
  async reserve(em: EntityManager, limits: SubjectLimit[]): Promise<string[]> {
    const maxOf = new Map(limits.map((l) => [l.subject, l.max]));
    const distinct = [...maxOf.keys()].sort();
    return inTransaction({ em }, async (tx) => {
      for (const subject of distinct) {
        await rowsOf(tx, sql`select pg_advisory_xact_lock(hashtextextended(${subject}, 0))`);
      }
      const now = Date.now();
      const since = new Date(now - FAILURE_WINDOW_MS);
      await tx.nativeDelete(SignInFailure, { subject: { $in: distinct }, failedAt: { $lte: since } });
      let until: Date | null = null;
      for (const subject of distinct) {
        // The limit frees when the max-th newest failure leaves the window.
        const [freeing] = await tx.find(SignInFailure, { subject, failedAt: { $gt: since } }, { orderBy: { failedAt: 'desc' }, offset: (maxOf.get(subject) as number) - 1, limit: 1 });
        const frees = freeing && new Date(freeing.failedAt.getTime() + FAILURE_WINDOW_MS);
        if (frees && (!until || frees > until)) until = frees;
      }
      if (until) throw rateLimited('too_many_attempts', 'too many failed sign-in attempts; try again later', until);
      const rows = distinct.map((subject) => tx.create(SignInFailure, { subject, failedAt: new Date(now) }));
      await tx.flush();
      return rows.map((r) => r.id);
    });
  }

  /** The attempt succeeded (or was not a password failure): its reservation does not count. */
  async release(em: EntityManager, reservation: string[]): Promise<void> {
    if (reservation.length) await em.nativeDelete(SignInFailure, { id: { $in: reservation } });
  }

  /** Whether the account signed in with its password from this address group within FAMILIAR_DAYS. */
  async familiar(em: EntityManager, accountId: string, address: string): Promise<boolean> {
    return anyIn(em, sql`sign_in_addresses where account_id = ${accountId} and address = ${address} and signed_in_at > now() - make_interval(days => ${FAMILIAR_DAYS})`);
  }

  /** The account signed in with its password from this address group: it is familiar from now on. */
  async remember(em: EntityManager, accountId: string, address: string): Promise<void> {
    await changedBy(em, sql`insert into sign_in_addresses (account_id, address) values (${accountId}, ${address}) on conflict (account_id, address) do update set signed_in_at = now()`);
  }

  /** Deletes the addresses no longer familiar (a cleaner). */
  async prune(em: EntityManager): Promise<number> {
    return changedBy(em, sql`delete from sign_in_addresses where signed_in_at <= now() - make_interval(days => ${FAMILIAR_DAYS})`);
  }

  /** Forgets the failures of an account whose password was just reset, from every address. */
  async forget(em: EntityManager, subjects: string[]): Promise<void> {
    await em.nativeDelete(SignInFailure, { $or: subjects.map((s) => ({ subject: { $like: `${likePrefix(fromAddress(s, ''))}%` } })) });
  }
}
