import { connect } from 'node:net';
import { appWith } from '../helpers/world';

/**
 * A request Node's parser refuses never reaches Koa: the answer is written on the socket by the
 * server's `clientError` listener. It used to carry a status line and no body, so a client that
 * sent a cookie too many met a 431 with nothing to read; it is a JSON:API error like every other.
 */
const world = appWith(async () => ({}));

/** Sends `text` on a fresh connection and answers what came back once the server closed it. */
const exchange = (text: string) =>
  new Promise<string>((resolve) => {
    let answer = '';
    const socket = connect(world.t.port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (c: Buffer) => (answer += c.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
  });

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { errors: { status: string; code: string; detail: string }[] };

describe('a request the HTTP parser refuses', () => {
  it('answers headers past the limit 431 with a JSON:API error naming the fault', async () => {
    const res = await fetch(`${world.t.baseUrl}/lots`, { headers: { cookie: 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const body = (await res.json()) as { errors: { status: string; code: string; detail: string }[] };
    expect(body.errors).toEqual([expect.objectContaining({ status: '431', code: 'headers_too_large' })]);
    expect(body.errors[0].detail).toMatch(/headers/);
  });

  it('answers bytes that are not HTTP 400 bad_request with a body whose length the header gives', async () => {
    const answer = await exchange('HELLO\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const length = Number(/\r\nContent-Length: (\d+)\r\n/.exec(answer)?.[1]);
    expect(Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toBe(length);
    expect(bodyOf(answer).errors).toEqual([expect.objectContaining({ status: '400', code: 'bad_request' })]);
  });

  it('writes no status line into a connection whose earlier request is still being answered', async () => {
    // Pipelined: the first request is taken and being answered when the parser meets the bytes
    // after it; a 400 written then would reach the client as the answer to GET /lots.
    const answer = await exchange(`GET /lots HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nHELLO\r\n\r\n`);
    expect(answer).not.toMatch(/^HTTP\/1\.1 400/);
    expect(answer).not.toContain('bad_request');
  });
});
