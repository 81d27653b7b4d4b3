import type { TestResponse } from '../helpers/client';

/** A request's answer reduced to what the invariants need, whichever edge carried it. */
export interface Outcome {
  status: number;
  code: string | undefined;
}

export const restOutcome = (res: TestResponse): Outcome => ({ status: res.status, code: res.body?.errors?.[0]?.code });

/** A GraphQL answer carries its status in `extensions.status`; 200 when the operation succeeded. */
export function graphqlOutcome(res: TestResponse<{ data: unknown; errors: any[] }>): Outcome {
  const error = res.body?.errors?.[0];
  if (!error) return { status: res.status, code: undefined };
  return { status: Number(error.extensions?.status ?? 500), code: error.extensions?.code };
}

/** Counts of each `status code` pair, for the printed summary. */
export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.code ? `${o.status} ${o.code}` : String(o.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
