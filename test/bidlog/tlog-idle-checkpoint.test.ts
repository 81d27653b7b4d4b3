import { Client } from 'pg';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from './receipt.helpers';

// The checkpoint job runs every CHECKPOINT_SECONDS. With no leaf waiting for its index it must not
// take the log's counter row: a bid round that finds the row taken skips numbering its own leaves,
// and its request then waits for the sequencer's transaction. Nor does an idle run write the
// counter or the tree's row (a new row version every two seconds, for nothing).
let holder: Client;
// Declared before the world's, so run before it drops the database under this connection.
afterAll(() => holder?.end());
const world = appWithPlatform({ accounts: 1 });

beforeAll(async () => {
  holder = new Client({ connectionString: world.t.config.DATABASE_URL });
  await holder.connect();
});

const checkpointNow = () => world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
const versions = async () => (await holder.query(`select (select xmin::text from tlog_size) as size, (select xmin::text from tlog_tree) as tree`)).rows[0];

it('checkpoints an idle log without waiting for the counter row nor writing it', async () => {
  const { t, platform } = world;
  const [a] = world.accounts;
  const lot = await createLot(t, platform, FREE_LOT);
  await join(t, a.keypair, lot.id);
  await bidForReceipt(t, a.keypair, lot.id, '1000');
  // The bid's round numbered its leaf; the first run checkpoints it, the second finds nothing to do.
  expect((await checkpointNow())?.size).toBe(1);
  const before = await versions();

  const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  const waitsForHolder = async () =>
    (await holder.query<{ waits: boolean }>('select exists (select from pg_stat_activity where $1 = any(pg_blocking_pids(pid))) as waits', [holderPid])).rows[0].waits;
  await holder.query('begin');
  await holder.query('select from tlog_size for update');
  const run = checkpointNow();
  let ran = false;
  let waited = false;
  run.then(
    () => (ran = true),
    () => (ran = true),
  );
  try {
    // Until the run ends, or waits for the counter row (which it would until the rollback below).
    while (!ran && !(waited = await waitsForHolder())) await new Promise((r) => setTimeout(r, 20));
  } finally {
    await holder.query('rollback');
  }
  expect(waited).toBe(false);
  await expect(run).resolves.toBeNull();
  expect(await versions()).toEqual(before);
});

it('still numbers a leaf left waiting (its request ended before the sequencer answered)', async () => {
  await holder.query('update tlog_leaves set idx = null where idx = (select max(idx) from tlog_leaves)');
  await holder.query('update tlog_size set size = size - 1');
  await holder.query('update tlog_tree set integrated = least(integrated, (select size from tlog_size))');
  await checkpointNow();
  const { rows } = await holder.query('select count(*)::int as waiting from tlog_leaves where idx is null');
  expect(rows[0].waiting).toBe(0);
});
