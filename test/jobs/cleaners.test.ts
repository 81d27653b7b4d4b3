import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOT_QUEUES } from '../../src/modules/lots';
import { StoredDocument } from '../../src/modules/documents/documents.entity';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { Deposit, DepositState, Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp } from '../helpers/app';
import { createTestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { depositOf, join, setDeposit } from '../trading/trading.helpers';
import { uploadedId } from '../documents/documents.helpers';
import { JOBS_ENV, waitFor } from './jobs.helpers';

const HOUR = 3_600_000;

it('the cleaners reject late deposits, return deposits, delete expired tokens, documents and signature records, and schedule missed lot clocks', async () => {
  const db = await createTestDatabase();
  // Made while no queue runs: these lots get no jobs at creation.
  const off = await startTestApp({}, db);
  const platform = await createPlatform(off);
  const [late, recent, rejected, user] = [
    await createAccount(off, platform),
    await createAccount(off, platform),
    await createAccount(off, platform),
    await createAccount(off, platform),
  ];
  const endedLong = await createLot(off, platform, ENG_LOT);
  const endedRecently = await createLot(off, platform, ENG_LOT);
  const lateP = await join(off, late.keypair, endedLong.id);
  const recentP = await join(off, recent.keypair, endedRecently.id);
  const rejectedP = await join(off, rejected.keypair, endedRecently.id);
  expect((await off.client.as(platform).delete(`/v2/lots/${endedRecently.id}/participants/${rejected.id}`)).status).toBe(204);
  // paid after the rejection: nothing returns it but the cleaner
  expect((await setDeposit(off, platform, (await depositOf(off, rejectedP)).id, 'paid')).status).toBe(200);
  const em = off.orm.em.fork();
  await em.nativeUpdate(Lot, { id: endedLong.id }, { endTime: new Date(Date.now() - 25 * HOUR) });
  await em.nativeUpdate(Lot, { id: endedRecently.id }, { endTime: new Date(Date.now() - 23 * HOUR) });
  const eng = await createLot(off, platform, ENG_LOT);
  const sale = await createLot(off, platform, DIRECT_SALE);
  const external = await createLot(off, platform, ENG_LOT);
  await em.nativeUpdate(Lot, { id: external.id }, { lotType: LotType.PartnerA });
  const conn = em.getConnection();
  await conn.execute(`update verification_tokens set expires_at = now() - interval '1 second' where account_id = ?`, [late.id]);
  await conn.execute(`insert into seen_signatures (digest, expires_at) values ('\\x01', now() - interval '1 second'), ('\\x02', now() + interval '1 hour')`);
  await conn.execute(`insert into recovery_requests (account_id, token_hash, expires_at) values (?, '\\x00', now() - interval '1 second'), (?, '\\x00', now() + interval '1 hour')`, [late.id, user.id]);
  await off.close();

  // One data directory, as instances share one document store.
  const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'auction-cleaners-'));
  const a = await startTestApp({ ...JOBS_ENV, CLEANUP_INTERVAL_SECONDS: '1', DATA_DIR }, db);
  const b = await startTestApp({ ...JOBS_ENV, CLEANUP_INTERVAL_SECONDS: '1', DATA_DIR, MASTER_SEED: a.master.secret() }, db);
  try {
    const expired = await uploadedId(a, user.keypair, { attributes: { document_type: 'public', expires: '1d' } });
    const kept = await uploadedId(a, user.keypair, { attributes: { document_type: 'public', expires: '1d' } });
    await a.orm.em.fork().nativeUpdate(StoredDocument, { id: expired }, { expiresAt: new Date(Date.now() - 1000) });
    const read = a.orm.em.fork();
    const stateOf = async (p: Participant) => (await read.fork().findOneOrFail(Participant, { id: p.id })).state;
    const depositStateOf = async (p: Participant) => (await read.fork().findOneOrFail(Deposit, { participantId: p.id })).state;
    const keys = async (queue: string) =>
      (await read.getConnection().execute<{ k: string }[]>(`select singleton_key as k from pgboss.job where name = ? and state = 'created' order by 1`, [queue])).map((r) => r.k);
    const tokens = async (table: string, accountId: string) =>
      Number((await read.getConnection().execute<{ n: string }[]>(`select count(*) as n from ${table} where account_id = ?`, [accountId]))[0].n);

    await waitFor('the cleaners', async () => (await stateOf(lateP)) === ParticipantState.Rejected && (await depositStateOf(rejectedP)) === DepositState.Returned && (await keys(LOT_QUEUES.ended)).length > 0);
    expect(await stateOf(recentP)).toBe(ParticipantState.DepositPending);
    expect(await depositStateOf(lateP)).toBe(DepositState.Pending);
    expect(await tokens('verification_tokens', late.id)).toBe(0);
    expect(await tokens('verification_tokens', user.id)).toBe(1);
    const seen = await read.getConnection().execute<{ d: string }[]>(`select encode(digest, 'hex') as d from seen_signatures where digest in ('\\x01', '\\x02')`);
    expect(seen.map((r) => r.d)).toEqual(['02']);
    expect(await tokens('recovery_requests', late.id)).toBe(0);
    expect(await tokens('recovery_requests', user.id)).toBe(1);
    await waitFor('the expired document', async () => (await read.fork().count(StoredDocument, { id: expired })) === 0);
    expect(existsSync(path.join(DATA_DIR, 'documents', expired))).toBe(false);
    expect(existsSync(path.join(DATA_DIR, 'documents', kept))).toBe(true);
    const key = (lot: Lot) => `${lot.id}@${lot.endTime.getTime()}`;
    expect(await keys(LOT_QUEUES.finishing)).toEqual([key(eng), key(sale)].sort());
    expect(await keys(LOT_QUEUES.ended)).toEqual([key(eng)]);
    // Runs on either instance keep one waiting cleanup at a time.
    expect(await keys('cleanup')).toEqual(['cleanup']);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await db.drop();
  }
}, 60_000);
