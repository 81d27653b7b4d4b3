import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { assertUncompressed, FrameWriter, nextFrame } from '../../src/live/ws-frames';

/** A server socket and the client at its other end, with what the client receives. */
async function pair() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  // The network socket under the connection is the upgrade request's, as the 'connection' event gives it.
  const accepted = new Promise<{ ws: WebSocket; request: IncomingMessage }>((resolve) => wss.once('connection', (ws, request) => resolve({ ws, request })));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const received: { text: string; binary: boolean }[] = [];
  client.on('message', (data, binary) => received.push({ text: String(data), binary }));
  const { ws, request } = await accepted;
  const server = { ws, raw: request.socket };
  await new Promise((resolve) => (client.readyState === WebSocket.OPEN ? resolve(null) : client.once('open', resolve)));
  const close = async () => {
    client.close();
    await new Promise((resolve) => wss.close(resolve));
  };
  return { server, received, close };
}

const prefix = (id: string) => Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);

describe('ready next frames', () => {
  it('reach a ws client as the text messages graphql-ws would send, at every header length, in order', async () => {
    const { server, received, close } = await pair();
    try {
      const writer = new FrameWriter();
      // 2-byte, 4-byte and 10-byte headers: payloads below 126 bytes, below 64 KiB, above.
      const payloads = [{ data: { n: 1 } }, { data: { s: 'x'.repeat(1000) } }, { data: { s: 'é'.repeat(40_000) } }];
      for (const [i, payload] of payloads.entries()) writer.write(server.raw, nextFrame(prefix(`s${i}`), Buffer.from(JSON.stringify(payload))));
      server.ws.send(JSON.stringify({ id: 's0', type: 'complete' }));
      const deadline = Date.now() + 5000;
      while (received.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(received.map((m) => m.binary)).toEqual([false, false, false, false]);
      expect(received.map((m) => JSON.parse(m.text))).toEqual([
        ...payloads.map((payload, i) => ({ id: `s${i}`, type: 'next', payload })),
        { id: 's0', type: 'complete' },
      ]);
    } finally {
      await close();
    }
  });

  it('refuse a server that would compress them', () => {
    expect(() => assertUncompressed({ perMessageDeflate: true })).toThrow(/permessage-deflate/);
    expect(() => assertUncompressed({ perMessageDeflate: false })).not.toThrow();
  });
});
