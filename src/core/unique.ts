import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { DomainError } from './errors';

/** Runs `work`; when two requests race past a uniqueness check, the database's refusal becomes `conflict`. */
export async function uniquely<T>(work: () => Promise<T>, conflict: () => DomainError): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict();
    throw err;
  }
}
