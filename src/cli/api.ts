import type { Keypair } from '@stellar/stellar-sdk';
import { signHeaders } from '../auth/request-signer';

export interface ApiResponse {
  status: number;
  statusText: string;
  /** The parsed JSON, or the text when the body is not JSON, or null when empty. */
  body: unknown;
}

export interface Payload {
  bytes: Buffer;
  contentType: string;
}

export class Unreachable extends Error {}

/** A client of the public REST interface that signs as docs/signing.md says when it has a key, or sends a JWT. */
export class Api {
  constructor(
    readonly base: string,
    readonly keypair: Keypair | null = null,
    readonly bearer: string | null = null,
  ) {}

  as(keypair: Keypair | null): Api {
    return new Api(this.base, keypair);
  }

  withToken(jwt: string): Api {
    return new Api(this.base, null, jwt);
  }

  json(method: string, target: string, document?: unknown): Promise<ApiResponse> {
    const payload = document === undefined ? null : jsonPayload(JSON.stringify(document));
    return this.send(method, target, payload);
  }

  async send(method: string, target: string, payload: Payload | null): Promise<ApiResponse> {
    const url = new URL(target, this.base);
    const headers: Record<string, string> = { accept: 'application/vnd.api+json, application/json' };
    if (payload) headers['content-type'] = payload.contentType;
    // Signed as it goes on the wire: URL parsing may re-encode the path and query.
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    if (this.keypair) signHeaders(method, url.pathname + url.search, headers, payload?.bytes ?? null, { keypair: this.keypair });
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: payload?.bytes });
    } catch (err) {
      throw new Unreachable(`cannot reach ${url.origin} (${(err as Error).cause ?? (err as Error).message}): start the service (npm start) or pass --base URL`);
    }
    const text = await res.text();
    return { status: res.status, statusText: res.statusText, body: parseBody(text) };
  }
}

/** JSON is sent as application/json, which REST and /graphql both accept (docs/rest.md). */
export const jsonPayload = (text: string): Payload => ({ bytes: Buffer.from(text, 'utf8'), contentType: 'application/json' });

/** The exact bytes and content type of a multipart form, so that its digest can be signed. */
export async function multipartPayload(form: FormData): Promise<Payload> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
