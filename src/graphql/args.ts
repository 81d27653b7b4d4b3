/** GraphQL input fields with null dropped: a null (nullable) argument means the field is absent. */
export function givenFields<T extends object>(input: T): { [K in keyof T]?: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== null && value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], null> };
}
