import type { EntityManager } from '@mikro-orm/postgresql';

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

async function execute<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/** The rows of `ledger_relay_outbox`: what was relayed to Horizon and is yet to be completed. */
export const relayOutbox = {
  /** Records a submission before it is sent, in a commit of its own; answers its id. */
  async record(em: EntityManager, hash: string, envelopeXdr: string): Promise<string> {
    const [row] = await execute<{ id: string }>(em, 'insert into ledger_relay_outbox (hash, envelope_xdr) values (?, ?) returning id', [hash, envelopeXdr]);
    return String(row.id);
  },

  async accepted(em: EntityManager, id: string): Promise<void> {
    await execute(em, `update ledger_relay_outbox set state = 'accepted', updated_at = now() where id = ? and state in ('pending', 'rejected')`, [id]);
  },

  async rejected(em: EntityManager, id: string): Promise<void> {
    await execute(em, `update ledger_relay_outbox set state = 'rejected', updated_at = now() where id = ? and state = 'pending'`, [id]);
  },

  /**
   * Marks the row completed inside the deposit write's transaction, locking it: true for the one
   * caller (request or job) that completes it, so the deposit write happens once.
   */
  async claim(em: EntityManager, id: string): Promise<boolean> {
    const rows = await execute(em, `update ledger_relay_outbox set state = 'completed', updated_at = now() where id = ? and state <> 'completed' returning id`, [id]);
    return rows.length > 0;
  },

  /** Accepted rows, and pending ones recorded before `pendingBefore` (older first). */
  async due(em: EntityManager, pendingBefore: Date, limit: number): Promise<RelayRow[]> {
    const rows = await execute<{ id: string; hash: string; envelope_xdr: string; state: RelayState }>(
      em,
      `select id, hash, envelope_xdr, state from ledger_relay_outbox
        where state = 'accepted' or (state = 'pending' and created_at < ?)
        order by created_at limit ?`,
      [pendingBefore, limit],
    );
    return rows.map((r) => ({ id: String(r.id), hash: r.hash, envelopeXdr: r.envelope_xdr, state: r.state }));
  },
};
