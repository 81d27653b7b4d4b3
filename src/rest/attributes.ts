const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A document's snake_case attributes under the domain input's camelCase names. A name already in
 * camelCase is no attribute of the wire and is left out, as an unknown attribute always was.
 */
export function camelAttributes(attributes: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (!/[A-Z]/.test(key)) out[camel(key)] = value;
  return out;
}
