import { registerEnumType } from 'type-graphql';

/** `buy_now_winner` → `BUY_NOW_WINNER`, `partnerA` → `PARTNER_A`: the GraphQL spelling of a domain name. */
export const enumValueName = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/**
 * Registers a GraphQL enum whose values are a domain vocabulary's names (its `…_NAMES` table,
 * code → name), each standing for the domain's own code: a field answers the code the domain
 * holds, and an argument of the enum arrives as that code. One vocabulary for input and output.
 * Returns the enum object for `@Field(() => …)` and `@Arg(…, () => …)`.
 */
export function domainEnum<C extends string | number>(name: string, names: Readonly<Record<C, string>>, description: string): Record<string, C> {
  const values = Object.fromEntries(Object.entries(names).map(([code, word]) => [enumValueName(word as string), codeOf<C>(code, names)]));
  registerEnumType(values, { name, description });
  return values;
}

/** A record's key as the code it was written as: object keys are strings, a numeric enum's codes numbers. */
function codeOf<C extends string | number>(key: string, names: Readonly<Record<C, string>>): C {
  const numeric = Number(key);
  return (Number.isInteger(numeric) && String(numeric) === key && (names as Record<number, string>)[numeric] !== undefined ? numeric : key) as C;
}
