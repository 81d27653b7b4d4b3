import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';

export interface Cluster {
  /** Each instance has its own ORM and pool over the one database, as separate processes would. */
  instances: TestApp[];
  db: TestDatabase;
  /** Statements straight to the shared database, for reading stored rows. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** Boots `count` instances of the service on one database of their own, with one master key. */
export async function startCluster(count: number, env: Record<string, string> = {}): Promise<Cluster> {
  const db = await createTestDatabase();
  const seed = Keypair.random().secret();
  const instances: TestApp[] = [];
  for (let i = 0; i < count; i++) instances.push(await startTestApp({ MASTER_SEED: seed, ...env }, db));
  const client = new Client({ connectionString: db.url });
  await client.connect();
  return {
    instances,
    db,
    query: async (text, params) => (await client.query(text, params)).rows,
    async close() {
      await client.end();
      for (const t of instances) await t.close();
      await db.drop();
    },
  };
}

/**
 * Records the order in which transactions commit, in the test's own database only: a deferred
 * trigger runs at COMMIT, and the rows it logs take numbers from one sequence. A transaction that
 * holds the lot's row lock keeps it until its commit has ended, so for writers that lock the lot
 * these numbers are their commit order; a writer that skipped the lock shows up out of order.
 * Logged: every inserted bid and second-chance offer, and every change of a lot's state or winner.
 * `query` runs a statement on the shared database.
 */
export async function logCommits(query: (text: string) => Promise<unknown>): Promise<void> {
  await query(`
    create sequence test_commit_seq;
    create table test_commits (seq bigint not null, kind text not null, ref bigint not null, lot_state int, winner_id text);
    create function test_log_commit() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'bids' then
        insert into test_commits (seq, kind, ref) values (nextval('test_commit_seq'), 'bid', new.id);
      elsif tg_table_name = 'second_chance_offers' then
        insert into test_commits (seq, kind, ref) values (nextval('test_commit_seq'), 'offer', new.id);
      else
        insert into test_commits (seq, kind, ref, lot_state, winner_id) values (nextval('test_commit_seq'), 'lot', new.id, new.lot_state, new.winner_id);
      end if;
      return null;
    end $$;
    create constraint trigger test_bid_commit after insert on bids deferrable initially deferred for each row execute function test_log_commit();
    create constraint trigger test_offer_commit after insert on second_chance_offers deferrable initially deferred for each row execute function test_log_commit();
    create constraint trigger test_lot_commit after update on lots deferrable initially deferred for each row
      when (old.lot_state is distinct from new.lot_state or old.winner_id is distinct from new.winner_id) execute function test_log_commit();
  `);
}

/** Round-robin: the i-th request goes to instance i mod n. */
export const instanceFor = (cluster: Cluster, i: number): TestApp => cluster.instances[i % cluster.instances.length];

/** A cluster that logs its commits, with a platform and `count` users of it, made through its first instance. */
export async function clusterWithAccounts(instances: number, count: number): Promise<{ cluster: Cluster; platform: Keypair; accounts: CreatedAccount[] }> {
  const cluster = await startCluster(instances);
  await logCommits((text) => cluster.query(text));
  const t = cluster.instances[0];
  const platform = await createPlatform(t);
  const accounts = await Promise.all(Array.from({ length: count }, () => createAccount(t, platform)));
  return { cluster, platform, accounts };
}
