import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../../core/errors';
import { logger } from '../../core/logger';
import { Retold } from '../../core/retold';
import { unwritable } from '../../core/unwritable';

/** What a link to a stored document shows the downloader. */
export interface ContentMeta {
  contentType: string;
  fileName: string;
}

/** `inline` with the file name; HTML is an attachment, so that it never runs on the store's origin. */
export function contentDisposition(meta: ContentMeta): string {
  const kind = meta.contentType === 'text/html' ? 'attachment' : 'inline';
  const ascii = meta.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(meta.fileName)}`;
}

/** Where document bytes live: a local directory or an S3-compatible store. */
export interface DocumentStorage {
  put(key: string, bytes: Buffer, meta: ContentMeta): Promise<void>;
  /** Removes the bytes; a key that holds none is not an error. */
  delete(key: string): Promise<void>;
  /** A URL that serves the bytes for `ttlSeconds`, and only with its signature intact. */
  link(key: string, meta: ContentMeta, ttlSeconds: number): Promise<string>;
}

/** The outcome of checking a link of ours; `ok` carries nothing, the caller reads the bytes. */
export type LinkCheck = 'ok' | 'expired' | 'invalid';

/**
 * HMAC-signed links to our own route `GET /files/{key}?expires=…&signature=…`. The key comes
 * from the configuration or is derived from the master seed; it is never logged.
 */
export class LinkSigner {
  constructor(
    private readonly key: Buffer,
    private readonly baseUrl: string,
  ) {}

  link(key: string, ttlSeconds: number, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    return `${this.baseUrl}/files/${encodeURIComponent(key)}?expires=${expires}&signature=${this.sign(key, expires)}`;
  }

  check(key: string, expires: string | undefined, signature: string | undefined, now = Date.now()): LinkCheck {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(key, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 <= now ? 'expired' : 'ok';
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${key}\n${expires}`).digest('base64url');
  }
}

/** Document bytes as files of one directory (the default, under DATA_DIR). */
export class LocalStorage implements DocumentStorage {
  private readonly refusals = new Retold();

  constructor(
    private readonly dir: string,
    readonly signer: LinkSigner,
  ) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    // Written aside and renamed, so that a reader never sees half a file.
    const partial = `${this.file(key)}.${process.pid}.partial`;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(partial, bytes, { mode: 0o600 });
      await rename(partial, this.file(key));
    } catch (err) {
      // Half a file on a full disk would keep its space for ever.
      await rm(partial, { force: true }).catch(() => undefined);
      throw this.refusal(err);
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  async link(key: string, _meta: ContentMeta, ttlSeconds: number): Promise<string> {
    return this.signer.link(key, ttlSeconds);
  }

  /** The bytes and their length, or null when the key holds none. */
  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const { size } = await stat(this.file(key));
      return { stream: createReadStream(this.file(key)), size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** A write the file system refused, as the uploader's 503; the log is told once a minute at most. */
  private refusal(err: unknown): unknown {
    const refused = unwritable(err);
    if (!refused) return err;
    const { code, why } = refused;
    this.refusals.say(code, (heldBack) => logger.warn({ code, dir: this.dir, reason: (err as Error).message, heldBack }, 'the documents storage cannot store files'));
    return DomainError.of('unavailable', 'storage_unavailable', `the documents storage cannot store the file because ${why} (${code}); nothing was kept; try again later`);
  }

  private file(key: string): string {
    // Keys are ids of ours ([A-Za-z0-9_-] and one dot); basename keeps any other out of the directory.
    return path.join(this.dir, path.basename(key));
  }
}
