// The same-run baseline of the fan-out's CPU per delivery: a bare `net` server (this child process)
// writing one ready frame of the size of a `bidPlaced` message to each of N loopback sockets, at the
// bench's rate, as the service does per event and subscriber. What is left is the kernel's cost of
// one small TCP write on this machine now: no service can deliver for less.
//
//   node bench/fanout-floor.mjs N RATE SECONDS BYTES   prints {"port"} once listening, then the
//                                                       result once N sockets connected and it wrote
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const [count, rate, seconds, bytes] = process.argv.slice(2).map(Number);
const sockets = [];
let resolveAll;
const all = new Promise((resolve) => (resolveAll = resolve));

const server = createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  if (sockets.push(socket) === count) resolveAll();
});
server.listen(0, '127.0.0.1', async () => {
  console.log(JSON.stringify({ port: server.address().port }));
  await all;
  const frame = Buffer.alloc(bytes, 0x78);
  const before = process.cpuUsage();
  const started = performance.now();
  let writes = 0;
  for (let round = 0; round < rate * seconds; round++) {
    const wait = started + (round * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    for (const socket of sockets) socket.write(frame);
    writes += sockets.length;
  }
  const cpu = process.cpuUsage(before);
  console.log(JSON.stringify({ writes, userUs: +(cpu.user / writes).toFixed(2), systemUs: +(cpu.system / writes).toFixed(2), perWriteUs: +((cpu.user + cpu.system) / writes).toFixed(2) }));
  for (const socket of sockets) socket.destroy();
  server.close();
});
