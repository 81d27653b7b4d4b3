/**
 * How a vocabulary value given by a client also matches: in any letter case, and by other names
 * of its values (an enum id for the value it names).
 */
export interface Leniency {
  anyCase?: boolean;
  aliases?: Readonly<Record<string, string>>;
}

/** The value `raw` names, as `values` spell it, under the leniency; undefined when none. */
export function termOf(raw: string, values: readonly string[], { anyCase, aliases = {} }: Leniency): string | undefined {
  const same = anyCase ? (a: string) => a.toLowerCase() === raw.toLowerCase() : (a: string) => a === raw;
  return values.find(same) ?? Object.entries(aliases).find(([alias]) => same(alias))?.[1];
}
