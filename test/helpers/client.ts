import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Keypair } from '@stellar/stellar-sdk';

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface SignOptions {
  keypair: Keypair;
  /** The keyId to claim; the keypair's own public key by default. */
  keyId?: string;
  /** Header names to sign, in order; by default (request-target), x-date and, with a body, digest. */
  headers?: string[];
  /** Header carrying the time: x-date (RFC 3339, milliseconds) by default. */
  dateHeader?: 'date' | 'x-date';
  /** The signing time; now by default. */
  at?: Date;
  /** Put the parameters in `Authorization: Signature …` instead of `Signature`. */
  viaAuthorization?: boolean;
}

export interface RequestOptions {
  body?: unknown;
  /** Bytes sent as they are, instead of JSON of `body`. */
  raw?: Buffer;
  headers?: Record<string, string>;
  sign?: SignOptions;
  bearer?: string;
  contentType?: string;
}

export function digestOf(body: Buffer): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** Adds the Signature header of PROTOCOL.md §3.1 to `headers` for the request. */
export function signHeaders(method: string, target: string, headers: Record<string, string>, body: Buffer | null, opts: SignOptions): void {
  const at = opts.at ?? new Date();
  const dateHeader = opts.dateHeader ?? 'x-date';
  if (headers[dateHeader] === undefined) headers[dateHeader] = dateHeader === 'date' ? at.toUTCString() : at.toISOString();
  if (body && body.length && headers.digest === undefined) headers.digest = digestOf(body);
  const names = opts.headers ?? ['(request-target)', dateHeader, ...(body && body.length ? ['digest'] : [])];
  const text = names
    .map((n) => (n === '(request-target)' ? `(request-target): ${method.toLowerCase()} ${target}` : `${n}: ${headers[n]}`))
    .join('\n');
  const signature = opts.keypair.sign(createHash('sha256').update(text, 'utf8').digest()).toString('base64');
  const value = `keyId="${opts.keyId ?? opts.keypair.publicKey()}",algorithm="ed25519-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  if (opts.viaAuthorization) headers.authorization = `Signature ${value}`;
  else headers.signature = value;
}

/** An HTTP client for the tests: JSON bodies, optional signature or bearer token. */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    private readonly keypair?: Keypair,
  ) {}

  /** The same client signing every request with this keypair. */
  as(keypair: Keypair): TestClient {
    return new TestClient(this.baseUrl, keypair);
  }

  get<T = any>(target: string, opts: RequestOptions = {}) {
    return this.request<T>('GET', target, opts);
  }
  post<T = any>(target: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('POST', target, { ...opts, body });
  }
  put<T = any>(target: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('PUT', target, { ...opts, body });
  }
  patch<T = any>(target: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('PATCH', target, { ...opts, body });
  }
  delete<T = any>(target: string, opts: RequestOptions = {}) {
    return this.request<T>('DELETE', target, opts);
  }

  /** A GraphQL operation over HTTP POST. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, opts: RequestOptions = {}) {
    return this.request<{ data: T; errors: any[] }>('POST', '/graphql', { ...opts, body: { query, variables }, contentType: 'application/json' });
  }

  async request<T = any>(method: string, target: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/vnd.api+json, application/json', ...opts.headers };
    const body = opts.raw ?? (opts.body === undefined ? null : Buffer.from(JSON.stringify(opts.body)));
    if (body) {
      headers['content-type'] ??= opts.contentType ?? 'application/vnd.api+json';
      headers['content-length'] = String(body.length);
    }
    if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    const sign = opts.sign ?? (this.keypair ? { keypair: this.keypair } : undefined);
    if (sign) signHeaders(method, target, headers, body, sign);
    return send<T>(new URL(target, this.baseUrl), method, headers, body);
  }
}

function send<T>(url: URL, method: string, headers: Record<string, string>, body: Buffer | null): Promise<TestResponse<T>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T, text });
      });
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
