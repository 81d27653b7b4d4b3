// `npm run verify-bids -- URL [LOT] [--receipt FILE] [--log-key KEY…] [--state FILE] [--anchor] [--horizon URL] [--witness VKEY… [--quorum N]] [--signer KEY] [--digest HEX | --request 'METHOD TARGET' [--body FILE]] [--as KEYFILE]`:
// checks a lot's bids and a bidder's receipt from the outside, trusting nothing the service says but the keys given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { bearerRequestDigestOf, parseWitnessKey, type AnyReceipt, type WitnessKey } from '../modules/bidlog';
import { fetchAndVerifyBidLog } from './bid-log';
import { keyFileOf, keysDir, readKeyFile } from './keys';
import { out, runCommand, UsageError, userPath } from './run';
import { checkLog } from './tlog-check';

const USAGE = `usage: npm run verify-bids -- URL [LOT] [--receipt FILE] [--log-key KEY]… [--state FILE] [--anchor] [--horizon URL] [--witness VKEY]… [--quorum N] [--signer KEY] [--digest HEX | --request 'METHOD TARGET' [--body FILE]] [--as KEYFILE]

Checks the service's transparency log: its latest checkpoint's signature, and that it extends the
checkpoint this command saw last (kept in --state FILE). With LOT, fetches GET URL/lots/LOT/bid_log
and GET URL/lots/LOT and checks every hash of the lot's chain, the master key's signature of its
head (once the lot closed), that the lot's highest_bid and winner are the chain's, and every leaf
of the lot in the log: its inclusion in the checkpoint and that the lot is what its leaves say.
Exit code 0 when everything holds, 1 otherwise (one FAIL line per reason), 2 for usage errors.

  --receipt FILE  a bid's receipt (the Bid-Receipt header, or GraphQL's receipt.encoded: base64
                  JSON, or the JSON itself): its signature, and each of its leaves in the checkpoint;
                  with --digest or --request, that one of its bids was placed by that request
  --log-key KEY   a log public key (G…) to trust, once per key of the log's history; default: the
                  keys trusted before (kept in --state), else GET URL/log/keys, trusted on first use
                  (reported); a later change of them fails until confirmed with --log-key
  --state FILE    where the last checkpoint seen and the trusted log keys are kept; default
                  DATA_DIR/verify-bids-state.json
  --anchor        require the checkpoint's root (or an earlier one's, which it must extend) on the
                  Stellar ledger; without it the anchor is checked whenever there is one
  --horizon URL   read anchors from this Horizon, not from the service's GET /ledger/transactions
  --witness VKEY  a witness's C2SP vkey (name+keyid+key), once per witness you trust
  --quorum N      how many of the --witness keys must have co-signed the checkpoint (or an
                  earlier one it extends); default all of them
  --signer KEY    the master public key (G…) to trust for the chain's head; default: the one the log names
  --digest HEX    prove that the bid placed by your request is in the chain (with LOT) and among the
                  receipt's bids (with --receipt): for a signed request the
                  SHA-256 of its signature, for one sent with a bearer token that of its method,
                  target and body (docs/bid-log.md)
  --request 'METHOD TARGET'
                  the request you sent with a bearer token (e.g. 'POST /lots/7/bid_requests'): its
                  digest is computed with the bytes of --body FILE (none: an empty body) and proved
  --as KEYFILE    sign the requests (a key file, or a name npm run demo wrote), to see your own entries opened`;

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
      body = readFileSync(userPath(values.body));
    } catch (e) {
      throw new UsageError(`--body: ${(e as Error).message}`);
    }
  }
  return bearerRequestDigestOf(method, target, body);
}

const SIGNED = { origin: z.string(), log_id: z.string(), timestamp: z.string(), signer: z.string(), signature: z.string() };

const INDEXED = z.array(z.object({ leaf_index: z.number().int().nonnegative(), leaf_hash: z.string() }));

/** Each version's fields; a version 1 receipt has no `version`. Chosen by the receipt's own `version`, never by the fields that happen to match. */
const RECEIPTS = {
  1: z.object({ ...SIGNED, entries: INDEXED }),
  2: z.object({ version: z.literal(2), ...SIGNED, entries: z.array(z.object({ leaf_hash: z.string() })) }),
  3: z.object({
    version: z.literal(3),
    ...SIGNED,
    entries: INDEXED,
    batch: z.object({ size: z.number().int().positive(), index: z.number().int().nonnegative(), root: z.string(), path: z.array(z.string()) }),
  }),
} satisfies Record<number, z.ZodType<AnyReceipt>>;

/** A receipt file: the header's base64 JSON, or the JSON. */
function readReceipt(file: string): AnyReceipt {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new UsageError(`--receipt: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.startsWith('{') ? text : Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    parsed = null;
  }
  const named = parsed !== null && typeof parsed === 'object' && 'version' in parsed;
  const version = named ? (parsed as { version: unknown }).version : 1;
  // A version read as another would drop the fields its signature covers (a batch's path): refused by name.
  if (version !== 1 && version !== 2 && version !== 3) throw new UsageError(`--receipt: the receipt's version ${JSON.stringify(version)} is none this verifier knows (1, which names none, 2 and 3)`);
  if (version === 1 && named) throw new UsageError('--receipt: a receipt of version 1 names no version');
  // GraphQL's receipt object (camelCase) or a whole answer would otherwise reach the checks and fail there as a bug.
  const receipt = RECEIPTS[version].safeParse(parsed);
  if (!receipt.success) throw new UsageError("--receipt: the file holds no receipt (the Bid-Receipt header's base64 JSON, GraphQL's receipt.encoded, or that JSON)");
  return receipt.data;
}

function horizonOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^https?:\/\/\S+$/.test(value)) throw new UsageError('--horizon must be an http(s) URL');
  return value;
}

/** The witnesses to trust and how many of them must have co-signed. */
function quorumOf(values: Record<string, unknown>): { witnesses: WitnessKey[]; quorum: number } {
  const witnesses = (Array.isArray(values.witness) ? values.witness : []).map((v: unknown) => {
    const key = parseWitnessKey(String(v));
    if (typeof key === 'string') throw new UsageError(`--witness: ${key}`);
    return key;
  });
  if (values.quorum === undefined) return { witnesses, quorum: witnesses.length };
  const quorum = Number(values.quorum);
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > witnesses.length) throw new UsageError(`--quorum must be 1 to the number of --witness keys (${witnesses.length})`);
  return { witnesses, quorum };
}

runCommand(
  USAGE,
  {
    signer: { type: 'string' },
    digest: { type: 'string' },
    request: { type: 'string' },
    body: { type: 'string' },
    as: { type: 'string' },
    receipt: { type: 'string' },
    'log-key': { type: 'string', multiple: true },
    state: { type: 'string' },
    anchor: { type: 'boolean' },
    horizon: { type: 'string' },
    witness: { type: 'string', multiple: true },
    quorum: { type: 'string' },
  },
  async ({ values, positionals, config }) => {
    const [url = '', lot, ...rest] = positionals;
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError('URL must be http(s)://host[:port]');
    if (lot !== undefined && !/^\d+$/.test(lot)) throw new UsageError('LOT must be a lot id');
    if (lot === undefined && values.receipt === undefined && !values.anchor && values.witness === undefined) throw new UsageError('give a LOT, a --receipt FILE, --anchor or --witness');
    if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
    const base = url.replace(/\/$/, '');
    const receipt = typeof values.receipt === 'string' ? readReceipt(userPath(values.receipt)) : undefined;
    const logKeys = Array.isArray(values['log-key']) ? values['log-key'].filter((k): k is string => typeof k === 'string') : undefined;
    const statePath = typeof values.state === 'string' ? userPath(values.state) : path.join(config.DATA_DIR, 'verify-bids-state.json');
    const problems: string[] = [];

    const outside = { anchor: values.anchor ? ('require' as const) : ('auto' as const), horizon: horizonOf(values.horizon), networkPassphrase: config.NETWORK_PASSPHRASE, ...quorumOf(values) };
    const requestDigest = digestOf(values);
    // A digest proves a bid of the lot's chain, or of the receipt: given with neither, it would be dropped unchecked.
    if (requestDigest !== undefined && lot === undefined && receipt === undefined) throw new UsageError('--digest and --request go with a LOT or a --receipt FILE');
    const log = await checkLog(base, { logKeys, statePath, receipt, requestDigest, lotId: lot, outside });
    if (lot !== undefined) {
      const keypair = typeof values.as === 'string' ? readKeyFile(keyFileOf(values.as, keysDir(config.DATA_DIR))) : null;
      const signer = typeof values.signer === 'string' ? values.signer : undefined;
      const result = await fetchAndVerifyBidLog(base, lot, { signer, requestDigest }, keypair);
      out(`lot ${lot}: ${result.entries} entries, head ${result.signed ? 'signed by the master key' : 'not signed (the lot is open)'}`);
      if (!signer && result.signed) out('(the signer was taken from the log itself: pass --signer to trust a key you hold)');
      if (result.winnerIsTopBidder !== null) out(`winner placed the top bid: ${result.winnerIsTopBidder ? 'yes' : 'no'}`);
      if (result.proof) out(`your request placed bid ${result.proof.bidId}, entry ${result.proof.seq}`);
      // Bids from before the hash chain have no entry in it: the log's backfilled leaves vouch for them instead.
      const predatesChain = result.entries === 0 && log.lot !== undefined && log.lot.bids > 0 && log.lot.backfilledBids === log.lot.bids;
      if (predatesChain) out("the lot's bids predate the hash chain: they are verified by the transparency log's backfilled leaves");
      else problems.push(...result.problems);
    }
    for (const note of log.notes) out(note);
    problems.push(...log.problems);
    for (const p of problems) out(`FAIL ${p}`);
    out(problems.length ? 'NOT VERIFIED' : 'OK');
    return problems.length ? 1 : 0;
  },
);
