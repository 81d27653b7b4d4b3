/** A sort argument written as in REST (`-created_at`: descending) as the sort of a listing input. */
export const sortArg = (sort: string | null | undefined) => (sort ? { key: sort.replace(/^-/, ''), desc: sort.startsWith('-') } : undefined);
