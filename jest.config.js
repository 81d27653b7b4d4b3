const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');

const ESM_ONLY = '(file-type|strtok3|token-types|@tokenizer/inflate|uint8array-extras|@borewit/text-codec)';
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));

// `npm test` without paths sets TEST_GROUPED: the files run in groups (test/grouping.js).
const testMatch = process.env.TEST_GROUPED === '1' ? ['**/test/groups/*.group.js'] : ['**/*.test.ts'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch,
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, sourceMaps: 'inline', swcrc: false }],
    // file-type and its dependencies ship only ES modules; jest runs CommonJS (src/modules/documents/documents.detect.ts).
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: ['@swc/jest', { ...swc, swcrc: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  runtime: '<rootDir>/test/runtime.js',
  testTimeout: 30000,
  // A spy (jest.spyOn on the shared logger) ends with its test: the files of a group share the loaded modules.
  restoreMocks: true,
  // Most of a file's time is spent waiting (on PostgreSQL, on a child process, on a timer): two workers a
  // core keep this machine's two cores busy (the grouped suite in 323 s with four, 348 s with three, 385 s with two).
  maxWorkers: Math.min(4, 2 * availableParallelism()),
  // Every jest file (a group, or a file run alone) loads the service anew and a worker keeps part of each: over
  // its share of the files a worker's heap grew to 2.5 GB, more than a newcomer's machine may spare. Past 1 GB
  // after a jest file, a worker is replaced.
  workerIdleMemoryLimit: '1GB',
  // At the end of a run jest tells each worker to finish and kills any that has not exited 500 ms later,
  // printing "A worker process has failed to exit gracefully". On a loaded machine (load average 7) the
  // message took about that long to be handled: three workers exited within 3 ms of handling it, 500 ms
  // after it was sent, and the fourth was killed 3 ms after them. A worker that holds a handle open is
  // still killed and reported, 5 s later (CI fails on the report: .ci/run).
  workerGracefulExitTimeout: 5000,
};
