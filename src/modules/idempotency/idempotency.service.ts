import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, invalid } from '../../core/errors';
import { rawQuery } from '../../db/raw';
import { sql } from '../../db/sql';

/** How long a key's first result is answered again. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * A claim without a result this old belongs to a request that died between its commit and
 * writing the result (or before either): the key may be taken again. Longer than any request runs.
 */
const ABANDONED_SECONDS = 5 * 60;
/** How long a second request with a running key waits for the first one's result, and how often it looks. */
const WAIT_MS = 10_000;
const POLL_MS = 25;
const KEY = /^[\x21-\x7e]{1,200}$/;

/** One keyed call: who sends it, its key, the operation and its input, which must match on a retry. */
export interface KeyedCall {
  key: string | null | undefined;
  operation: string;
  /**
   * Never a secret (a password, a token, a seed): its fingerprint is a plain SHA-256 kept for 24
   * hours, against which guesses of a short secret could be checked offline.
   */
  input: unknown;
}

/** How a result is kept: as JSON, and back (dates revived, say). */
export interface ResultCodec<T> {
  store(result: T): unknown;
  load(stored: unknown): T;
}

/** The codec of a result whose values are JSON already (strings, numbers, no dates). */
export const asStored = <T>(): ResultCodec<T> => ({ store: (result) => result, load: (stored) => stored as T });

/** The codec of a payload holding one object (or null) under `key`, whose `dates` are Dates: kept as JSON, the dates revived. */
export function withDates<K extends string, O extends object>(key: K, dates: readonly (keyof O & string)[]): ResultCodec<Record<K, O | null>> {
  return {
    store: (result) => result,
    load: (stored) => {
      const object = (stored as Record<K, Record<string, unknown> | null>)[key];
      if (object === null) return { [key]: null } as Record<K, O | null>;
      const revived = Object.fromEntries(dates.map((d) => [d, object[d] === null ? null : new Date(object[d] as string)]));
      return { [key]: { ...object, ...revived } } as Record<K, O | null>;
    },
  };
}

/**
 * The input as one text, its keys sorted. An absent field (undefined) is left out and a null one
 * kept, at every depth: GraphQL tells them apart, and in an input whose null clears a field
 * (EditLotInput, EditPlatformRulesInput, UpdateWinnerDetailsInput) they are two calls. Where null
 * means absent, a retry sends its input again as it was, so keeping them apart refuses no retry.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const fingerprintOf = (operation: string, input: unknown) => createHash('sha256').update(`${operation}\n${canonical(input)}`).digest('hex');

interface Row {
  operation: string;
  fingerprint: string;
  result: unknown;
}

/**
 * Keyed retries of a write: the same account sending the same key again is answered the first
 * call's result, and the write runs once, also when both calls arrive together. The key is claimed
 * by a row of `idempotency_keys` before the write runs (the primary key lets one claim win); the
 * result is stored after the write committed. A write that fails gives its key up: nothing was
 * changed, so a retry runs it again. The key means one call: sent again with another input or for
 * another operation, it is refused (`idempotency_key_reused`).
 */
export class IdempotencyService {
  async once<T>(ctx: RequestContext, call: KeyedCall, codec: ResultCodec<T>, run: () => Promise<T>): Promise<T> {
    const { key } = call;
    if (key === null || key === undefined) return run();
    if (!KEY.test(key)) throw invalid('invalid_field', 'idempotencyKey must be 1 to 200 printable ASCII characters without spaces', { field: 'idempotencyKey' });
    // A key that registers its own account keeps its keys under that account's id, so a retry
    // signed by it once the account exists finds the first call's result.
    const accountId = ctx.caller?.accountId ?? ctx.provenKey;
    // Keys are kept per account: an unsigned call has none to keep one under, and would run again.
    if (!accountId) throw invalid('invalid_field', 'idempotencyKey needs a signed request or a bearer token: keys are kept per account', { field: 'idempotencyKey' });
    const fingerprint = fingerprintOf(call.operation, call.input);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      if (await this.claim(ctx.em, accountId, key, call.operation, fingerprint)) return this.runClaimed(ctx.em, accountId, key, codec, run);
      const row = await this.read(ctx.em, accountId, key);
      if (!row) continue;
      if (row.operation !== call.operation || row.fingerprint !== fingerprint) {
        throw conflict('idempotency_key_reused', 'idempotencyKey was sent with another input or for another operation', { field: 'idempotencyKey' });
      }
      if (row.result !== null) return codec.load(row.result);
      if (Date.now() > deadline) throw conflict('idempotency_key_in_use', 'a call with this idempotencyKey is still running; send it again later', { field: 'idempotencyKey' });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async runClaimed<T>(em: EntityManager, accountId: string, key: string, codec: ResultCodec<T>, run: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (err) {
      // The call's own failure is what the caller is answered; a claim that cannot be given up
      // now (the database went) lapses as abandoned.
      await rawQuery(em, sql.render(sql`delete from idempotency_keys where account_id = ${accountId} and key = ${key} and result is null`)).catch(() => undefined);
      throw err;
    }
    await rawQuery(em, sql.render(sql`update idempotency_keys set result = ${JSON.stringify(codec.store(result))}::jsonb where account_id = ${accountId} and key = ${key}`));
    return result;
  }

  /** Claims the key: a new row, or one past its lifetime or abandoned, taken over. True when this call holds it. */
  private async claim(em: EntityManager, accountId: string, key: string, operation: string, fingerprint: string): Promise<boolean> {
    const [{ rows }] = await rawQuery(
      em,
      sql.render(sql`insert into idempotency_keys as k (account_id, key, operation, fingerprint) values (${accountId}, ${key}, ${operation}, ${fingerprint})
        on conflict (account_id, key) do update set operation = excluded.operation, fingerprint = excluded.fingerprint, result = null, created_at = now()
        where k.created_at < now() - make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})
           or (k.result is null and k.created_at < now() - make_interval(secs => ${ABANDONED_SECONDS}))
        returning true as claimed`),
    );
    return rows.length === 1;
  }

  private async read(em: EntityManager, accountId: string, key: string): Promise<Row | null> {
    const [{ rows }] = await rawQuery(em, sql.render(sql`select operation, fingerprint, result from idempotency_keys where account_id = ${accountId} and key = ${key}`));
    return (rows[0] as unknown as Row | undefined) ?? null;
  }

  /** Deletes the keys past their lifetime (a cleaner). */
  async prune(em: EntityManager): Promise<number> {
    const [{ rowCount }] = await rawQuery(em, sql.render(sql`delete from idempotency_keys where created_at < now() - make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS})`));
    return rowCount ?? 0;
  }
}
