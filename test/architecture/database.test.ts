import path from 'node:path';
import { spawnSync } from 'node:child_process';

// eslint.config.mjs "One way to the database": one transaction API, and the ORM's connection and
// transaction statements only in src/db.
const ROOT = path.resolve(__dirname, '../..');

/** How many no-restricted-syntax messages each probe (a file name and its code) gets. */
function restricted(probes: [string, string][]): number[] {
  // ESLint loads its flat config as an ES module, which a test's module system does not: it runs in node.
  const lint = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ESLint } from 'eslint';
       const eslint = new ESLint();
       const counts = [];
       for (const [file, code] of JSON.parse(process.argv[1])) counts.push((await eslint.lintText(code + '\\n', { filePath: file }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').length);
       console.log(JSON.stringify(counts));`,
      JSON.stringify(probes),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(lint.stderr).toBe('');
  return JSON.parse(lint.stdout);
}

describe('one way to the database', () => {
  it('refuses, outside src/db, another transaction API than inTransaction and the ORM connection', () => {
    const probes: [string, string, number][] = [
      ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.transactional(async () => 1);', 1],
      ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.getConnection().getKnex().transaction(async () => 1);', 2],
      ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.getKnex();', 1],
      ['src/auth/probe.ts', "export const s = [{ text: 'begin' }, { text: 'COMMIT' }];", 2],
      ['src/auth/probe.ts', 'export const s = [{ text: `start transaction isolation level serializable` }, { text: ` rollback` }];', 2],
      ['src/modules/lots/probe.ts', "export const s = 'savepoint a';", 1],
      ['src/modules/lots/probe.ts', "import { rawTransaction } from '../../db/raw';\nexport const f = rawTransaction;", 1],
      ['src/modules/bids/bids.service.ts', "import { rawTransaction } from '../../db/raw';\nexport const f = rawTransaction;", 0],
      ['src/modules/bids/bids.service.ts', "export const s = 'begin';", 1],
      ['src/db/probe.ts', "export const s = [{ text: 'begin' }]; export const f = (em: any) => em.getConnection().getKnex();", 0],
      ['src/modules/lots/probe.ts', "import { inTransaction } from '../../core/transaction';\nexport const f = inTransaction;\nexport const s = 'the beginning, committed';", 0],
    ];
    expect(restricted(probes.map(([file, code]) => [file, code]))).toEqual(probes.map((p) => p[2]));
  });
});
