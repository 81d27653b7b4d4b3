// `npm run monitor -- URL [--state FILE] [--once] [--every SECONDS] [--log-key KEY]…`: follows the
// bid log's checkpoints (docs/bid-log.md, "Monitor") and reports any that does not extend the one
// before it.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointPeriodProblem, checkpointSigners, trustedCheckpoint, type Checkpoint } from '../modules/bidlog';
import { Api } from './api';
import { out, runCommand, UsageError, userPath } from './run';
import { originOf, trustedLogKeys } from './tlog-keys';
import { attributes, data, extensionProblem, keepSeen, readState, seenAt, seenOf, writeState, type ServedCheckpoint } from './tlog-state';

const USAGE = `usage: npm run monitor -- URL [--state FILE] [--once] [--every SECONDS] [--log-key KEY]…

Follows the log's checkpoints: from the last one it saw (kept in --state FILE), every checkpoint the
log lists (GET URL/log/checkpoints) up to the latest, each checked against the one before it: the
log key's signature within that key's period (GET URL/log/keys), the same root for the same size, a
consistency proof for a larger one. Prints
a line per checkpoint checked, and "INCONSISTENT <reason>" for one that is not an extension; the
state then keeps the last good checkpoint.

  --state FILE     the last checkpoint checked and the log keys trusted, per log URL (a log that
                   renames itself is reported); default DATA_DIR/monitor-state.json
  --once           one round: exit 0 when all is consistent, 1 on an inconsistency
  --every SECONDS  the pause between rounds when following; default 5
  --log-key KEY    a log public key (G…) to trust, once per key of its history; default: the keys
                   trusted before (kept in --state), else GET URL/log/keys, trusted on first use
                   (reported); a later change of them is reported until confirmed with --log-key`;


/** One round: the problem found, or null. */
async function round(api: Api, base: string, statePath: string, logKeys: string[]): Promise<string | null> {
  const latest = await attributes<ServedCheckpoint>(api, '/log/checkpoint');
  const state = readState(statePath);
  let seen = seenAt(state, base, originOf(latest.note));
  const trusted = await trustedLogKeys(api, latest, logKeys, seen, true);
  if (trusted.problem) return trusted.problem;
  const { keys, periods } = trusted;
  const head = trustedCheckpoint(latest.note, keys);
  if (typeof head === 'string') return head;
  // Each key's period as the log serves it: a checkpoint past it, signed by that key alone, was signed with a replaced seed.
  const retired = (c: Checkpoint, note: string) => checkpointPeriodProblem(periods, c, checkpointSigners(note, keys));
  const headRetired = retired(head, latest.note);
  if (headRetired) return headRetired;
  const keep = (c: Checkpoint) => {
    seen = { ...seenOf(c), keys };
    keepSeen(state, base, seen);
    writeState(statePath, state);
  };
  if (!seen) {
    for (const n of trusted.notes) out(n);
    out(`checkpoint ${head.size} ${head.root.toString('base64')}`);
    keep(head);
    return null;
  }
  let from = seen.size;
  while (from <= head.size) {
    const page = (await data<{ attributes: ServedCheckpoint }[]>(api, `/log/checkpoints?from=${from}&to=${head.size}`)).map((d) => d.attributes);
    if (!page.length) break;
    for (const served of page) {
      // A listing that does not move forward would hold the monitor in this round forever, silent.
      if (served.size < from || served.size > head.size) return `the log listed the checkpoint of size ${served.size} when asked for sizes ${from} to ${head.size}`;
      from = served.size + 1;
      const c = trustedCheckpoint(served.note, keys);
      if (typeof c === 'string') return c;
      const past = retired(c, served.note);
      if (past) return past;
      const problem = await extensionProblem(api, seen, c);
      if (problem) return problem;
      if (c.size !== seen.size) out(`checkpoint ${c.size} ${c.root.toString('base64')} extends ${seen.size}`);
      keep(c);
    }
  }
  // The latest as served must be what the listing showed at its size.
  return extensionProblem(api, seen, head);
}

runCommand(
  USAGE,
  { state: { type: 'string' }, once: { type: 'boolean' }, every: { type: 'string' }, 'log-key': { type: 'string', multiple: true } },
  async ({ values, positionals, config }) => {
    const [url = '', ...rest] = positionals;
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError('URL must be http(s)://host[:port]');
    if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
    const every = values.every === undefined ? 5 : Number(values.every);
    if (!(every >= 0.5 && every <= 3600)) throw new UsageError('--every must be 0.5 to 3600 seconds');
    const statePath = typeof values.state === 'string' ? userPath(values.state) : path.join(config.DATA_DIR, 'monitor-state.json');
    const logKeys = Array.isArray(values['log-key']) ? values['log-key'].filter((k): k is string => typeof k === 'string') : [];
    const base = url.replace(/\/$/, '');
    const api = new Api(base, null);
    for (;;) {
      let problem: string | null;
      try {
        problem = await round(api, base, statePath, logKeys);
      } catch (e) {
        if (values.once) throw e;
        out(`unreachable: ${(e as Error).message}`);
        problem = null;
      }
      if (problem) out(`INCONSISTENT ${problem}`);
      if (values.once) return problem ? 1 : 0;
      await sleep(every * 1000);
    }
  },
);
