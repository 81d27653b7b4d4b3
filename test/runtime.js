// jest's `runtime` (jest.config.js): jest's own, with two changes for a worker that runs file after
// file, each loading the whole service anew. The loaded modules stay each file's own.
const asyncHooks = require('node:async_hooks');
const vm = require('node:vm');
const JestRuntime = require('jest-runtime').default;

// V8's code cache. Each file's 2,600 modules were parsed and compiled again, a third of the
// loading's time. A worker keeps what V8 made of a module the first time (some 10 MB for the
// service, and its code, 16 MB, to check against) and hands it back to V8 when a later file of
// the worker compiles the same code.
const compileFunction = vm.compileFunction;
const compiled = new Map();
vm.compileFunction = function compileWithCache(code, params, options) {
  // jest compiles the modules of a test file into the file's context, named after the module's file.
  if (!options?.parsingContext || typeof options.filename !== 'string' || options.cachedData || options.produceCachedData) {
    return compileFunction.call(this, code, params, options);
  }
  const key = `${options.filename}\0${params?.join(',')}`;
  const known = compiled.get(key);
  if (known?.code === code) {
    const fn = compileFunction.call(this, code, params, { ...options, cachedData: known.cachedData });
    if (fn.cachedDataRejected) compiled.delete(key);
    return fn;
  }
  const fn = compileFunction.call(this, code, params, { ...options, produceCachedData: true });
  if (fn.cachedData) compiled.set(key, { code, cachedData: fn.cachedData });
  return fn;
};

// The async local storages of a file, disabled when it ends. Node's async_hooks is shared by the
// files of a worker, and a storage once used stays in its list until disabled: every promise the
// worker made walked the storages of all its earlier files (MikroORM makes a few per load).
const { AsyncLocalStorage } = asyncHooks;
let storages = new Set();
asyncHooks.AsyncLocalStorage = class FileAsyncLocalStorage extends AsyncLocalStorage {
  constructor(...args) {
    super(...args);
    storages.add(this);
  }
};

module.exports = class Runtime extends JestRuntime {
  #storages = (storages = new Set());

  teardown() {
    super.teardown();
    for (const storage of this.#storages) storage.disable();
  }
};
