import { lintMessages } from './lint-probes';

// eslint.config.mjs "One way to the database": one transaction API, and the ORM's connection and
// transaction statements only in src/db.
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
    expect(lintMessages('no-restricted-syntax', probes)).toEqual(probes.map((p) => p[2]));
  });
});
