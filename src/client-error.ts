import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from './core/error-codes';
import type { Logger } from './core/logger';

/** The answer to a request Node could not parse, by the parser's code (400 `bad_request` otherwise). */
const ANSWERS: Record<string, { status: number; reason: string; code: ErrorCode; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', detail: 'the request line and headers exceed the server\'s limit; send fewer or shorter headers' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, reason: 'Payload Too Large', code: 'chunk_extensions_too_large', detail: 'the chunk extensions of the body exceed the server\'s limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', code: 'request_timeout', detail: 'the request did not arrive whole in time' },
};
const UNPARSED = { status: 400, reason: 'Bad Request', code: 'bad_request', detail: 'the request is not HTTP/1.1 the server can parse' } as const;

/** A JSON:API error document, as the routes answer, so that no client meets an empty error body. */
function answerTo(code: string | undefined): string {
  const a = ANSWERS[code ?? ''] ?? UNPARSED;
  const body = JSON.stringify({ errors: [{ status: String(a.status), code: a.code, title: a.reason, detail: a.detail }] });
  return `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The HTTP server's `clientError`: a request Node could not parse, or a client that hung up in
 * the middle of one. Without a listener Node destroys the socket with the error, which the
 * request's answer then reports as failed, and Koa prints its stack outside the JSON log; any
 * client could fill the log so. Answered with Node's status and a JSON:API error document, with at most one debug line, no stack.
 */
export function answerClientErrors(server: Server, log: Logger): void {
  // The answers under way on each socket (pipelined ones included), counted off the public
  // 'request' event and each response's 'close', which comes once it is sent or its socket gone.
  const answering = new WeakMap<Socket, number>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once('close', () => answering.set(socket, (answering.get(socket) ?? 1) - 1));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    log.debug({ code: err.code ?? null, address: socket.remoteAddress ?? null }, 'client error: request not parsed or broken off');
    // Nothing sent yet and no answer under way on this socket: a status line cannot cut into another answer.
    if (socket.writable && socket.bytesWritten === 0 && !answering.get(socket)) {
      socket.end(answerTo(err.code), () => socket.destroy());
    } else {
      socket.destroy();
    }
  });
}
