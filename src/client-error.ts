import type { Socket } from 'node:net';
import type { Logger } from './core/logger';

/** Node's own answers to a request it could not parse, by the parser's code (400 otherwise). */
const ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * The HTTP server's `clientError`: a request Node could not parse, or a client that hung up in
 * the middle of one. Without a listener Node destroys the socket with the error, which the
 * request's answer then reports as failed, and Koa prints its stack outside the JSON log; any
 * client could fill the log so. Answered as Node would, with at most one debug line, no stack.
 */
export function clientErrorListener(log: Logger): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    log.debug({ code: err.code ?? null, address: socket.remoteAddress ?? null }, 'client error: request not parsed or broken off');
    // Nothing sent yet and no answer under way on this socket: a status line cannot cut into another answer.
    const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (socket.writable && socket.bytesWritten === 0 && !answering) {
      socket.end(`HTTP/1.1 ${ANSWERS[err.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`, () => socket.destroy());
    } else {
      socket.destroy();
    }
  };
}
