import { Client } from 'pg';
import { loggable } from '../../src/core/loggable';
import { logger } from '../../src/core/logger';
import { createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';

// Found by an outside test: a statement that outlasted DB_ANSWER_TIMEOUT (a table locked by the
// operator's psql) was logged, with its values, in "the database is out of reach": the password
// hash and its salt of a PUT /credentials. The log keeps the database's message, never the statement.
const world = appWith(async () => ({}), { DB_ANSWER_TIMEOUT: '1' });

it('keeps the statement and its values out of the log when the database does not answer in time', async () => {
  const owner = await createPlatform(world.t);
  const lock = new Client({ connectionString: world.t.config.DATABASE_URL });
  await lock.connect();
  const said: unknown[] = [];
  for (const level of ['error', 'warn', 'info'] as const) jest.spyOn(logger, level).mockImplementation(((...args: unknown[]) => said.push(args)) as never);
  try {
    await lock.query('begin');
    await lock.query('lock table credentials in share mode');
    const password = 'a secret of its owner';
    const res = await world.t.client.as(owner).put('/credentials', { data: { type: 'credentials', id: owner.publicKey(), attributes: { password } } });
    expect([res.status, res.body.errors?.[0]?.code]).toEqual([503, 'database_unavailable']);
    const log = JSON.stringify(said);
    expect(log).toContain('the database is out of reach');
    expect(log).toContain('the database did not answer within 1000 ms');
    expect(log).not.toMatch(/scrypt|insert into|password_hash/i);
    expect(log).not.toContain(owner.publicKey());
  } finally {
    await lock.query('rollback');
    await lock.end();
  }
});

it('keeps the values out of a failed statement logged whole, values holding " - " (the separator knex writes before the message) too', async () => {
  const err = await world.t.orm.em.fork().getConnection().execute(`select 1 / 0 where 'secret - one' <> ?`, ['secret - two']).catch((e: unknown) => e);
  const logged = JSON.stringify(loggable(err));
  expect(logged).toContain('division by zero');
  expect(logged).not.toContain('secret');
});
