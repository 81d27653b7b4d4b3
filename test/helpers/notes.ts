import { appendFileSync } from 'node:fs';

/**
 * What a long run tried and saw (the hardening walks, the fault and concurrency runs), for a
 * person to read. Under `npm test` it goes to the run's notes (TEST_NOTES_FILE), printed after the
 * run when CI is set, so that a passing suite prints nothing else; a file run by jest alone prints it.
 */
export function note(text: string): void {
  const file = process.env.TEST_NOTES_FILE;
  if (file) appendFileSync(file, `${path()}\n${text}\n\n`);
  else console.log(text);
}

function path(): string {
  return expect.getState().testPath?.replace(/^.*?\/test\//, 'test/') ?? '';
}
