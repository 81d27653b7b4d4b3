// `npm test` without paths runs the test files in groups (jest.config.js, test/groups/): each group
// is one jest file that runs its files one after another, each in a `describe` named after it, so
// that the service's 2,600 modules load once a group instead of once a file (1.1 s of a worker's
// time each). A file keeps its own hooks, its own database and its own apps; what it shares with
// the rest of its group is the loaded code. `npx jest FILE` and `npm test -- PATHS` run files alone.
const { appendFileSync, readdirSync } = require('node:fs');
const path = require('node:path');

const GROUPS = 16;

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
    .filter((file) => !leftOut.includes(relative(file)))
    .filter((_, i) => i % GROUPS === n - 1);
}

const TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');
const REGISTERS = ['it', 'test', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach'];

/**
 * Loads a file's tests. jest reads `jest.setTimeout` once a jest file, so a file's own timeout would
 * hold for its whole group: while the file registers its tests and hooks, each one it gives no
 * timeout of its own gets the file's (jest's third argument), and the file's setting goes with it.
 */
function load(file) {
  const own = () => globalThis[TIMEOUT];
  const originals = REGISTERS.map((name) => globalThis[name]);
  for (const [i, name] of REGISTERS.entries()) {
    const register = originals[i];
    const withOwn = (title, fn, timeout) => (typeof title === 'function' ? register(title, fn ?? own()) : register(title, fn, timeout ?? own()));
    globalThis[name] = Object.assign(withOwn, register, {
      each: (...table) => (title, fn, timeout) => register.each(...table)(title, fn, timeout ?? own()),
    });
  }
  try {
    require(file);
  } finally {
    for (const [i, name] of REGISTERS.entries()) globalThis[name] = originals[i];
    delete globalThis[TIMEOUT];
  }
}

/** Called by a group's jest file (test/groups/NN.group.js) with its own path. */
function runGroup(groupFile) {
  const n = Number(path.basename(groupFile).split('.')[0]);
  for (const file of groupFiles(n)) {
    const name = relative(file);
    describe(name, () => {
      let began = 0;
      beforeAll(() => void (began = Date.now()));
      load(file);
      // Its time from its first hook to its last, for the run's list of the slowest files (test/run.mjs).
      afterAll(() => {
        if (process.env.TEST_TIMES_FILE) appendFileSync(process.env.TEST_TIMES_FILE, `${JSON.stringify({ file: `test/${name}`, seconds: (Date.now() - began) / 1000 })}\n`);
      });
    });
  }
}

module.exports = { GROUPS, groupFiles, runGroup, testFiles };
