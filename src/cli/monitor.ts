// `npm run monitor -- URL [--state FILE] [--once] [--every SECONDS] [--log-key KEY]…`: follows the
// bid log's checkpoints (docs/bid-log.md, "Monitor") and reports any that does not extend the one
// before it.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkpointPeriodProblem, checkpointSigners, consistencyProblem, trustedCheckpoint, type Checkpoint, type SeenCheckpoint } from '../modules/bidlog';
import { Api } from './api';
import { out, runCommand, UsageError, userPath } from './run';
import { servedHistory } from './tlog-keys';
import { attributes, consistencyHashes, data, readState, writeState, type ServedCheckpoint } from './tlog-state';

const USAGE = `usage: npm run monitor -- URL [--state FILE] [--once] [--every SECONDS] [--log-key KEY]…

Follows the log's checkpoints: from the last one it saw (kept in --state FILE), every checkpoint the
log lists (GET URL/log/checkpoints) up to the latest, each checked against the one before it: the
log key's signature within that key's period (GET URL/log/keys), the same root for the same size, a
consistency proof for a larger one. Prints
a line per checkpoint checked, and "INCONSISTENT <reason>" for one that is not an extension; the
state then keeps the last good checkpoint.

  --state FILE     default DATA_DIR/monitor-state.json
  --once           one round: exit 0 when all is consistent, 1 on an inconsistency
  --every SECONDS  the pause between rounds when following; default 5
  --log-key KEY    a log public key (G…) to trust, once per key of its history; default: the one
                   the latest checkpoint names (reported)`;

const seenOf = (c: Checkpoint): SeenCheckpoint => ({ origin: c.origin, size: c.size, root: c.root.toString('base64') });

/** One round: the problem found, or null. */
async function round(api: Api, statePath: string, logKeys: string[]): Promise<string | null> {
  const latest = await attributes<ServedCheckpoint>(api, '/log/checkpoint');
  const keys = logKeys.length ? logKeys : [latest.signer];
  const head = trustedCheckpoint(latest.note, keys);
  if (typeof head === 'string') return head;
  // Each key's period as the log serves it: a checkpoint past it, signed by that key alone, was signed with a replaced seed.
  const periods = await servedHistory(api, latest);
  const retired = (c: Checkpoint, note: string) => checkpointPeriodProblem(periods, c, checkpointSigners(note, keys));
  const headRetired = retired(head, latest.note);
  if (headRetired) return headRetired;
  const state = readState(statePath);
  let seen = state[head.origin];
  if (!seen) {
    out(`checkpoint ${head.size} ${head.root.toString('base64')}${logKeys.length ? '' : ` (the log key ${latest.signer} was taken from the log itself)`}`);
    state[head.origin] = seenOf(head);
    writeState(statePath, state);
    return null;
  }
  let from = seen.size;
  while (from <= head.size) {
    const page = (await data<{ attributes: ServedCheckpoint }[]>(api, `/log/checkpoints?from=${from}&to=${head.size}`)).map((d) => d.attributes);
    if (!page.length) break;
    for (const served of page) {
      const c = trustedCheckpoint(served.note, keys);
      if (typeof c === 'string') return c;
      const past = retired(c, served.note);
      if (past) return past;
      const problem = consistencyProblem(seen, c, seen.size <= c.size ? await consistencyHashes(api, seen.size, c.size) : null);
      if (problem) return problem;
      if (c.size !== seen.size) out(`checkpoint ${c.size} ${c.root.toString('base64')} extends ${seen.size}`);
      seen = seenOf(c);
      state[c.origin] = seen;
      writeState(statePath, state);
    }
    from = page[page.length - 1].size + 1;
  }
  // The latest as served must be what the listing showed at its size.
  return consistencyProblem(seen, head, seen.size <= head.size ? await consistencyHashes(api, seen.size, head.size) : null);
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
    const api = new Api(url.replace(/\/$/, ''), null);
    for (;;) {
      let problem: string | null;
      try {
        problem = await round(api, statePath, logKeys);
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
