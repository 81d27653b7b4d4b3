import type { z } from 'zod';
import { DomainError, type ErrorItem } from './errors';

/**
 * Validates the attributes of an input resource against the domain's rules, shared by both
 * edges; every faulty attribute is one error item.
 */
export function validateAttributes<S extends z.ZodType>(schema: S, attributes: unknown): z.infer<S> {
  const result = schema.safeParse(attributes ?? {});
  if (result.success) return result.data;
  const items: ErrorItem[] = result.error.issues.map((issue) => {
    const attribute = issue.path.map(String).join('/');
    const given = issue.path.reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[key] : undefined), attributes);
    const missing = given === undefined && issue.path.length > 0;
    const name = attribute || 'attributes';
    return {
      code: missing ? 'missing_field' : 'invalid_field',
      detail: missing ? `${name} is required` : `${name}: ${issue.message}`,
      source: { attribute },
    };
  });
  throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
}

/** An input resource as both edges hand it to a service: its id and attributes, unvalidated. */
export interface ResourceInput {
  id?: unknown;
  attributes?: unknown;
}
