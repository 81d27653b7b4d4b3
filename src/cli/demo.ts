// `npm run demo -- [--base URL]`: fills a running service with a small marketplace through its
// public REST interface, and prints where to look and one signed request to try.
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { readMasterKeypair } from '../auth/master';
import { holdLock } from '../instance-lock';
import { Api } from './api';
import { createCast, newCast } from './demo-cast';
import { earlierMarketplace, keyFilesIn, platformOfKeys, type Marketplace } from './demo-earlier';
import { createLots } from './demo-lots';
import { DEMO_RESERVE, setDemoRules } from './demo-rules';
import { amountAbove, closeSold, trade } from './demo-trading';
import { keyFileIn, keysDir, setAside, writeKeyFile } from './keys';
import { expectStatus } from './resources';
import { out, runCommand, UsageError, userFolder } from './run';
import { shellWord } from '../core/shell-word';

const USAGE = `usage: npm run demo -- [--base URL]

Fills a running service, through its public REST interface, with a platform (created with the
master seed) and its auction rules, its admin, two users (alice, bob), a saved search of alice's, six lots with photos,
participations with paid deposits, and bids; one lot is closed sold, its bid log signed. Each account's key (its secret seed) goes to a key file DATA_DIR/keys/NAME.key,
which npm run call signs with; secrets are never printed. A later run finds the marketplace an
earlier one made (its key files, and its platform and lots on the service) and shows it again as it
is now, creating nothing. It makes a new one where the service has none of its own (another
service, a database started afresh, a run stopped before it finished), and moves the key files it
replaces to DATA_DIR/keys/earlier-TIME/, saying so. While it runs it holds DATA_DIR/demo.pid: a
second run on the same DATA_DIR meanwhile refuses in one line naming the first one's PID.

  --base URL  the service (default http://127.0.0.1:PORT, PORT from the environment, else 8080)

The master seed is MASTER_SEED, else DATA_DIR/master.seed, where npm start keeps the one it
generates (DATA_DIR: ./.data by default).`;

function report(api: Api, defaultBase: string, made: Marketplace, keys: string, kept: boolean): void {
  const { cast, lots, bids, rulesVersion, closed } = made;
  const shown = (file: string) => {
    const relative = path.relative(userFolder(), file);
    return relative.startsWith('..') ? file : relative;
  };
  out(kept ? `Demo marketplace on ${api.base}, made by an earlier run and shown as it is now: nothing was created, the key files are unchanged` : `Demo marketplace on ${api.base}`);
  out('');
  out('Accounts (each signs with its key file; keep them private):');
  for (const who of [cast.platform, cast.admin, cast.alice, cast.bob]) {
    out(`  ${who.name.padEnd(9)} ${who.label.padEnd(14)} ${who.keypair.publicKey()}  ${shown(keyFileIn(keys, who.name))}`);
  }
  out('');
  out('Lots:');
  for (const lot of lots) {
    const { vehicle } = lot;
    const onLot = bids.filter((b) => b.lot === lot);
    const state = vehicle.auction
      ? onLot.length
        ? `auction, ${onLot.length} bids, highest ${onLot[onLot.length - 1].amount}${lot === closed ? ', closed sold' : ''}`
        : `auction from ${Number(vehicle.price).toFixed(2)}`
      : `direct sale at ${Number(vehicle.price).toFixed(2)}`;
    out(`  #${lot.id.padEnd(5)} ${`${vehicle.year} ${vehicle.maker} ${vehicle.model}`.padEnd(34)} ${vehicle.currency} ${state}`);
  }
  out('');
  out(`Platform rules (version ${rulesVersion}, docs/auction-rules.md): increment table 50 / 100 / 250 by price band, soft close`);
  out('  (a bid in the last 2 minutes moves the end to 2 minutes after it, up to 10 times), buyer\'s fee by price band,');
  out('  buying power of 25 × paid deposits.');
  const reserved = lots.find((l) => l.vehicle === DEMO_RESERVE.vehicle);
  if (reserved) out(`Reserve price:      lot #${reserved.id} has a hidden reserve of ${Number(DEMO_RESERVE.reservePrice).toFixed(2)} ${reserved.vehicle.currency}: everyone sees reserve_met, staff see reserve_price.`);
  const busiest = bids[0].lot;
  const next = bids.filter((b) => b.lot === busiest);
  const leader = next[next.length - 1];
  const challenger = leader.bidder === cast.alice ? cast.bob : cast.alice;
  const amount = amountAbove(busiest, leader.amount, 1);
  const document = JSON.stringify({ data: { type: 'bid_requests', attributes: { lot_id: Number(busiest.id), amount } } });
  const base = api.base === defaultBase ? [] : ['--base', api.base];
  const command = ['npm', 'run', 'call', '--', ...base, '--as', shown(keyFileIn(keys, challenger.name)), 'POST', `/lots/${busiest.id}/bid_requests`, document];
  out('');
  out(`Watch a lot live:   ${api.base}/live/${busiest.id}`);
  out(`GraphQL:            ${api.base}/graphql`);
  const fee = ['npm', 'run', 'call', '--', ...base, '--unsigned', 'GET', `/lots/${busiest.id}/fee_estimate?amount=${amount}`];
  out(`Fee estimate:       ${fee.map(shellWord).join(' ')}`);
  out(`Verify a bid log:   npm run verify-bids -- ${api.base} ${closed.id}`);
  out(`Saved search:       alice's search for Toyota matched ${lots.filter((l) => l.vehicle.maker === 'Toyota').length} lots (npm run call -- --as alice GET /notifications)`);
  const power = ['npm', 'run', 'call', '--', ...base, '--as', shown(keyFileIn(keys, challenger.name)), 'GET', `/accounts/${challenger.keypair.publicKey()}/buying_power`];
  out(`Buying power:       ${power.map(shellWord).join(' ')}`);
  out(`Outbid as ${challenger.name}:${' '.repeat(9 - challenger.name.length)}${command.map(shellWord).join(' ')}`);
}

/** A new platform with its rules, accounts (their key files written), saved search, lots and bids; one lot closed sold. */
async function makeMarketplace(api: Api, master: Keypair, dir: string): Promise<Marketplace> {
  const cast = newCast();
  // Kept before any account is made: a run stopped midway, or refused, leaves no account without its key.
  for (const who of Object.values(cast)) writeKeyFile(dir, who.name, who.keypair);
  await createCast(api, master, cast);
  const staff = api.as(cast.admin.keypair);
  const rulesVersion = await setDemoRules(staff, cast.platform.keypair.publicKey());
  // Saved before the lots are put up, so that the Toyotas among them alert alice (docs/saved-searches.md).
  const search = { data: { type: 'saved_searches', attributes: { filter: { maker: 'Toyota' } } } };
  expectStatus(await api.as(cast.alice.keypair).json('POST', `/accounts/${cast.alice.keypair.publicKey()}/saved_searches`, search), 201, 'saving alice’s search');
  const lots = await createLots(staff);
  const bids = await trade(api, staff, cast, lots);
  const last = bids[bids.length - 1];
  await closeSold(staff, last.lot, last.bidder);
  return { cast, lots, bids, rulesVersion, closed: last.lot };
}

runCommand(USAGE, {}, async ({ positionals, config, base }) => {
  if (positionals.length) throw new UsageError(`unexpected ${positionals.join(' ')}`);
  const api = new Api(base);
  const ping = expectStatus(await api.json('GET', '/'), 200, 'ping');
  const masterId = (ping.body as { meta: { master_account_id: string } }).meta.master_account_id;
  const master = readMasterKeypair(config);
  if (master?.publicKey() !== masterId) {
    const found = master ? `the seed found is of ${master.publicKey()}` : 'no seed found';
    throw new UsageError(`the service's master account is ${masterId}, and ${found}: set MASTER_SEED to its seed, or DATA_DIR to the service's data directory`);
  }

  // Two runs at once would each make a marketplace, and the later one's key files replace the earlier one's.
  holdLock(config.DATA_DIR, 'demo.pid', (holder) => `another npm run demo (PID ${holder}) is filling ${path.resolve(config.DATA_DIR)} now: wait for it to end, then run npm run demo again to see what it made`);
  const dir = keysDir(config.DATA_DIR);
  const defaultBase = `http://127.0.0.1:${config.PORT}`;
  const earlier = await earlierMarketplace(api, dir);
  if (earlier) {
    report(api, defaultBase, earlier, dir, true);
    return 0;
  }
  const replaced = keyFilesIn(dir);
  const unfinished = replaced.length ? await platformOfKeys(api, dir) : null;
  const aside = replaced.length ? setAside(dir, replaced) : null;
  const made = await makeMarketplace(api, master, dir);
  report(api, defaultBase, made, dir, false);
  if (aside) {
    const files = replaced.map((name) => `${name}.key`).join(', ');
    const whose = unfinished ? `a demo not found whole on this service (its platform ${unfinished} is on it)` : 'a demo whose platform key is missing, or whose platform this service does not have';
    out('');
    out(`The key files ${files} in ${dir} were of ${whose}: they are kept in ${aside}, and the files in ${dir} now hold the keys above.`);
  }
  return 0;
});
