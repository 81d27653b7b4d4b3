const { readFileSync } = require('node:fs');

const ESM_ONLY = '(file-type|strtok3|token-types|@tokenizer/inflate|uint8array-extras|@borewit/text-codec)';
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, sourceMaps: 'inline', swcrc: false }],
    // file-type and its dependencies ship only ES modules; jest runs CommonJS (src/modules/documents/documents.detect.ts).
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: ['@swc/jest', { ...swc, swcrc: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  globalSetup: '<rootDir>/test/global-setup.ts',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
};
