// jest's `runtime` (jest.config.js): jest's own, with V8's code cache for the modules it compiles.
// Every test file loads the service anew, some 2,600 modules, and V8 parsed and compiled each of
// them again for each file: a third of the loading's time. A worker keeps what V8 made of a module
// the first time (some 10 MB for the service, and its code, 16 MB, to check against) and hands it
// back to V8 when a later file of the worker compiles the same code. The loaded module is still
// the file's own: only the compilation is shared.
const vm = require('node:vm');

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

module.exports = require('jest-runtime');
