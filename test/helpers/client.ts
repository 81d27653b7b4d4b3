import { request as httpRequest } from 'node:http';
import type { Keypair } from '@stellar/stellar-sdk';
import { signHeaders, type SignOptions } from '../../src/auth/request-signer';
import { bodyDigest } from '../../src/auth/signature';

// The service's own client-side signer: the tests sign exactly as `npm run call` does.
export { signHeaders, type SignOptions };
export const digestOf = bodyDigest;

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
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

/** An HTTP client for the tests: JSON bodies, optional signature or bearer token. */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    private readonly keypair?: Keypair,
    private readonly localAddress?: string,
  ) {}

  /** The same client signing every request with this keypair. */
  as(keypair: Keypair): TestClient {
    return new TestClient(this.baseUrl, keypair, this.localAddress);
  }

  /** The same client calling from another address of this machine (any 127.x.y.z), as another client would. */
  from(localAddress: string): TestClient {
    return new TestClient(this.baseUrl, this.keypair, localAddress);
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
    return send<T>(new URL(target, this.baseUrl), method, headers, body, this.localAddress);
  }
}

function send<T>(url: URL, method: string, headers: Record<string, string>, body: Buffer | null, localAddress?: string): Promise<TestResponse<T>> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress }, (res) => {
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
