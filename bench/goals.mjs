// How every section of `npm run bench` states a goal: one line, each check with its ✓ or ✗.

/** A goal as one line of the report: figure, bound, baseline and ✓ or ✗ per check, ✓ overall only when all hold. */
export function goal(name, checks) {
  const ok = checks.every((c) => c.ok);
  const parts = checks.map((c) => `${c.text} ${c.ok ? '✓' : '✗'}`);
  return `${ok ? '✓' : '✗'} ${name}: ${parts.join('; ')}`;
}
