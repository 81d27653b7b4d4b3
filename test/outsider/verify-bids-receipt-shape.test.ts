import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

/**
 * `verify-bids --receipt FILE` took any JSON for a receipt. A bidder who saved GraphQL's
 * `receipt { … }` object (camelCase: leafIndex, leafHash) rather than its `encoded` value, or the
 * whole GraphQL answer, got "failed: TypeError …" and a stack trace, the CLI's sign of a bug,
 * instead of a usage error saying what the file must hold.
 */
const world = appWithPlatform({ accounts: 1 });

async function graphqlReceipt(): Promise<Record<string, unknown>> {
  const [bidder] = world.accounts;
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  await join(world.t, bidder.keypair, lot.id);
  const res = await world.t.client.graphql(
    'mutation ($lot: ID!) { placeBid(lotId: $lot, amount: "1000") { receipt { origin logId timestamp entries { leafIndex leafHash } signer signature encoded } } }',
    { lot: lot.id },
    { bearer: await bearerFor(world.t, bidder.id) },
  );
  expect(res.body.errors).toBeUndefined();
  await world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
  return res.body.data.placeBid.receipt;
}

it.each([
  ["GraphQL's receipt object, camelCase", (r: Record<string, unknown>) => r],
  ['the whole GraphQL answer', (r: Record<string, unknown>) => ({ data: { placeBid: { receipt: r } } })],
])('refuses as a usage error a --receipt file that holds no receipt: %s', async (_name, shape) => {
  const receipt = await graphqlReceipt();
  const dir = mkdtempSync(path.join(tmpdir(), 'receipt-shape-'));
  const file = path.join(dir, 'receipt.json');
  writeFileSync(file, JSON.stringify(shape(receipt)));
  const run = await exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, '--receipt', file, '--log-key', receipt.signer as string], { PATH: process.env.PATH, DATA_DIR: dir });
  expect(run.stderr).not.toMatch(/^failed:/m);
  expect(run.stderr).toMatch(/^--receipt: the file holds no receipt/m);
  expect(run.code).toBe(2);
});

// A receipt's version says which fields its signature covers: one of a version this verifier does
// not know, or of version 3 without its batch, read as version 1 dropped the rest and checked it so.
it.each([
  ['an unknown version', (r: Record<string, unknown>) => ({ ...r, version: 4 }), /^--receipt: the receipt's version 4 is none this verifier knows/m],
  ['a version written as a string', (r: Record<string, unknown>) => ({ ...r, version: '3' }), /^--receipt: the receipt's version "3" is none this verifier knows/m],
  ['version 3 without its batch', ({ batch: _, ...r }: Record<string, unknown>) => r, /^--receipt: the file holds no receipt/m],
  ['version 1 named', ({ batch: _, ...r }: Record<string, unknown>) => ({ ...r, version: 1 }), /^--receipt: a receipt of version 1 names no version/m],
])('refuses as a usage error a receipt of %s', async (_name, change, message) => {
  const { encoded } = await graphqlReceipt();
  const receipt = JSON.parse(Buffer.from(encoded as string, 'base64').toString('utf8')) as Record<string, unknown>;
  expect(receipt.version).toBe(3);
  const dir = mkdtempSync(path.join(tmpdir(), 'receipt-version-'));
  const file = path.join(dir, 'receipt.json');
  writeFileSync(file, JSON.stringify(change(receipt)));
  const run = await exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, '--receipt', file, '--log-key', receipt.signer as string], { PATH: process.env.PATH, DATA_DIR: dir });
  expect(run.stderr).toMatch(message);
  expect(run.code).toBe(2);
});
