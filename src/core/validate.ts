import type { z } from 'zod';
import type { ErrorCode } from './error-codes';
import { DomainError, type ErrorItem } from './errors';

/** An input object with its null fields dropped: in the domain's inputs, a null field is an absent one. */
export function withoutNulls<T extends object>(input: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: Exclude<T[K], null> };
}

/** An operation's input as an edge hands it over: its fields, not yet checked against the domain's rules. */
export type Untrusted<T> = { [K in keyof T]?: unknown };

/** The codes of faulty fields: `missing_field`/`invalid_field`, or for the parameters of a query `missing_parameter`/`invalid_parameter`. */
export type InputKind = 'field' | 'parameter';

/**
 * Validates an operation's typed domain input; every faulty field is one error item naming the
 * field's path in that input, which each edge renders in its own terms. A custom issue may name
 * its own code in `params.code` (`invalid_page`, `unknown_sort`), and in `params.mentions` the
 * fields its message names beside its own (as paths of the same input).
 */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, kind: InputKind = 'field'): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const items: ErrorItem[] = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const given = issue.path.reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[key] : undefined), input);
    const missing = given === undefined && issue.path.length > 0;
    const name = field || 'input';
    const params = issue.code === 'custom' ? (issue.params as { code?: ErrorCode; mentions?: string[] } | undefined) : undefined;
    return {
      code: params?.code ?? (`${missing ? 'missing' : 'invalid'}_${kind}` as const),
      detail: missing ? `${name} is required` : `${name}: ${issue.message}`,
      source: params?.mentions && !missing ? { field, mentions: params.mentions } : { field },
    };
  });
  throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
}
