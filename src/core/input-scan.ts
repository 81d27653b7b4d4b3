/** What an input may not hold, wherever it sits. */
export type InputFault = 'nul' | 'long_list';

/** PostgreSQL's text cannot store U+0000: a string holding one fails in the driver (a 500) unless refused first. */
export const hasNul = (s: string) => s.includes('\u0000');

interface Step {
  value: unknown;
  key: string | null;
  parent: Step | null;
}

function pathOf(step: Step): string[] {
  const path: string[] = [];
  for (let s: Step | null = step; s && s.key !== null; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * The first string (member name or value) holding a NUL character, or list longer than
 * `maxList`, in a parsed input, with its path. Walked without recursion and without copying
 * paths: a body may nest deeper than the call stack.
 */
export function scanInput(input: unknown, maxList = Infinity): { fault: InputFault; path: string[] } | null {
  const stack: Step[] = [{ value: input, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop() as Step;
    const { value } = step;
    if (typeof value === 'string') {
      if (hasNul(value)) return { fault: 'nul', path: pathOf(step) };
    } else if (Array.isArray(value)) {
      if (value.length > maxList) return { fault: 'long_list', path: pathOf(step) };
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: step });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, member] of Object.entries(value).reverse()) {
        if (hasNul(key)) return { fault: 'nul', path: pathOf({ value: member, key, parent: step }) };
        stack.push({ value: member, key, parent: step });
      }
    }
  }
  return null;
}
