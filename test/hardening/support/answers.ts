import type { TestResponse } from '../../helpers/client';

/**
 * Why an answer to a bad request is wrong, or null when it is a 4xx with the error body of
 * docs/errors.md whose first error's status is the HTTP status.
 */
export function faultOfRefusal(res: TestResponse): string | null {
  if (res.status < 400 || res.status > 499) return `answered ${res.status}: ${res.text.slice(0, 300)}`;
  const errors = (res.body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `${res.status} without an errors list: ${res.text.slice(0, 300)}`;
  const [first] = errors as Record<string, unknown>[];
  if (first.status !== String(res.status)) return `${res.status} whose first error says status ${JSON.stringify(first.status)}`;
  if (typeof first.code !== 'string' || !/^[a-z0-9_]+$/.test(first.code)) return `${res.status} without a snake_case code: ${res.text.slice(0, 300)}`;
  if (typeof first.title !== 'string') return `${res.status} without a title`;
  return null;
}

/** Statuses seen, as `400×12 404×3`. */
export function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
}

/**
 * How many runs each property gets: a short fixed-seed walk by default, three times as many in CI
 * (HARDENING_LONG), any number on request (BAD_INPUT_RUNS=300 takes tens of minutes).
 */
export const RUNS = Number(process.env.BAD_INPUT_RUNS ?? (process.env.HARDENING_LONG === '1' ? 30 : 10));
export const SEED = Number(process.env.HARDENING_SEED ?? 20261124);
