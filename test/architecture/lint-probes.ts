import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** A file name, its code, and what the test expects of it. */
type Probe = readonly [string, string, ...unknown[]];

/**
 * How many messages of each set's rule the project's ESLint config gives each of its probes, the
 * sets in one ESLint process: each process loads the config and its plugins anew (a CPU-second).
 */
export function lintMessageSets(sets: readonly (readonly [ruleId: string, probes: readonly Probe[]])[]): number[][] {
  // ESLint loads its flat config as an ES module, which a test's module system does not: it runs in node.
  const lint = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ESLint } from 'eslint';
       const eslint = new ESLint();
       const counts = [];
       for (const [ruleId, probes] of JSON.parse(process.argv[1])) {
         const set = [];
         for (const [file, code] of probes) set.push((await eslint.lintText(code + '\\n', { filePath: file }))[0].messages.filter((m) => m.ruleId === ruleId).length);
         counts.push(set);
       }
       console.log(JSON.stringify(counts));`,
      JSON.stringify(sets.map(([ruleId, probes]) => [ruleId, probes.map(([file, code]) => [file, code])])),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (lint.stderr) throw new Error(lint.stderr);
  return JSON.parse(lint.stdout) as number[][];
}

/** How many messages of `ruleId` the project's ESLint config gives each probe (a file name and its code). */
export const lintMessages = (ruleId: string, probes: readonly Probe[]): number[] => lintMessageSets([[ruleId, probes]])[0];
