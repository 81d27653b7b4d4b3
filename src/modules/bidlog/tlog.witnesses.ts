import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid } from '../../core/errors';
import { validateInput, type Untrusted } from '../../core/validate';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { cosignedAt, parseWitnessKey, type WitnessKey } from './tlog.cosign';
import { checkpointBody, parseNote } from './tlog.note';
import { checkpointOfSize, type SignedCheckpoint } from './tlog.service';

/** The most witnesses a log is configured with: a checkpoint's co-signatures are listed whole. */
export const MOST_WITNESSES = 20;

/** How far in the future a co-signature's time may be (clocks differ). */
const CLOCK_SKEW_SECONDS = 300;

export const cosignInput = z.object({ note: z.string().min(1, 'must be a checkpoint note with co-signature lines').max(20_000, 'must be at most 20000 characters') });
export type CosignInput = z.input<typeof cosignInput>;

/** `LOG_WITNESSES`: comma-separated vkeys; a start with a malformed one is refused. */
export function witnessesOf(config: string): WitnessKey[] {
  const keys = config.split(',').map((v) => v.trim()).filter(Boolean).map(parseWitnessKey);
  const bad = keys.find((k): k is string => typeof k === 'string');
  if (bad) throw new Error(`LOG_WITNESSES: ${bad}`);
  if (keys.length > MOST_WITNESSES) throw new Error(`LOG_WITNESSES: at most ${MOST_WITNESSES} witnesses`);
  return keys as WitnessKey[];
}

/**
 * POST /log/cosign: the witnesses of `LOG_WITNESSES` hand in their co-signatures of checkpoints
 * the log issued (docs/bid-log.md, "Witnesses"); each is verified exactly and kept, and the
 * checkpoint is served with them. No account is needed: the signature is the credential.
 */
export class LogWitnesses {
  constructor(
    private readonly witnesses: readonly WitnessKey[],
    private readonly origin: string,
  ) {}

  async cosign(ctx: RequestContext, input: Untrusted<CosignInput>): Promise<SignedCheckpoint> {
    const { note } = validateInput(cosignInput, input);
    const parsed = parseNote(note);
    if (typeof parsed === 'string') throw invalid('cosignature_invalid', `note: ${parsed}`, { field: 'note' });
    const { checkpoint } = parsed;
    const issued = checkpoint.origin === this.origin ? await checkpointOfSize(ctx.em, checkpoint.size) : null;
    if (!issued || issued.rootHash !== checkpoint.root.toString('base64')) {
      throw conflict('checkpoint_not_issued', `the log issued no checkpoint of ${checkpoint.origin} of size ${checkpoint.size} with this root`, { field: 'note' });
    }
    // A witness signs the body's bytes: one written otherwise (a size as `007`, a line added) names the
    // same checkpoint, but its co-signature would not verify against the note served with it.
    if (parsed.body !== checkpointBody(checkpoint)) {
      throw invalid('cosignature_invalid', 'note: its checkpoint is not written as the log issued it (origin, size and root, one line each, nothing more)', { field: 'note' });
    }
    const lines = parsed.signatures.filter((s) => s.name !== this.origin);
    if (!lines.length) throw invalid('cosignature_invalid', 'note: it carries no co-signature line', { field: 'note' });
    const cosigned: { witness: WitnessKey; timestamp: number; line: string }[] = [];
    for (const s of lines) {
      const witness = this.witnesses.find((w) => w.name === s.name && w.keyId.equals(s.keyHash));
      if (!witness) throw forbidden('witness_unknown', `${s.name} (key ID ${s.keyHash.toString('hex')}) is no witness of this log`);
      const timestamp = cosignedAt({ ...parsed, signatures: [s] }, witness);
      if (timestamp === null) throw invalid('cosignature_invalid', `note: the co-signature of ${s.name} does not verify (C2SP tlog-cosignature/v1 over this checkpoint)`, { field: 'note' });
      if (timestamp > Date.now() / 1000 + CLOCK_SKEW_SECONDS) throw invalid('cosignature_invalid', `note: the co-signature of ${s.name} is dated in the future`, { field: 'note' });
      cosigned.push({ witness, timestamp, line: `\u2014 ${s.name} ${Buffer.concat([s.keyHash, s.signature]).toString('base64')}\n` });
    }
    // One statement, one commit each: the trigger that keeps `tlog_witnessed` holds its checkpoint's
    // lock to the commit, and two notes naming the same witnesses in another order, in one
    // transaction each, would each wait for the other's.
    for (const c of cosigned) {
      // A witness's newer co-signature of the same checkpoint replaces its older one.
      await rowsOf(
        ctx.em,
        sql`insert into tlog_cosignatures (size, witness, key_id, signed_at, line)
            values (${checkpoint.size}, ${c.witness.name}, decode(${c.witness.keyId.toString('hex')}, 'hex'), ${c.timestamp}, ${c.line})
            on conflict (size, witness) do update set key_id = excluded.key_id, signed_at = excluded.signed_at, line = excluded.line, created_at = now()
              where tlog_cosignatures.signed_at < excluded.signed_at`,
      );
    }
    return (await checkpointOfSize(ctx.em, checkpoint.size)) as SignedCheckpoint;
  }
}
