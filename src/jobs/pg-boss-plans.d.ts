/** The statements of pg-boss that src/jobs/queue-db.ts recognises (pg-boss ships no types for its internals). */
declare module 'pg-boss/src/plans' {
  export function completeJobs(schema: string): string;
  export function failJobsById(schema: string): string;
}
