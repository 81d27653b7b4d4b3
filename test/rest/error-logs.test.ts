import { logger } from '../../src/core/logger';
import { inTransaction } from '../../src/core/transaction';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const execute = (sql: string) => t.orm.em.fork().getConnection().execute(sql);

describe('the log of an unexpected failure', () => {
  it('carries the stack of a database error, and not the values of its statement', async () => {
    const id = 'GLOGGEDVALUEMUSTNOTAPPEARANYWHEREINTHELOGXXXXXXXXXXXXXXXXXX';
    const error = jest.spyOn(logger, 'error');
    await execute('alter table ledger_accounts rename to ledger_accounts_away');
    try {
      const res = await t.client.get(`/ledger/accounts/${id}`);
      expect(res.status).toBe(500);
    } finally {
      await execute('alter table ledger_accounts_away rename to ledger_accounts');
    }
    const [fields, message] = error.mock.calls.at(-1) as [{ err: Record<string, string> }, string];
    expect(message).toBe('request failed');
    expect(fields.err).toMatchObject({ type: 'TableNotFoundException', message: expect.stringContaining('does not exist') });
    expect(fields.err.stack).toMatch(/^TableNotFoundException: relation "ledger_accounts" does not exist\n\s+at /);
    expect(JSON.stringify(error.mock.calls)).not.toContain(id);
    error.mockRestore();
  });

  it('carries the stack of a failed after-commit task', async () => {
    const warn = jest.spyOn(logger, 'warn');
    const answer = await inTransaction({ em: t.orm.em.fork() }, async (em, scope) => {
      scope.afterCommit(() => {
        throw new Error('the listener broke');
      });
      return em.getConnection().execute('select 1 as one');
    });
    expect(answer).toEqual([{ one: 1 }]);
    expect(warn).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'the listener broke', stack: expect.stringMatching(/^Error: the listener broke\n\s+at /) }) },
      'an after-commit task failed',
    );
    warn.mockRestore();
  });
});
