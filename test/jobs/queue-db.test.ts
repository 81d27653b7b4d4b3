import { QueueDb } from '../../src/jobs/queue-db';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("the job queue's connections", () => {
  it('answer every query still waiting for a connection when they close, and only then end', async () => {
    const errors: Error[] = [];
    const queue = new QueueDb(db.url, 1, (err) => errors.push(err));
    // One connection: the first query runs and the three others wait for it as close begins.
    const queries = [1, 2, 3, 4].map((n) => queue.executeSql('select $1::int as n, pg_sleep(0.05)', [n]));
    const closed = queue.close();
    const answers = await Promise.all(queries);
    expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3, 4]);
    await closed;
    await expect(queue.executeSql('select 1', [])).rejects.toThrow(/after calling end/);
    expect(errors).toEqual([]);
  });

});
