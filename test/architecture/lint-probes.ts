import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** How many messages of `ruleId` the project's ESLint config gives each probe (a file name and its code). */
export function lintMessages(ruleId: string, probes: readonly (readonly [string, string, ...unknown[]])[]): number[] {
  // ESLint loads its flat config as an ES module, which a test's module system does not: it runs in node.
  const lint = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { ESLint } from 'eslint';
       const eslint = new ESLint();
       const [ruleId, probes] = JSON.parse(process.argv[1]);
       const counts = [];
       for (const [file, code] of probes) counts.push((await eslint.lintText(code + '\\n', { filePath: file }))[0].messages.filter((m) => m.ruleId === ruleId).length);
       console.log(JSON.stringify(counts));`,
      JSON.stringify([ruleId, probes.map(([file, code]) => [file, code])]),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (lint.stderr) throw new Error(lint.stderr);
  return JSON.parse(lint.stdout) as number[];
}
