import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLog } from '../../src/cli/tlog-check';
import { logger } from '../../src/core/logger';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from './receipt.helpers';

// The operator deletes one leaf's row from the log's database and re-signs nothing: the signed
// tree still commits to the leaf, so what fails is what needs its row. The service and the
// verifier name the lost leaf, instead of a 500 or a reason about something else.
const world = appWithPlatform({ accounts: 3 });
const db = () => world.t.orm.em.fork().getConnection();
const checkpoint = () => world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });

it('names the deleted leaf in the proofs that need it, in the receipts it breaks and in verify-bids, never answering a bare 500', async () => {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  const [first, second, third] = [
    await bidForReceipt(world.t, world.accounts[0].keypair, lot.id, '1000'),
    await bidForReceipt(world.t, world.accounts[1].keypair, lot.id, '1100'),
    await bidForReceipt(world.t, world.accounts[2].keypair, lot.id, '1200'),
  ];
  const size = (await checkpoint())?.size as number;
  const logKeys = [first.signer];
  expect((await checkLog(world.t.baseUrl, { logKeys, receipt: second, lotId: lot.id })).problems).toEqual([]);

  const gone = second.entries[0].leaf_index;
  await db().execute(`delete from tlog_leaves where idx = ?`, [gone]);

  // The first leaf's proof needs the deleted one (its sibling): the service says which leaf it lacks.
  const error = jest.spyOn(logger, 'error');
  const proof = await world.t.client.get(`/log/proof/inclusion?leaf_index=${first.entries[0].leaf_index}&tree_size=${size}`);
  expect(proof.status).toBe(500);
  expect(proof.body.errors[0]).toMatchObject({ code: 'log_damaged', detail: expect.stringContaining(`lacks leaf ${gone} (deleted or lost outside the service)`) });
  // As every 5xx: the id that finds its line in the operator's log, in the body as in the header.
  expect(proof.body.errors[0].meta).toEqual({ request_id: proof.headers['x-request-id'] });
  expect(proof.headers['x-request-id']).toMatch(/\S/);
  expect(JSON.stringify(proof.body)).not.toMatch(/at .*\.(js|ts):\d+/);
  // A refusal under 500 is made without a stack (src/core/errors.ts); a 5xx keeps its own for the operator's log.
  const [fields, message] = error.mock.calls.at(-1) as [{ err: Record<string, string> }, string];
  expect(message).toBe('request failed');
  expect(fields.err.stack).toMatch(new RegExp(`^DomainError: the log's database lacks leaf ${gone} .*\n\\s+at `));
  error.mockRestore();

  const lacks = `lacks leaf ${gone} (deleted or lost outside the service)`;
  const byFirst = await checkLog(world.t.baseUrl, { logKeys, receipt: first });
  expect(byFirst.problems).toEqual([expect.stringMatching(new RegExp(`^the receipt's leaf ${first.entries[0].leaf_index} cannot be proven in the checkpoint of size ${size}: .*${lacks.replace(/[()]/g, '\\$&')}`))]);
  // Its own proof needs only its siblings: the tree still holds it, its entry is gone.
  const bySecond = await checkLog(world.t.baseUrl, { logKeys, receipt: second });
  expect(bySecond.problems).toEqual([`the receipt's leaf ${gone} is in the checkpoint, but the log no longer serves its entry: the log dropped or changed the bid`]);
  const byThird = await checkLog(world.t.baseUrl, { logKeys, receipt: third });
  expect(byThird.problems).toEqual([]);

  const run = await exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, lot.id, '--log-key', first.signer], { PATH: process.env.PATH, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tlog-deleted-')) });
  expect(run.stdout + run.stderr).toContain(lacks);
  expect(run.code).toBe(1);
});
