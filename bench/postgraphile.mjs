// PostGraphile 4 as a peer (goal 3): a generic GraphQL layer over the bench's own
// database, started in this process (library mode) beside the service, asked for the same pages
// as the service's GraphQL, one request at a time. Bench-only: nothing of it is in src/.
//
// PostGraphile reads the tables as they are (no visibility rules, no currency conversion): its
// figures are what a user would compare the service with, not the same work.
import { createServer } from 'node:http';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

// PostGraphile 4 is built on graphql 15, the service on 16: npm nests 15 under postgraphile, but
// the graphile packages hoisted beside it would find the service's 16, and graphql refuses types
// of two copies in one schema. Every `graphql` they ask for is resolved from postgraphile's folder.
const PEER_DIR = path.dirname(require.resolve('postgraphile/package.json'));
const PEER_PARENT = { id: PEER_DIR, filename: path.join(PEER_DIR, 'index.js'), paths: Module._nodeModulePaths(PEER_DIR) };
const GRAPHILE = /[\\/]node_modules[\\/](graphile-|@graphile|postgraphile|graphql-parse-resolve-info)/;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolvePeerGraphql(request, parent, ...rest) {
  const peer = (request === 'graphql' || request.startsWith('graphql/')) && parent?.filename && GRAPHILE.test(parent.filename);
  return resolveFilename.call(this, request, peer ? PEER_PARENT : parent, ...rest);
};

const { postgraphile } = require('postgraphile');
const PgSimplifyInflectorPlugin = require('@graphile-contrib/pg-simplify-inflector');
const ConnectionFilterPlugin = require('postgraphile-plugin-connection-filter');

/** The lot's columns, named alike by both (the service converts nothing without filter[currency]). */
const LOT = 'id lotType lotState currency startPrice buyNowPrice deposit minStep maxStep highestBid startTime endTime duration organizerId publisherId winnerId details createdAt updatedAt';

/** The same listing asked of both: the service's query and PostGraphile's, with their variables. */
function listings(maker, model) {
  return [
    {
      name: 'country + year range, newest first',
      service: [`query($f: LotFilter) { lots(filter: $f, first: 20) { nodes { ${LOT} } } }`, { f: { country: 'GEO', year: { min: 2015, max: 2020 } } }],
      peer: [
        `query { lots(first: 20, orderBy: [START_TIME_DESC, ID_DESC], filter: { country: { equalTo: "GEO" }, year: { greaterThanOrEqualTo: 2015, lessThanOrEqualTo: 2020 } }) { nodes { ${LOT} } } }`,
        {},
      ],
    },
    {
      name: 'maker + model, newest first',
      service: [`query($f: LotFilter) { lots(filter: $f, first: 20) { nodes { ${LOT} } } }`, { f: { maker, model } }],
      peer: [
        `query($maker: String!, $model: String!) { lots(first: 20, orderBy: [START_TIME_DESC, ID_DESC], filter: { maker: { equalTo: $maker }, model: { equalTo: $model } }) { nodes { ${LOT} } } }`,
        { maker, model },
      ],
    },
    {
      name: 'type + state, soonest end first',
      service: [`query($f: LotFilter) { lots(filter: $f, sort: { key: time_left }, first: 20) { nodes { ${LOT} } } }`, { f: { lotType: ['eng'], lotState: ['pending'] } }],
      peer: [`query { lots(first: 20, orderBy: [END_TIME_ASC, ID_ASC], filter: { lotType: { equalTo: 1 }, lotState: { equalTo: 1 } }) { nodes { ${LOT} } } }`, {}],
    },
    {
      name: 'newest first with organizer and bids',
      service: [`query { lots(first: 20) { nodes { ${LOT} organizer { id accountType platformId } bids { id amount bidderId createdAt } } } }`, {}],
      peer: [
        `query { lots(first: 20, orderBy: [START_TIME_DESC, ID_DESC]) { nodes { ${LOT} organizer { id accountType platformId } bids(orderBy: ID_ASC) { nodes { id amount accountId createdAt } } } } }`,
        {},
      ],
    },
  ];
}

/**
 * The bid path keeps no foreign keys on bids (Migration20261124120000BidKeys): a smart comment
 * tells PostGraphile the relation they stood for, so that its lots still have their bids.
 */
async function declareBidsOfLots(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`comment on table bids is E'@foreignKey (lot_id) references lots (id)'`);
  } finally {
    await client.end();
  }
}

/** Starts PostGraphile over `url` on a port of its own; answers its base URL and a close. */
async function startPeer(url) {
  await declareBidsOfLots(url);
  const middleware = postgraphile(url, 'public', {
    appendPlugins: [PgSimplifyInflectorPlugin, ConnectionFilterPlugin],
    graphqlRoute: '/graphql',
    disableDefaultMutations: true,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    retryOnInitFail: false,
    disableQueryLog: true,
    graphiql: false,
  });
  const server = createServer(middleware);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await middleware.release();
    },
  };
}

const mark = (ok) => (ok ? '✓' : '✗');

export async function peerBench({ url, base, samples, maker, model, fetchOk, timed }) {
  const peer = await startPeer(url);
  try {
    process.stderr.write(`\nPostGraphile 4 (connection-filter, simplify inflector) over the same database; goal: no slower (service p50 ≤ PostGraphile p50)\n`);
    const results = {};
    for (const l of listings(maker, model)) {
      const [sq, sv] = l.service;
      const [pq, pv] = l.peer;
      const ours = await fetchOk(base, '/graphql', { query: sq, variables: sv });
      const theirs = await fetchOk(peer.base, '/graphql', { query: pq, variables: pv });
      const ids = (body) => body.data.lots.nodes.map((n) => String(n.id)).join(',');
      const service = await timed(samples, () => fetchOk(base, '/graphql', { query: sq, variables: sv }));
      const postgraphile = await timed(samples, () => fetchOk(peer.base, '/graphql', { query: pq, variables: pv }));
      const ratio = +(service.p50 / postgraphile.p50).toFixed(2);
      const sameRows = ids(ours) === ids(theirs);
      results[l.name] = { service, postgraphile, ratioP50: ratio, ratioP99: +(service.p99 / postgraphile.p99).toFixed(2), sameRows, ok: ratio <= 1 };
      process.stderr.write(
        `${l.name.padEnd(40)} service p50 ${service.p50.toFixed(2)} / p99 ${service.p99.toFixed(2)} ms   PostGraphile p50 ${postgraphile.p50.toFixed(2)} / p99 ${postgraphile.p99.toFixed(2)} ms   ×${ratio} ${mark(ratio <= 1)}${sameRows ? '' : '  (rows differ)'}\n`,
      );
    }
    return results;
  } finally {
    await peer.close();
  }
}
