// The GraphQL stall attacks, rerun: ten anonymous POST /graphql at once of each (30 chained
// fragments each spreading the next twice; 200 aliases of __schema), while GET / is sampled every
// 20 ms and the server's resident memory every 100 ms; then the slowest of a set of generated
// documents (chains and trees of fragments, aliases, introspection, nested lists) by its server
// time. Prints each figure against its goal.
//
//   node bench/stall.mjs   (after npm run build)
//
// The service runs as a child process (bench/service.mjs) on a database of its own (bench/db.mjs).
// `npm run bench` runs it as its `stall` section.
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './db.mjs';
import { httpCaller, percentile, sampleRoot, warmRoot } from './root-probe.mjs';
import { goal } from './goals.mjs';
import { cpuOf, startService } from './service.mjs';

const GOAL_P99_MS = 100;
const GOAL_RSS_MB = 1024;
const GOAL_DOCUMENT_MS = 100;
const AT_ONCE = 10;
/** Batches of AT_ONCE sent, without sampling, to measure the server's CPU time per request. */
const CPU_BATCHES = 5;

const chain = (links, on = 'Query', leaf = '__typename') =>
  Array.from({ length: links }, (_, i) => (i === links - 1 ? `fragment G${i} on ${on} { ${leaf} }` : `fragment G${i} on ${on} { a: ${leaf} ...G${i + 1} ...G${i + 1} }`)).join(' ');
const FINDING_1 = `${chain(30)} { ...G0 }`;
const FINDING_2 = `{ ${Array.from({ length: 200 }, (_, i) => `s${i}: __schema { types { name kind fields { name type { name kind ofType { name } } } } }`).join(' ')} }`;

/** Documents of the shapes the property test generates, each at most 8 KB, the worst of each kind. */
function generated() {
  const tree = (size, fanout) => {
    const fragments = Array.from({ length: size }, (_, i) => `fragment L${i} on Lot { id bids { amount } ${Array.from({ length: fanout }, (_, k) => (i + k + 1 < size ? `...L${i + k + 1}` : '')).join(' ')} }`).join(' ');
    return `{ lots(first: 100) { nodes { ...L0 } } } ${fragments}`;
  };
  const docs = [
    FINDING_1,
    `${chain(60, 'Query', 'lotsCount')} { ...G0 }`,
    tree(40, 1),
    tree(40, 3),
    `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    `{ ${Array.from({ length: 120 }, (_, i) => `a${i}: lots(first: 100) { nodes { id bids(last: 100) { amount } } }`).join(' ')} }`,
    `{ __schema { types { name fields { name args { name } type { name ofType { name ofType { name } } } } } } ${Array.from({ length: 30 }, (_, i) => `t${i}: __type(name: "Lot") { fields { name type { name } } }`).join(' ')} }`,
    `{ ${Array.from({ length: 150 }, (_, i) => `...F${i}`).join(' ')} } ${Array.from({ length: 150 }, (_, i) => `fragment F${i} on Query { a: lotsCount }`).join(' ')}`,
  ];
  return docs.filter((d) => Buffer.byteLength(d) <= 8192);
}

const call = httpCaller({ maxSockets: 16, timeoutMs: 60000 });

const sample = (port, pid, done, minMs) => sampleRoot(call, port, pid, done, minMs);

async function attack(service, name, query) {
  const body = JSON.stringify({ query });
  const requests = Promise.all(Array.from({ length: AT_ONCE }, () => call(service.port, 'POST', '/graphql', body)));
  const under = await sample(service.port, service.pid, requests, 1000);
  const answers = await requests;
  const statuses = [...new Set(answers.map((a) => a.status))];
  // CPU time is what the machine's load changes least: the server's, per request, without GET / beside.
  const cpuBefore = cpuOf(service.pid);
  for (let i = 0; i < CPU_BATCHES; i++) await Promise.all(Array.from({ length: AT_ONCE }, () => call(service.port, 'POST', '/graphql', body)));
  const cpuMsPerRequest = +(((cpuOf(service.pid) - cpuBefore) * 1000) / (CPU_BATCHES * AT_ONCE)).toFixed(2);
  const line = goal(`${name}, ${AT_ONCE} at once (${(Buffer.byteLength(body) / 1024).toFixed(1)} KB each, answered ${statuses.join('/')})`, [
    { text: `GET / p99 ${under.p99} ms (goal ≤ ${GOAL_P99_MS} ms, ${under.failed} of ${under.checks} failed)`, ok: under.p99 <= GOAL_P99_MS && under.failed === 0 },
    { text: `server RSS peak ${under.rssPeakMb} MB (goal < ${GOAL_RSS_MB} MB)`, ok: under.rssPeakMb < GOAL_RSS_MB },
  ]);
  return { answers: statuses, ...under, cpuMsPerRequest, goal: `${line}; server CPU ${cpuMsPerRequest} ms per request` };
}

/** The server time of each generated document, the median of three sends, on a quiet service. */
async function slowestDocument(service) {
  let slowest = { ms: 0, bytes: 0, status: 0 };
  for (const query of generated()) {
    const body = JSON.stringify({ query });
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await call(service.port, 'POST', '/graphql', body));
    const ms = percentile(runs.map((r) => r.ms), 0.5);
    if (ms > slowest.ms) slowest = { ms: +ms.toFixed(1), bytes: Buffer.byteLength(query), status: runs[0].status, start: query.slice(0, 80) };
  }
  const line = goal(`slowest generated document (${slowest.bytes} bytes, answered ${slowest.status})`, [{ text: `server time ${slowest.ms} ms (goal ≤ ${GOAL_DOCUMENT_MS} ms)`, ok: slowest.ms <= GOAL_DOCUMENT_MS }]);
  return { ...slowest, goal: line };
}

/** The section for `npm run bench` (bench/suite.mjs): the figures and their goal lines. */
export async function stallBench() {
  const db = await freshDatabase('stall');
  const service = await startService(db.url);
  try {
    const results = { loadAverage: loadavg().map((l) => +l.toFixed(2)) };
    await warmRoot(call, service.port);
    results.baseline = await sample(service.port, service.pid, Promise.resolve(), 1000);
    results.finding1 = await attack(service, 'finding 1 (30 chained fragments)', FINDING_1);
    results.finding2 = await attack(service, 'finding 2 (200 aliases of __schema)', FINDING_2);
    results.slowestDocument = await slowestDocument(service);
    results.goals = [results.finding1.goal, results.finding2.goal, results.slowestDocument.goal];
    console.error(`\nGraphQL stalls, load average ${results.loadAverage.join(' ')}; GET / before: p99 ${results.baseline.p99} ms`);
    for (const line of results.goals) console.error(line);
    return results;
  } finally {
    await service.stop();
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await stallBench();
  console.log(JSON.stringify(results, null, 2));
  process.exitCode = results.goals.every((l) => l.startsWith('✓')) ? 0 : 1;
}
