import { Query } from 'pg';

/** What the database sent this process while `work` ran: its rows, and their fields' length in characters. */
export interface Received {
  rows: number;
  bytes: number;
}

/** Runs `work` and counts the rows the database sent meanwhile, whichever path read them (the ORM's queries and the raw pipelines alike). */
export async function rowsReceived(work: () => Promise<unknown>): Promise<Received> {
  // Each row the server sends reaches the query it answers (a client binds its own handlers when it connects).
  const proto = Query.prototype as unknown as { handleDataRow: (this: unknown, msg: { fields: (string | null)[] }) => void };
  const original = proto.handleDataRow;
  const received = { rows: 0, bytes: 0 };
  proto.handleDataRow = function handleDataRow(this: unknown, msg: { fields: (string | null)[] }) {
    received.rows++;
    for (const f of msg.fields) received.bytes += f?.length ?? 0;
    original.call(this, msg);
  };
  try {
    await work();
  } finally {
    proto.handleDataRow = original;
  }
  return received;
}
