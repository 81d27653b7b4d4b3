/**
 * The frontend messages of PostgreSQL's extended query protocol that a pipeline of the hot paths
 * sends (src/db/raw.ts), encoded as the protocol documents them. Ours, not node-postgres': its
 * pipeline mode writes each statement with a Sync of its own, and its writers are its internals.
 */

/** A parameter as it travels: text, a binary value (a `Buffer`, for bytea), or null. */
export type WireValue = string | Buffer | null;

/** Accumulates one pipeline's messages, so that they leave in one write. */
export class MessageWriter {
  private buffer = Buffer.allocUnsafe(1024);
  private length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  private int16(n: number): void {
    this.room(2);
    this.length = this.buffer.writeInt16BE(n, this.length);
  }

  private int32(n: number): void {
    this.room(4);
    this.length = this.buffer.writeInt32BE(n, this.length);
  }

  private cstring(s: string): void {
    const bytes = Buffer.byteLength(s);
    this.room(bytes + 1);
    this.length += this.buffer.write(s, this.length);
    this.buffer[this.length++] = 0;
  }

  private bytes(b: Buffer): void {
    this.room(b.length);
    this.length += b.copy(this.buffer, this.length);
  }

  /** A message: its type byte, then its length (which counts itself) once `body` wrote it. */
  private message(type: string, body: () => void): void {
    this.room(5);
    this.buffer[this.length] = type.charCodeAt(0);
    const at = this.length + 1;
    this.length += 5;
    body();
    this.buffer.writeInt32BE(this.length - at, at);
  }

  parse(name: string, text: string, types: readonly number[]): void {
    this.message('P', () => {
      this.cstring(name);
      this.cstring(text);
      this.int16(types.length);
      for (const t of types) this.int32(t);
    });
  }

  /** Binds `values` to the unnamed portal; every result column comes as text. */
  bind(statement: string, values: readonly WireValue[]): void {
    this.message('B', () => {
      this.cstring('');
      this.cstring(statement);
      const binary = values.some((v) => Buffer.isBuffer(v));
      this.int16(binary ? values.length : 0);
      if (binary) for (const v of values) this.int16(Buffer.isBuffer(v) ? 1 : 0);
      this.int16(values.length);
      for (const v of values) {
        if (v === null) this.int32(-1);
        else {
          const b = Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8');
          this.int32(b.length);
          this.bytes(b);
        }
      }
      this.int16(0);
    });
  }

  describePortal(): void {
    this.message('D', () => {
      this.cstring('P');
    });
  }

  execute(): void {
    this.message('E', () => {
      this.cstring('');
      this.int32(0);
    });
  }

  closeStatement(name: string): void {
    this.message('C', () => {
      this.cstring(`S${name}`);
    });
  }

  sync(): void {
    this.message('S', () => undefined);
  }

  /** The messages written so far. */
  written(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
