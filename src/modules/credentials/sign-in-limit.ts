import type { EntityManager } from '@mikro-orm/postgresql';
import { rateLimited } from '../../core/errors';
import { SignInFailure } from './credentials.entity';

/** PROTOCOL.md §8: at most 10 failed sign-ins per account or per email in 15 minutes, from one address. */
export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export const accountSubject = (accountId: string) => `account:${accountId}`;
export const emailSubject = (platformId: string, email: string) => `email:${platformId}:${email.trim().toLowerCase()}`;
/**
 * An account's or email's failures are counted per address: a stranger who fails ten times
 * elsewhere does not lock the owner out, only himself.
 */
export const fromAddress = (subject: string, address: string) => `${subject} from ${address}`;
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
    return em.transactional(async (tx) => {
      const connection = tx.getConnection();
      for (const subject of distinct) {
        await connection.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [subject], 'all', tx.getTransactionContext());
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

  /** Forgets the failures of an account whose password was just reset, from every address. */
  async forget(em: EntityManager, subjects: string[]): Promise<void> {
    await em.nativeDelete(SignInFailure, { $or: subjects.map((s) => ({ subject: { $like: `${likePrefix(fromAddress(s, ''))}%` } })) });
  }
}
