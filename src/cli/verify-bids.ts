// `npm run verify-bids -- URL LOT [--signer KEY] [--digest HEX | --request 'METHOD TARGET' [--body FILE]] [--as KEYFILE]`:
// checks a lot's bid log from the outside, trusting nothing the service says but the master key.
import { readFileSync } from 'node:fs';
import { bearerRequestDigestOf } from '../modules/bidlog';
import { fetchAndVerifyBidLog } from './bid-log';
import { keyFileOf, keysDir, readKeyFile } from './keys';
import { out, runCommand, UsageError } from './run';

const USAGE = `usage: npm run verify-bids -- URL LOT [--signer KEY] [--digest HEX | --request 'METHOD TARGET' [--body FILE]] [--as KEYFILE]

Fetches GET URL/lots/LOT/bid_log and GET URL/lots/LOT and checks every hash of the chain, the
master key's signature of its head (once the lot closed), and that the lot's highest_bid and
winner are the chain's. Exit code 0 when everything holds, 1 otherwise, 2 for usage errors.

  --signer KEY  the master public key (G…) to trust; default: the one the log names (reported)
  --digest HEX  prove that the bid placed by your request is in the chain: for a signed request the
                SHA-256 of its signature, for one sent with a bearer token that of its method,
                target and body (docs/bid-log.md)
  --request 'METHOD TARGET'
                the request you sent with a bearer token (e.g. 'POST /lots/7/bid_requests'): its
                digest is computed with the bytes of --body FILE (none: an empty body) and proved
  --as KEYFILE  sign the requests (a key file, or a name npm run demo wrote), to see your own entries opened`;

/** The digest to prove: given, or computed from a bearer request as the service computes it. */
function digestOf(values: Record<string, unknown>): string | undefined {
  if (typeof values.request !== 'string') {
    if (values.body !== undefined) throw new UsageError('--body goes with --request');
    return typeof values.digest === 'string' ? values.digest : undefined;
  }
  if (values.digest !== undefined) throw new UsageError('--digest and --request exclude each other');
  const [method, target, ...rest] = values.request.trim().split(/\s+/);
  if (!method || !target?.startsWith('/') || rest.length) throw new UsageError("--request must be 'METHOD TARGET', the target starting with /");
  let body: Buffer | null = null;
  if (typeof values.body === 'string') {
    try {
      body = readFileSync(values.body);
    } catch (e) {
      throw new UsageError(`--body: ${(e as Error).message}`);
    }
  }
  return bearerRequestDigestOf(method, target, body);
}

runCommand(USAGE, { signer: { type: 'string' }, digest: { type: 'string' }, request: { type: 'string' }, body: { type: 'string' }, as: { type: 'string' } }, async ({ values, positionals, config }) => {
  const [url = '', lot = '', ...rest] = positionals;
  if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError('URL must be http(s)://host[:port]');
  if (!/^\d+$/.test(lot)) throw new UsageError('LOT must be a lot id');
  if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
  const keypair = typeof values.as === 'string' ? readKeyFile(keyFileOf(values.as, keysDir(config.DATA_DIR))) : null;
  const signer = typeof values.signer === 'string' ? values.signer : undefined;
  const requestDigest = digestOf(values);
  const result = await fetchAndVerifyBidLog(url.replace(/\/$/, ''), lot, { signer, requestDigest }, keypair);
  out(`lot ${lot}: ${result.entries} entries, head ${result.signed ? 'signed by the master key' : 'not signed (the lot is open)'}`);
  if (!signer && result.signed) out('(the signer was taken from the log itself: pass --signer to trust a key you hold)');
  if (result.winnerIsTopBidder !== null) out(`winner placed the top bid: ${result.winnerIsTopBidder ? 'yes' : 'no'}`);
  if (result.proof) out(`your request placed bid ${result.proof.bidId}, entry ${result.proof.seq}`);
  for (const p of result.problems) out(`FAIL ${p}`);
  out(result.ok ? 'OK' : 'NOT VERIFIED');
  return result.ok ? 0 : 1;
});
