import { readdirSync } from 'node:fs';
import path from 'node:path';

// `npm test` runs the files through test/groups/ (test/grouping.js): a file no group takes would
// silently never run, and one that two groups take would run twice.
const { GROUPS, groupFiles, testFiles } = require('../grouping.js') as {
  GROUPS: number;
  groupFiles(n: number): string[];
  testFiles(): string[];
};

describe('the groups of npm test', () => {
  const groups = Array.from({ length: GROUPS }, (_, i) => groupFiles(i + 1));

  it('take every test file once', () => {
    const taken = groups.flat();
    expect(taken.length).toBeGreaterThan(250);
    expect(new Set(taken).size).toBe(taken.length);
    expect([...taken].sort()).toEqual(testFiles());
    expect(taken).toContain(__filename);
  });

  it('each have a jest file, and there is no other', () => {
    const names = readdirSync(path.join(__dirname, '../groups')).sort();
    expect(names).toEqual(groups.map((_, i) => `${String(i + 1).padStart(2, '0')}.group.js`));
    expect(groups.every((files) => files.length > 0)).toBe(true);
  });
});
