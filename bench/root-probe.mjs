// What a visitor sees while an attack runs: `GET /` sampled every 20 ms, and the server's peak RSS.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryOf } from './service.mjs';

/**
 * An HTTP client on loopback for the stall benches, over its own keep-alive agent: a call answers
 * its status, time and body size (status 0 with the error, never a throw); a JSON body gets its
 * content type unless `headers` give one.
 */
export function httpCaller({ maxSockets, timeoutMs }) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return (port, method, path, body, headers = {}) =>
    new Promise((resolve) => {
      const started = performance.now();
      const sent = body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } : headers;
      const req = request({ host: '127.0.0.1', port, method, path, agent, headers: sent }, (res) => {
        let bytes = 0;
        res.on('data', (c) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, bytes }));
      });
      req.on('error', (err) => resolve({ status: 0, ms: performance.now() - started, error: err.message }));
      req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
      req.end(body);
    });
}

export const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
};

/**
 * `GET /` through `call` a few times, before a baseline is sampled: the first answers of a fresh
 * service compile its code and prepare its query (100 ms for the first), and the p99 of fewer
 * than 100 samples is their slowest.
 */
export async function warmRoot(call, port, times = 20) {
  for (let i = 0; i < times; i++) await call(port, 'GET', '/');
}

/** `GET /` through `call` every 20 ms and RSS every 100 ms until `done` resolves, and for at least `minMs`. */
export async function sampleRoot(call, port, pid, done, minMs) {
  const latencies = [];
  let failed = 0;
  let finished = false;
  done.then(() => (finished = true));
  let rssKb = memoryOf(pid).rss;
  const memory = setInterval(() => (rssKb = Math.max(rssKb, memoryOf(pid).rss)), 100);
  const started = performance.now();
  while (!finished || performance.now() - started < minMs) {
    const r = await call(port, 'GET', '/');
    if (r.status === 200) latencies.push(r.ms);
    else failed++;
    await sleep(20);
  }
  clearInterval(memory);
  rssKb = Math.max(rssKb, memoryOf(pid).rss);
  return {
    checks: latencies.length + failed,
    failed,
    p50: +percentile(latencies, 0.5).toFixed(1),
    p99: +percentile(latencies, 0.99).toFixed(1),
    max: +Math.max(...latencies).toFixed(1),
    rssPeakMb: Math.round(rssKb / 1024),
  };
}
