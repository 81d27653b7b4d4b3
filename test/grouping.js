// `npm test` without arguments runs the test files in groups (jest.config.js, test/groups/): each group
// is one jest file that runs its files one after another, each in a `describe` named after it, so
// that the service's 2,600 modules load once a group instead of once a file (1.1 s of a worker's
// time each). A file keeps its own hooks, its own database and its own apps; what it shares with
// the rest of its group is the loaded code. `npx jest FILE` and `npm test -- PATHS` run files alone.
const { appendFileSync, readdirSync } = require('node:fs');
const path = require('node:path');

const GROUPS = 24;

// Files that set their own test timeout (jest.setTimeout): jest reads it once a jest file, so in a
// group it would hold for every file's tests. `runGroup` refuses a grouped file that sets one.
const ALONE = [
  'graphql/account-connections.test.ts',
  'graphql/bidlog-entries-connection.test.ts',
  'graphql/connection-twins.test.ts',
  'graphql/contact-connections.test.ts',
  'graphql/ledger-row-connections.test.ts',
  'graphql/lot-row-connections.test.ts',
  'graphql/lot-rows-read.test.ts',
  'graphql/platform-id-connections.test.ts',
  'graphql/watchlist-connection.test.ts',
  'hardening/bad-input-graphql-1.test.ts',
  'hardening/bad-input-graphql-2.test.ts',
  'hardening/authorization.test.ts',
  'hardening/bad-input.test.ts',
  'lots/bids-beside-lot.test.ts',
];

function testFiles(dir = __dirname) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(file);
      return entry.name.endsWith('.test.ts') ? [file] : [];
    })
    .sort();
}

const relative = (file) => path.relative(__dirname, file).split(path.sep).join('/');

/** The files of group `n` (1…GROUPS): every GROUPS-th of the sorted files, so that each group holds some of every area. */
function groupFiles(n) {
  const leftOut = (process.env.TEST_LEAVE_OUT ?? '').split(',');
  return testFiles()
    .filter((file) => !ALONE.includes(relative(file)))
    .filter((file) => !leftOut.includes(relative(file)))
    .filter((_, i) => i % GROUPS === n - 1);
}

const TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');

/** Called by a group's jest file (test/groups/NN.group.ts) with its own path. */
function runGroup(groupFile) {
  const n = Number(path.basename(groupFile).split('.')[0]);
  for (const file of groupFiles(n)) {
    const name = relative(file);
    describe(name, () => {
      let began = 0;
      beforeAll(() => void (began = Date.now()));
      require(file);
      if (globalThis[TIMEOUT]) throw new Error(`${name} sets its own test timeout: list it in ALONE (test/grouping.js)`);
      // Its time from its first hook to its last, for the run's list of the slowest files (test/run.mjs).
      afterAll(() => {
        if (process.env.TEST_TIMES_FILE) appendFileSync(process.env.TEST_TIMES_FILE, `${JSON.stringify({ file: `test/${name}`, seconds: (Date.now() - began) / 1000 })}\n`);
      });
    });
  }
}

module.exports = { GROUPS, ALONE, groupFiles, runGroup, testFiles };
