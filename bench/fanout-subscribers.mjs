// A worker thread of `bench/fanout.mjs`: `count` bare graphql-transport-ws subscribers of one lot's
// `bidPlaced` on one instance. The subscribers are spread over threads so that their own reading
// and parsing, which queue behind each other in one thread, weigh less on the measured delays.
// Each `next` is recorded as its arrival time at (bid index, subscriber): bid i has amount 1001 + i.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, lotId, count } = workerData;
const QUERY = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount createdAt } }';
const now = () => performance.timeOrigin + performance.now();

let arrivals = null;
let bids = 0;
let warmed = 0;
const sockets = [];
const failures = [];

function open(n) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    let seen = false;
    ws.on('open', () => ws.send('{"type":"connection_init"}'));
    ws.on('message', (data) => {
      const at = now();
      const message = JSON.parse(data);
      if (message.type === 'next' && message.id === 's') {
        if (!seen) {
          seen = true;
          warmed++;
        }
        const i = Math.round(Number(message.payload.data.bidPlaced.amount) - 1001);
        if (arrivals !== null && i >= 0 && i < bids) arrivals[i * count + n] = at;
      } else if (message.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: 's', type: 'subscribe', payload: { query: QUERY, variables: { lotId } } }));
        resolve();
      } else if (message.type !== 'ping' && message.type !== 'pong') {
        failures.push(`${message.type} ${JSON.stringify(message.payload ?? null).slice(0, 200)}`);
      }
    });
    ws.on('error', (err) => {
      failures.push(err.message);
      resolve();
    });
    ws.on('close', (code) => {
      if (code !== 1000 && code !== 1005) failures.push(`closed ${code}`);
      resolve();
    });
    sockets.push(ws);
  });
}

parentPort.on('message', async (command) => {
  if (command.type === 'open') {
    for (let start = 0; start < count; start += 200) await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, k) => open(start + k)));
    parentPort.postMessage({ type: 'opened', failures: failures.length });
  } else if (command.type === 'warmed') {
    parentPort.postMessage({ type: 'warmed', warmed });
  } else if (command.type === 'measure') {
    bids = command.bids;
    arrivals = new Float64Array(bids * count).fill(NaN);
    parentPort.postMessage({ type: 'measuring' });
  } else if (command.type === 'delivered') {
    let delivered = 0;
    for (const at of arrivals) if (!Number.isNaN(at)) delivered++;
    parentPort.postMessage({ type: 'delivered', delivered });
  } else if (command.type === 'collect') {
    parentPort.postMessage({ type: 'collected', arrivals, failures: failures.slice(0, 10) }, [arrivals.buffer]);
  } else if (command.type === 'close') {
    await Promise.all(sockets.map((ws) => new Promise((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve() : (ws.once('close', resolve), ws.close(1000))))));
    parentPort.postMessage({ type: 'closed' });
  }
});
