import type { MikroORM } from '@mikro-orm/postgresql';
import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/modules';
import { cosignatureLine, witnessVkey } from '../../src/modules/bidlog/tlog.cosign';
import { parseNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { startTestApp, type TestApp } from '../helpers/app';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../helpers/db';

// GET /log/checkpoint?cosignatures=N&anchored=… is public and checkpoints are kept forever (one
// every 2 s while bids arrive): its answer comes from one row of `tlog_witnessed`, not from a walk
// back through every checkpoint that falls short (docs/bid-log.md, "Witnesses").
const WITNESSED = 'Migration20261129100000TlogWitnessed';
const witness = Keypair.random();
const W = 'w.example.org';
const SHORT_OF_IT = 20_000;

describe('the newest checkpoint witnessed, after an upgrade', () => {
  let db: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    db = await createEmptyDatabase();
    orm = await openDatabase(db.url);
    await orm.getMigrator().up({ to: MIGRATIONS[MIGRATIONS.findIndex((m) => m.name === WITNESSED) - 1].name });
  });
  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  it('is found for each count of co-signatures, anchored or not, from the checkpoints and co-signatures kept', async () => {
    const conn = orm.em.getConnection();
    // 1, 3 and 5 anchored, 8 not; 3 co-signed by two witnesses, 5 and 8 by one.
    await conn.execute(`insert into tlog_checkpoints (size, root, note, signer, anchor_tx) values
                          (1, '\\x00', '', 'A', 'tx1'), (3, '\\x00', '', 'A', 'tx1'), (5, '\\x00', '', 'A', 'tx2'), (8, '\\x00', '', 'A', null)`);
    await conn.execute(`insert into tlog_cosignatures (size, witness, key_id, signed_at, line) values
                          (3, 'w1', '\\x00', 1, ''), (3, 'w2', '\\x00', 1, ''), (5, 'w1', '\\x00', 1, ''), (8, 'w2', '\\x00', 1, '')`);
    await orm.getMigrator().up({ to: WITNESSED });
    const rows = await conn.execute(`select anchored, cosignatures, size::int from tlog_witnessed order by anchored, cosignatures`, [], 'all');
    expect(rows).toEqual([
      { anchored: false, cosignatures: 1, size: 8 },
      { anchored: false, cosignatures: 2, size: 3 },
      { anchored: true, cosignatures: 0, size: 5 },
      { anchored: true, cosignatures: 1, size: 5 },
      { anchored: true, cosignatures: 2, size: 3 },
    ]);
  });
});

describe(`the newest checkpoint witnessed, behind ${SHORT_OF_IT} newer ones that are not`, () => {
  let db: TestDatabase;
  let t: TestApp;
  let stats: Client;
  let cosigned: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestApp({ LOG_WITNESSES: witnessVkey(W, witness) }, db);
    const first = await t.client.get('/log/checkpoint');
    expect(first.status).toBe(200);
    cosigned = first.body.data.attributes.size;
    const { body } = parseNote(first.body.data.attributes.note) as ParsedNote;
    const posted = await t.client.post('/log/cosign', { data: { type: 'cosignatures', attributes: { note: `${body}\n${cosignatureLine(W, witness, body, Math.floor(Date.now() / 1000))}` } } });
    expect(posted.status).toBe(200);
    stats = new Client({ connectionString: db.url });
    await stats.connect();
    // Newer checkpoints, neither co-signed nor anchored: what a search from the newest would walk through.
    await stats.query(`insert into tlog_checkpoints (size, root, note, signer)
                       select 1000000 + g, sha256(g::text::bytea), 'seeded', 'seeded' from generate_series(1, ${SHORT_OF_IT}) g`);
  }, 60_000);
  afterAll(async () => {
    await stats?.end();
    await t?.close();
    await db?.drop();
  });

  it('is the co-signed one, and none is both co-signed twice or anchored', async () => {
    const once = await t.client.get('/log/checkpoint?cosignatures=1');
    expect([once.status, once.body.data?.attributes.size]).toEqual([200, cosigned]);
    for (const query of ['cosignatures=2', 'anchored=true', 'anchored=true&cosignatures=1']) {
      const none = await t.client.get(`/log/checkpoint?${query}`);
      expect([query, none.status, none.body.errors?.[0]?.code]).toEqual([query, 404, 'checkpoint_not_found']);
    }
  });

  it('follows co-signatures and anchors whoever writes them, an instance of an earlier release too', async () => {
    // Written as a release before the table wrote them, straight into the tables.
    const [older, newer] = [1_000_400, 1_000_500];
    await stats.query(`insert into tlog_cosignatures (size, witness, key_id, signed_at, line) values ($1, 'a', '\\x00', 1, ''), ($1, 'b', '\\x00', 1, ''), ($2, 'a', '\\x00', 1, '')`, [older, newer]);
    await stats.query(`update tlog_checkpoints set anchor_tx = 'tx' where size = $1`, [older]);
    const answers: Record<string, unknown> = {};
    for (const query of ['cosignatures=1', 'cosignatures=2', 'cosignatures=3', 'anchored=true', 'anchored=true&cosignatures=2']) {
      const res = await t.client.get(`/log/checkpoint?${query}`);
      answers[query] = res.status === 200 ? Number(res.body.data.attributes.size) : res.body.errors[0].detail;
    }
    expect(answers).toEqual({
      'cosignatures=1': newer,
      'cosignatures=2': older,
      'cosignatures=3': 'no checkpoint is co-signed by 3 witnesses yet',
      'anchored=true': older,
      'anchored=true&cosignatures=2': older,
    });
  });

  it('counts the co-signatures that arrive after the anchor among the anchored checkpoint\'s', async () => {
    const size = 1_000_600;
    await stats.query(`update tlog_checkpoints set anchor_tx = 'tx' where size = $1`, [size]);
    const before = await t.client.get('/log/checkpoint?anchored=true&cosignatures=3');
    expect([before.status, before.body.errors?.[0]?.code]).toEqual([404, 'checkpoint_not_found']);
    await stats.query(`insert into tlog_cosignatures (size, witness, key_id, signed_at, line) values ($1, 'a', '\\x00', 1, ''), ($1, 'b', '\\x00', 1, ''), ($1, 'c', '\\x00', 1, '')`, [size]);
    for (const query of ['anchored=true', 'cosignatures=3', 'anchored=true&cosignatures=3']) {
      const res = await t.client.get(`/log/checkpoint?${query}`);
      expect([query, res.status, Number(res.body.data?.attributes.size)]).toEqual([query, 200, size]);
    }
  });

  /** Rows each table gave to scans, and scans made, as the server's statistics count them. */
  const read = async () => {
    const { rows } = await stats.query<{ relname: string; rows: string; scans: string }>(
      `select relname, coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) as rows, coalesce(idx_scan, 0) + coalesce(seq_scan, 0) as scans
         from pg_stat_user_tables where relname in ('tlog_checkpoints', 'tlog_cosignatures', 'tlog_witnessed')`,
    );
    return Object.fromEntries(rows.map((r) => [r.relname, { rows: Number(r.rows), scans: Number(r.scans) }]));
  };

  it('reads a row or two for each question, not the checkpoints that fall short', async () => {
    const before = await read();
    const questions = ['cosignatures=1', 'cosignatures=2', 'anchored=true', 'anchored=true&cosignatures=1'];
    for (const query of questions) expect((await t.client.get(`/log/checkpoint?${query}`)).status).toBeLessThan(500);
    // A server process hands its counts to the statistics about a second after its statement,
    // when idle: wait until the lookups (or a walk through the co-signatures) show.
    let after = await read();
    for (let i = 0; i < 200 && after.tlog_witnessed.scans < before.tlog_witnessed.scans + questions.length && after.tlog_cosignatures.scans < before.tlog_cosignatures.scans + SHORT_OF_IT; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await read();
    }
    expect(after.tlog_checkpoints.rows - before.tlog_checkpoints.rows).toBeLessThan(100);
    expect(after.tlog_cosignatures.scans - before.tlog_cosignatures.scans).toBeLessThan(100);
    // And the counts did come in: the lookups are there.
    expect(after.tlog_witnessed.scans).toBeGreaterThanOrEqual(before.tlog_witnessed.scans + questions.length);
  }, 40_000);
});
