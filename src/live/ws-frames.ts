import type { Socket } from 'node:net';

const FIN_TEXT = 0x81;
const CLOSE_BRACE = 0x7d;

/**
 * A graphql-ws `next` message as one unmasked WebSocket text frame: header, the subscription's
 * prefix (`{"id":…,"type":"next","payload":`), the payload JSON shared by every subscriber of the
 * event, and the closing brace. One allocation and two copies per subscriber, where `ws.send` of
 * a string costs a concatenation, an encoding and a header of its own.
 */
export function nextFrame(prefix: Buffer, payload: Buffer): Buffer {
  const length = prefix.length + payload.length + 1;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = FIN_TEXT;
  if (header === 2) {
    frame[1] = length;
  } else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    // A string, and so a payload, is far below 2^32 bytes: the upper half of the length is 0.
    frame[1] = 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  prefix.copy(frame, header);
  payload.copy(frame, header + prefix.length);
  frame[header + length - 1] = CLOSE_BRACE;
  return frame;
}

/**
 * Writes whole frames to the network sockets under WebSocket connections (ws has no public way to
 * write a ready frame; the socket is the upgrade request's `socket`, which ws took over), each corked from its
 * first frame of this turn until the turn's microtasks: the frames of one event for the several
 * subscriptions of one socket leave in one write. Frames go under `ws`'s own sender, which is
 * safe while nothing is compressed (no permessage-deflate: see `assertUncompressed`) and keeps
 * the order of everything written, since both write synchronously to the same socket.
 */
export class FrameWriter {
  private corked: Socket[] = [];

  /** `raw` is written only while its WebSocket is OPEN: LiveFanout writes only to one that is (its `accepts`). */
  write(raw: Socket, frame: Buffer): void {
    if (raw.writableCorked === 0) {
      raw.cork();
      if (this.corked.push(raw) === 1) queueMicrotask(this.uncork);
    }
    raw.write(frame);
  }

  // A fresh list before the first uncork: whatever one of them does, the next turn corks anew.
  private readonly uncork = (): void => {
    const corked = this.corked;
    this.corked = [];
    for (const raw of corked) raw.uncork();
  };
}

/** Frames written under `ws` must be what the connection expects: no extension may transform them. */
export function assertUncompressed(options: { perMessageDeflate?: unknown }): void {
  if (options.perMessageDeflate) throw new Error('the live fan-out writes uncompressed frames: the WebSocketServer must not negotiate permessage-deflate');
}
