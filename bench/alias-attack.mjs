// The alias attack, rerun: two anonymous POST /graphql at once, each 1,000 aliases of
// a page of 100 lots with seven relations, while GET / is sampled every 20 ms and the server's
// resident memory every 100 ms. Prints p99 of GET / and the peak RSS against the goals.
//
//   npm run bench:alias-attack
//   ALIAS_ATTACK_ALIASES=1000   aliases per request
//   ALIAS_ATTACK_LOTS=300       lots seeded (each with bids and participants)
//   ALIAS_ATTACK_MAX_COST=…     GRAPHQL_MAX_COST of the service (default: the service's own default);
//                               a huge value shows the attack without the limit (minutes, gigabytes)
//
// The service runs as a child process (bench/service.mjs) on a database of its own (bench/db.mjs).
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { freshDatabase } from './db.mjs';
import { httpCaller, sampleRoot } from './root-probe.mjs';
import { startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');

const ALIASES = Number(process.env.ALIAS_ATTACK_ALIASES ?? 1000);
const LOTS = Number(process.env.ALIAS_ATTACK_LOTS ?? 300);
const GOAL_P99_MS = 50;
const GOAL_RSS_MB = 1024;
const BASELINE_MS = 5000;
const ONE = 'lots(first: 100) { nodes { organizer { id } bids { amount } participants { id } deposits { id } callbacks { id } stars { createdAt } winnerDetails { feeAmount } } }';

async function seed(url) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const platform = Keypair.random().publicKey();
    const users = Array.from({ length: 20 }, () => Keypair.random().publicKey());
    await client.query('insert into accounts (id, account_type, platform_id, email_verified, phone_verified) values ($1, 2, $1, true, true)', [platform]);
    await client.query(`insert into accounts (id, account_type, platform_id, email_verified, phone_verified) select id, 0, $2, true, true from unnest($1::text[]) as id`, [users, platform]);
    const now = Date.now();
    const { rows } = await client.query(
      `insert into lots (lot_type, lot_state, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time,
                         organizer_id, publisher_id, details, created_at, updated_at)
       select 1, 1, 'USD', 1000, 0, 0, 50, 1000, $2::timestamptz, 86400, $3::timestamptz, $1, $1, '{"lot_name":"bench"}'::jsonb, now(), now()
       from generate_series(1, $4) returning id`,
      [platform, new Date(now - 3600_000), new Date(now + 86400_000), LOTS],
    );
    for (const { id } of rows) {
      const participants = await client.query(
        `insert into participants (lot_id, account_id, state) select $1, u, 0 from unnest($2::text[]) as u returning id`,
        [id, users.slice(0, 5)],
      );
      await client.query(
        `insert into bids (lot_id, participant_id, account_id, amount) select $1, $2, $3, 1000 + 50 * g from generate_series(1, 5) as g`,
        [id, participants.rows[0].id, users[0]],
      );
    }
  } finally {
    await client.end();
  }
}

const call = httpCaller({ maxSockets: 4, timeoutMs: 10000 });

const sample = (port, pid, done, minMs) => sampleRoot(call, port, pid, done, minMs);

async function main() {
  const db = await freshDatabase('alias_attack');
  const env = process.env.ALIAS_ATTACK_MAX_COST ? { GRAPHQL_MAX_COST: process.env.ALIAS_ATTACK_MAX_COST } : {};
  const service = await startService(db.url, env);
  try {
    await seed(db.url);
    const body = JSON.stringify({ query: `{ ${Array.from({ length: ALIASES }, (_, i) => `a${i}: ${ONE}`).join(' ')} }` });
    const baseline = await sample(service.port, service.pid, Promise.resolve(), BASELINE_MS);
    const attack = Promise.all([call(service.port, 'POST', '/graphql', body), call(service.port, 'POST', '/graphql', body)]);
    const under = await sample(service.port, service.pid, attack, BASELINE_MS);
    const answers = await attack;
    const mark = (ok) => (ok ? '✓' : '✗');
    const fmt = (s) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms, ${s.failed}/${s.checks} failed, RSS peak ${s.rssPeakMb.toFixed(0)} MB`;
    console.log(`alias attack: 2 × ${ALIASES} aliases (${(body.length / 1024).toFixed(0)} KB each), ${LOTS} lots, database ${db.kind}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const a of answers) console.log(`  attack request: status ${a.status}, ${a.ms.toFixed(0)} ms, ${a.bytes ?? 0} bytes${a.error ? ` (${a.error})` : ''}`);
    console.log(`  GET / before the attack (baseline): ${fmt(baseline)}`);
    console.log(`  GET / during the attack:            ${fmt(under)}`);
    const ok = under.p99 <= GOAL_P99_MS && under.failed === 0 && under.rssPeakMb < GOAL_RSS_MB;
    console.log(`  ${mark(under.p99 <= GOAL_P99_MS && under.failed === 0)} GET / p99 ${under.p99.toFixed(1)} ms (goal ≤ ${GOAL_P99_MS} ms, no failures); ratio to baseline p99 ${(under.p99 / baseline.p99).toFixed(2)}`);
    console.log(`  ${mark(under.rssPeakMb < GOAL_RSS_MB)} RSS peak ${under.rssPeakMb.toFixed(0)} MB (goal < ${GOAL_RSS_MB} MB)`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await service.stop();
    await db.drop();
  }
}

await main();
