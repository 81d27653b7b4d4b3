import fc from 'fast-check';
import type { Keypair } from '@stellar/stellar-sdk';
import type { GraphQLField } from 'graphql';
import { ERROR_CODES } from '../../../src/core/error-codes';
import { buildAppSchema } from '../../../src/graphql/schema';
import type { TestResponse } from '../../helpers/client';
import { createAccount, createPlatform } from '../../helpers/factories';
import { appWith } from '../../helpers/world';
import { RUNS, SEED, tally } from './answers';
import { isPayload, mutationCases } from './graphql-cases';
import { changedTables, checksums } from './tables';
import { note } from '../../helpers/notes';

function signersWorld() {
  return appWith(async (t) => {
    const platform = await createPlatform(t);
    const admin = await createAccount(t, platform, { type: 'admin' });
    const user = await createAccount(t, platform);
    return { signers: [user.keypair, admin.keypair, platform] as Keypair[] };
  });
}

/** The codes answered with a 4xx status (docs/errors.md), as a user error names them: those a payload's user errors may carry. */
const CLIENT_CODES = new Map(ERROR_CODES.filter((r) => r.status < 500).map((r) => [r.code.toUpperCase(), r.status]));

/**
 * Why a payload's answer to a bad call is wrong: no user error, one whose code is not a 4xx code,
 * or a value beside them. A payload that is null answered top-level errors: those are checked as any mutation's.
 */
function payloadFaultOf(res: TestResponse, field: string): string | null | undefined {
  const payload: { userErrors?: { code?: unknown }[] } | null | undefined = res.body?.data?.[field];
  if (!payload) return undefined;
  if (res.body?.errors) return `answered errors beside a payload: ${res.text.slice(0, 300)}`;
  const userErrors = payload.userErrors ?? [];
  if (userErrors.length === 0) return `answered a payload without user errors: ${res.text.slice(0, 300)}`;
  if (userErrors.some((e) => !CLIENT_CODES.has(String(e.code)))) return `a user error without a 4xx code: ${res.text.slice(0, 300)}`;
  return null;
}

/** Why a GraphQL answer to a bad call is wrong: a 5xx, no error, an error without a 4xx status, or a result. */
function faultOf(res: TestResponse, field: GraphQLField<unknown, unknown>): string | null {
  if (res.status >= 500) return `answered HTTP ${res.status}: ${res.text.slice(0, 300)}`;
  if (isPayload(field)) {
    const fault = payloadFaultOf(res, field.name);
    if (fault !== undefined) return fault;
  }
  const errors: { extensions?: { code?: unknown; status?: unknown } }[] | undefined = res.body?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return `answered without an error: ${res.text.slice(0, 300)}`;
  const wrong = errors.find((e) => typeof e.extensions?.status !== 'number' || e.extensions.status < 400 || e.extensions.status > 499 || typeof e.extensions.code !== 'string');
  if (wrong) return `an error without a 4xx status: ${JSON.stringify(wrong).slice(0, 300)}`;
  if (res.body?.data?.[field.name] != null) return `answered a result beside its errors: ${res.text.slice(0, 300)}`;
  return null;
}

/**
 * Registers the test of every `parts`-th mutation of the schema from the `part`-th (0-based), with
 * an app of its own: one file per part, so that the workers share the walk. Every part walks each
 * of its mutations with the same seed as the whole walk did.
 */
export function badMutationsPart(part: number, parts: number): void {
  jest.setTimeout(600_000);
  const w = signersWorld();
  test(`every GraphQL mutation of part ${part + 1} of ${parts} refuses bad arguments with 4xx errors and changes no row`, async () => {
    const t = w.t;
    const all = Object.values(buildAppSchema().getMutationType()?.getFields() ?? {});
    expect(all.length).toBeGreaterThan(30);
    const mutations = all.filter((_, i) => i % parts === part);
    const lines: string[] = [];
    const faults: string[] = [];
    const untried: string[] = [];
    let total = 0;
    for (const field of mutations) {
      const before = await checksums(t.orm);
      const statuses: number[] = [];
      const families = mutationCases(field);
      for (const [family, arb] of Object.entries(families)) {
        const result = await fc.check(
          fc.asyncProperty(arb, fc.constantFrom(...w.signers), async (c, signer) => {
            const res = await t.client.graphql(c.query, c.variables, { sign: { keypair: signer } });
            statuses.push(res.body?.errors?.[0]?.extensions?.status ?? CLIENT_CODES.get(res.body?.data?.[field.name]?.userErrors?.[0]?.code) ?? res.status);
            const fault = faultOf(res, field);
            if (fault) throw new Error(`${field.name} (${family}) ${JSON.stringify(c.variables).slice(0, 300)}: ${fault}`);
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        if (result.failed) faults.push(String((result.errorInstance as Error | undefined)?.message ?? result.counterexample));
      }
      const changed = changedTables(before, await checksums(t.orm));
      if (changed.length) faults.push(`${field.name}: rejected calls changed ${changed.join(', ')}`);
      // A mutation without arguments has no family; every other must have been called.
      if (field.args.length && !statuses.length) untried.push(field.name);
      total += statuses.length;
      lines.push(`${field.name.padEnd(28)} ${String(statuses.length).padStart(4)} tried  ${tally(statuses).padEnd(28)} ${Object.keys(families).join(' ')}`);
    }
    note(`bad input, GraphQL mutations, part ${part + 1} of ${parts} (seed ${SEED}, ${RUNS} runs per family):\n${lines.join('\n')}\n${mutations.length} mutations, ${total} inputs`);
    expect(untried).toEqual([]);
    expect(faults).toEqual([]);
  });
}
