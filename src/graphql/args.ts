/** A GraphQL input object as a domain input: a null field is an absent one. */
export function withoutNulls<T extends object>(input: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: Exclude<T[K], null> };
}

/** A sort argument written as in REST (`-created_at`: descending) as the sort of a listing input. */
export const sortArg = (sort: string | null | undefined) => (sort ? { key: sort.replace(/^-/, ''), desc: sort.startsWith('-') } : undefined);
