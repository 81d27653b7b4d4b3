// jest's module loader with V8's code cache. Each test file runs in a context of its own, where
// jest compiles the service and its packages anew: some 3,000 modules, 1.4 s of CPU a file. The
// compiled form is kept on disk per source text and Node.js version, where every worker and later
// runs find it: compiling then takes 0.5 s. A cache V8 refuses is compiled as before.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

function readCache(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: the other workers read the same files. */
function writeCache(file, data) {
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

class CodeCachingRuntime extends Runtime {
  constructor(config, ...rest) {
    super(config, ...rest);
    const dir = path.join(config.cacheDirectory, `v8-code-cache-${process.version}`);
    mkdirSync(dir, { recursive: true });
    const executor = this.executor;
    const compile = executor.compile.bind(executor);
    executor.compile = (source, filename) => {
      const parsingContext = executor.environment.getVmContext();
      if (parsingContext == null) return compile(source, filename);
      const file = path.join(dir, createHash('sha1').update(filename).update('\0').update(source).digest('hex'));
      const cachedData = readCache(file);
      let fn;
      try {
        fn = vm.compileFunction(source, executor.injectedModuleParameters, {
          filename,
          parsingContext,
          cachedData,
          produceCachedData: cachedData === undefined,
          importModuleDynamically: (specifier, _fn, attributes, ...phase) => executor.dynamicImport(specifier, filename, parsingContext, attributes, phase[0]),
        });
      } catch {
        // jest's own compile tells what is wrong with the module.
        return compile(source, filename);
      }
      if (cachedData === undefined && fn.cachedData) writeCache(file, fn.cachedData);
      else if (fn.cachedDataRejected) writeCache(file, vm.compileFunction(source, executor.injectedModuleParameters, { filename, parsingContext, produceCachedData: true }).cachedData);
      return fn;
    };
  }
}

module.exports = CodeCachingRuntime;
