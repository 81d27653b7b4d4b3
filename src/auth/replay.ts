import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Signatures of writes seen within the clock window, kept in PostgreSQL so that a replay is
 * refused whichever instance receives it.
 */
export class ReplayStore {
  constructor(private readonly em: EntityManager) {}

  /** True when this signature had not been seen; records it until `expiresAt`. */
  async claim(signature: Buffer, expiresAt: Date): Promise<boolean> {
    const digest = createHash('sha256').update(signature).digest();
    const res = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>(
        'insert into seen_signatures (digest, expires_at) values (?, ?) on conflict (digest) do nothing',
        [digest, expiresAt],
        'run',
      );
    return res.affectedRows === 1;
  }

  async prune(): Promise<number> {
    const res = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>('delete from seen_signatures where expires_at < now()', [], 'run');
    return res.affectedRows;
  }
}
