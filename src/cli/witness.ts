// `npm run witness -- URL [--key FILE] [--name NAME] [--state FILE] [--log-key KEY]…`: a witness of
// the bid log (docs/bid-log.md, "Witnesses"): checks that the log's latest checkpoint extends the
// last one it co-signed, then co-signs it (C2SP tlog-cosignature/v1) and hands it in.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkpointPeriodProblem, checkpointSigners, cosignatureLine, parseNote, trustedCheckpoint, witnessVkey } from '../modules/bidlog';
import { Api } from './api';
import { readKeyFile } from './keys';
import { out, runCommand, UsageError, userPath } from './run';
import { originOf, trustedLogKeys } from './tlog-keys';
import { attributes, extensionProblem, keepSeen, readState, seenAt, seenOf, writeState, type ServedCheckpoint } from './tlog-state';

const USAGE = `usage: npm run witness -- URL [--key FILE] [--name NAME] [--state FILE] [--log-key KEY]…

Fetches GET URL/log/checkpoint, checks the log key's signature and that the checkpoint extends the
one this witness co-signed last (a consistency proof; the same size must have the same root), then
co-signs it and sends the co-signature to POST URL/log/cosign. On an inconsistency it refuses: one
FAIL line, exit 1, and the state keeps the last good checkpoint. Prints the witness's vkey, which
the log's operator adds to LOG_WITNESSES and verifiers pass to verify-bids --witness.

  --key FILE      the witness's secret seed (S…); created (mode 0600) when absent;
                  default DATA_DIR/witness.seed
  --name NAME     the witness's key name; default witness.local
  --state FILE    the last checkpoint co-signed and the log keys trusted, per log URL (a log that
                  renames itself is refused); default DATA_DIR/witness-state.json
  --log-key KEY   a log public key (G…) to trust, once per key of its history; default: the keys
                  trusted before (kept in --state), else GET URL/log/keys, trusted on first use
                  (reported); a later change of them is refused until confirmed with --log-key`;

function witnessKey(file: string): Keypair {
  if (existsSync(file)) return readKeyFile(file);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = Keypair.random();
  writeFileSync(file, `${key.secret()}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

runCommand(
  USAGE,
  { key: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' }, 'log-key': { type: 'string', multiple: true } },
  async ({ values, positionals, config }) => {
    const [url = '', ...rest] = positionals;
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError('URL must be http(s)://host[:port]');
    if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
    const name = typeof values.name === 'string' ? values.name : 'witness.local';
    if (!/^[^\s+]+$/.test(name)) throw new UsageError('--name must hold no spaces nor "+"');
    const key = witnessKey(typeof values.key === 'string' ? userPath(values.key) : path.join(config.DATA_DIR, 'witness.seed'));
    const statePath = typeof values.state === 'string' ? userPath(values.state) : path.join(config.DATA_DIR, 'witness-state.json');
    const logKeys = Array.isArray(values['log-key']) ? values['log-key'].filter((k): k is string => typeof k === 'string') : [];
    const base = url.replace(/\/$/, '');
    const api = new Api(base, null);

    const served = await attributes<ServedCheckpoint>(api, '/log/checkpoint');
    const state = readState(statePath);
    const seen = seenAt(state, base, originOf(served.note));
    const trusted = await trustedLogKeys(api, served, logKeys, seen, true);
    const checkpoint = trusted.problem ?? trustedCheckpoint(served.note, trusted.keys);
    if (typeof checkpoint === 'string') {
      out(`FAIL refusing to co-sign: ${checkpoint}`);
      return 1;
    }
    // A co-signature vouches for the checkpoint to verifiers without state: none for one its key may no longer sign.
    const period = checkpointPeriodProblem(trusted.periods, checkpoint, checkpointSigners(served.note, trusted.keys));
    const problem = period ?? (seen ? await extensionProblem(api, seen, checkpoint) : null);
    if (problem) {
      out(`FAIL refusing to co-sign: ${problem}`);
      return 1;
    }

    const { body } = parseNote(served.note) as Exclude<ReturnType<typeof parseNote>, string>;
    const note = `${body}\n${cosignatureLine(name, key, body, Math.floor(Date.now() / 1000))}`;
    const res = await api.json('POST', '/log/cosign', { data: { type: 'cosignatures', attributes: { note } } });
    if (res.status !== 200) {
      const detail = (res.body as { errors?: { code?: string; detail?: string }[] })?.errors?.[0];
      out(`FAIL the log refused the co-signature: ${res.status} ${detail?.code ?? ''} ${detail?.detail ?? ''}`.trimEnd());
      return 1;
    }
    // The last checkpoint co-signed: one the log refused is not.
    keepSeen(state, base, { ...seenOf(checkpoint), keys: trusted.keys });
    writeState(statePath, state);
    for (const n of trusted.notes) out(n);
    out(`co-signed ${checkpoint.origin} size ${checkpoint.size} root ${checkpoint.root.toString('base64')}${seen ? `, consistent with size ${seen.size}` : ''}`);
    out(`witness ${witnessVkey(name, key)}`);
    return 0;
  },
);
