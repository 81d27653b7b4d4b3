import { parse, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../core/errors';
import { assertVariablesBounded, checkCost, type CostLimits } from './cost';
import { PassedOperations } from './passed-operations';

/** Query texts remembered as within the limits, in characters: a few hundred ordinary queries. */
const PASSED_TEXTS_SIZE = 4 * 2 ** 20;

interface Operation {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

/** The operation of a JSON POST to /graphql, when it has the shape Apollo reads; else null. */
function operationOf(body: unknown): Operation | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') return null;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  return { query, variables: (variables ?? undefined) as Record<string, unknown> | undefined, operationName: operationName ?? undefined };
}

/**
 * The cost limit at the HTTP edge, before Apollo: a POSTed operation over the limits is refused
 * for the price of its parse and the one-pass measure. Inside Apollo the same refusal also took
 * its pipeline, a validation, its error formatting and a syntax tree with every token's location
 * (1.6 MB for a 17.5 KB document): ten such POSTs at once held the event loop for about 80 ms
 * and filled the old generation, whose collections stalled every other request.
 *
 * What the gate cannot read (a persisted query sent by its hash alone, a body Apollo will
 * refuse, a text that does not parse) goes on to Apollo, whose plugin (cost.ts) measures it
 * there; what the gate admitted is not measured again. A text that passed is remembered with
 * its variables, so that asking it again costs a lookup, not a parse.
 */
export class CostGate {
  private readonly passed = new PassedOperations(new LRUCache<string, Map<string, number>>({ maxSize: PASSED_TEXTS_SIZE, sizeCalculation: (_, text) => Math.max(1, text.length) }));
  private readonly admitted = new WeakSet<object>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: CostLimits,
  ) {}

  /** The refusal of the body's operation, or null: admitted, or left to Apollo. */
  refusal(body: unknown): DomainError | null {
    const operation = operationOf(body);
    if (!operation) return null;
    try {
      if (this.admits(operation)) this.admitted.add(body as object);
      return null;
    } catch (err) {
      if (err instanceof DomainError) return err;
      throw err;
    }
  }

  /** Throws the refusal of an operation over the limits; false for a text that does not parse. */
  private admits({ query, variables, operationName }: Operation): boolean {
    // Before anything recurses into the variables (JSON of them, the measure).
    assertVariablesBounded(variables);
    const key = this.passed.keyOf(operationName, variables);
    if (this.passed.costOf(query, key) !== undefined) return true;
    let document;
    try {
      document = parse(query, { noLocation: true, maxTokens: this.limits.maxTokens });
    } catch {
      return false;
    }
    this.passed.add(query, key, checkCost(this.schema, document, variables, operationName, this.limits));
    return true;
  }

  /** Whether this body's operation was admitted by the gate (Apollo's request keeps the body it was given). */
  admittedAlready(body: unknown): boolean {
    return typeof body === 'object' && body !== null && this.admitted.has(body);
  }
}
