import type { EntityManager } from '@mikro-orm/postgresql';
import { changedBy, rowsOf } from '../../db/query';
import { sql } from '../../db/sql';

/**
 * pending: recorded, Horizon's answer not known (not sent yet, or lost); accepted: Horizon took it
 * and the deposit write is still to do; completed: written; rejected: the network refused it.
 */
export type RelayState = 'pending' | 'accepted' | 'completed' | 'rejected';

export interface RelayRow {
  id: string;
  hash: string;
  envelopeXdr: string;
  state: RelayState;
}

/** The rows of `ledger_relay_outbox`: what was relayed to Horizon and is yet to be completed. */
/** A `ledger_relay_outbox` row as a statement selecting `RELAY_COLUMNS` answers it. */
interface RelayColumns {
  id: string;
  hash: string;
  envelope_xdr: string;
  state: RelayState;
}

const RELAY_COLUMNS = sql`id, hash, envelope_xdr, state`;

export const relayOutbox = {
  /** Records a submission before it is sent, in a commit of its own; answers its id. */
  async record(em: EntityManager, hash: string, envelopeXdr: string): Promise<string> {
    const [row] = await rowsOf<Pick<RelayColumns, 'id'>>(em, sql`insert into ledger_relay_outbox (hash, envelope_xdr) values (${hash}, ${envelopeXdr}) returning id`);
    return String(row.id);
  },

  async accepted(em: EntityManager, id: string): Promise<void> {
    await changedBy(em, sql`update ledger_relay_outbox set state = 'accepted', updated_at = now() where id = ${id} and state in ('pending', 'rejected')`);
  },

  async rejected(em: EntityManager, id: string): Promise<void> {
    await changedBy(em, sql`update ledger_relay_outbox set state = 'rejected', updated_at = now() where id = ${id} and state = 'pending'`);
  },

  /**
   * Marks the row completed inside the deposit write's transaction, locking it: true for the one
   * caller (request or job) that completes it, so the deposit write happens once.
   */
  async claim(em: EntityManager, id: string): Promise<boolean> {
    return (await changedBy(em, sql`update ledger_relay_outbox set state = 'completed', updated_at = now() where id = ${id} and state <> 'completed'`)) > 0;
  },

  /** Accepted rows, and pending ones recorded before `pendingBefore` (older first). */
  async due(em: EntityManager, pendingBefore: Date, limit: number): Promise<RelayRow[]> {
    const rows = await rowsOf<RelayColumns>(
      em,
      sql`select ${RELAY_COLUMNS} from ledger_relay_outbox
        where state = 'accepted' or (state = 'pending' and created_at < ${pendingBefore})
        order by created_at limit ${limit}`,
    );
    return rows.map((r) => ({ id: String(r.id), hash: r.hash, envelopeXdr: r.envelope_xdr, state: r.state }));
  },
};
