import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { AnyReceipt } from '../../src/modules/bidlog/tlog.receipt';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { FREE_LOT } from '../trading/trading.helpers';
import { asTestApp, startServiceProcess, type ServiceProcess } from '../faults/service-process';

// A rotation of the log's key (LOG_KEY_REPLACES, docs/bid-log.md "The log's key") between two
// service processes on one database, each with its job queue: once the new-key process started,
// the old-key one refuses bids with 503 log_key_replaced, says so on /readyz, and signs no receipt
// nor checkpoint with the replaced key; the `tlog_signs` check of the database is what stops it.
const master = Keypair.random();
const oldKey = Keypair.random();
const newKey = Keypair.random();
let db: TestDatabase;
let sql: Client;
const processes: ServiceProcess[] = [];

async function service(key: Keypair, replaces?: Keypair): Promise<ServiceProcess> {
  const p = await startServiceProcess({
    DATABASE_URL: db.url,
    MASTER_SEED: master.secret(),
    LOG_SIGNING_SEED: key.secret(),
    ...(replaces ? { LOG_KEY_REPLACES: replaces.publicKey() } : {}),
    JOBS: 'on',
    JOBS_POLL_SECONDS: '0.5',
    CHECKPOINT_SECONDS: '0.5',
  });
  processes.push(p);
  return p;
}

const asApp = (p: ServiceProcess) => asTestApp(p, master);

beforeAll(async () => {
  db = await createTestDatabase();
  sql = new Client({ connectionString: db.url });
  await sql.connect();
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await sql?.end();
  await db?.drop();
});

const receiptOf = (res: { headers: Record<string, unknown> }) => JSON.parse(Buffer.from(res.headers['bid-receipt'] as string, 'base64').toString('utf8')) as AnyReceipt;

it('the old-key process refuses bids with log_key_replaced once the new-key one started, is not ready, and signs nothing more', async () => {
  const old = await service(oldKey);
  const platform = await createPlatform(asApp(old));
  const bidder = await createAccount(asApp(old), platform);
  const created = await old.client.as(platform).post('/lots', { data: { type: 'lots', attributes: FREE_LOT } });
  expect(created.status).toBe(204);
  const [{ id: lot }] = (await sql.query<{ id: string }>('select id::text from lots where organizer_id = $1', [platform.publicKey()])).rows;
  await sql.query(`insert into participants (lot_id, account_id, state) values ($1, $2, ${ParticipantState.Pending})`, [lot, bidder.id]);
  const bid = (p: ServiceProcess, amount: string) => p.client.as(bidder.keypair).post(`/lots/${lot}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });

  const first = await bid(old, '1000');
  expect(first.status).toBe(204);
  expect(receiptOf(first).signer).toBe(oldKey.publicKey());

  const rotated = await service(newKey, oldKey);
  const [{ since }] = (await sql.query<{ since: Date }>('select since from tlog_keys where public_key = $1', [newKey.publicKey()])).rows;

  const refused = await bid(old, '1100');
  expect({ status: refused.status, code: refused.body?.errors?.[0]?.code, receipt: refused.headers['bid-receipt'] }).toEqual({ status: 503, code: 'log_key_replaced', receipt: undefined });
  expect((await bid(old, '1100')).body?.errors?.[0]?.code).toBe('log_key_replaced');
  const ready = await old.client.get('/readyz');
  expect({ status: ready.status, body: ready.body }).toEqual({ status: 503, body: { status: 'bid log key replaced: restart with the log key' } });

  const accepted = await bid(rotated, '1100');
  expect(accepted.status).toBe(204);
  expect(receiptOf(accepted).signer).toBe(newKey.publicKey());
  // Both processes' checkpoint jobs run meanwhile (every 0.5 s): only the new key's signs.
  await new Promise((r) => setTimeout(r, 3000));
  const signers = (await sql.query<{ signer: string }>('select signer from tlog_checkpoints where created_at >= $1', [since])).rows.map((r) => r.signer);
  expect(signers.length).toBeGreaterThan(0);
  expect(new Set(signers)).toEqual(new Set([newKey.publicKey()]));
  const amounts = (await sql.query<{ amount: string }>('select amount::text from bids where lot_id = $1 order by id', [lot])).rows.map((r) => r.amount);
  expect(amounts).toEqual(['1000.00', '1100.00']);
  // The old process said so in one line, whatever it refused since.
  const said = old.output().split('\n').filter((l) => l.includes(`"msg":"the bid log's key was replaced by ${newKey.publicKey()}`));
  expect(said).toHaveLength(1);
}, 120_000);
