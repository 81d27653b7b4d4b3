import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  introspectionTypes,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { introspectionSizes } from './introspection';

/** What an operation would do if run: fields resolved (lists at their bound), nesting, reads of `__schema`. */
export interface Measure {
  cost: number;
  depth: number;
  schemaReads: number;
}

/** How a data field costs: 1 plus its selection's cost times the items it answers (cost.ts). */
export type FieldCost = (field: GraphQLField<unknown, unknown>, parent: GraphQLCompositeType, args: Record<string, unknown>, childCost: number) => number;

/**
 * Selection nodes the analysis has visited since the process started: each operation and each
 * fragment of a document is walked once, so this grows by at most the document's selections per
 * check, however often its fragments are spread (the property test in test/hardening reads it).
 */
export const analysisFigures = { visits: 0 };

/** The schema's own types, by identity: graphql-js's isIntrospectionType compares names, once per field measured. */
const INTROSPECTION_TYPES: ReadonlySet<unknown> = new Set(introspectionTypes);

const NONE: Measure = { cost: 0, depth: 0, schemaReads: 0 };
const IN_PROGRESS: Measure = { cost: 0, depth: 0, schemaReads: 0 };

function included(node: SelectionNode, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return true;
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  } catch {
    // An ill-typed condition is refused by validation, which runs after this analysis.
    return true;
  }
}

function argumentsOf(field: GraphQLField<unknown, unknown>, node: SelectionNode & { kind: Kind.FIELD }, variables: Record<string, unknown>): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

/**
 * Measures the operations of a document in one pass, before validation: a fragment is measured
 * once and its measure reused at every spread, so the work is linear in the document's size
 * while the measure itself counts each spread (a chain of fragments each spreading the next
 * twice costs 2^n, and is refused as such, without expanding anything). Introspection costs the
 * size of its answer (introspection.ts) plus its fields, and adds no depth: the schema's types
 * nest `ofType` by design and read no data. The document may be invalid: what validation will
 * refuse (unknown fields and fragments, cycles, ill-typed arguments) measures 0 here.
 */
export function measureOperations(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName: string | null | undefined,
  fieldCost: FieldCost,
): Measure[] {
  const sizes = introspectionSizes(schema);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const measured = new Map<string, Measure>();

  const fragmentMeasure = (name: string): Measure => {
    const known = measured.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type || !isCompositeType(type)) return NONE;
    measured.set(name, IN_PROGRESS);
    const measure = selectionSetMeasure(fragment.selectionSet, type);
    measured.set(name, measure);
    return measure;
  };

  const fieldMeasure = (node: SelectionNode & { kind: Kind.FIELD }, parent: GraphQLCompositeType): Measure => {
    const name = node.name.value;
    if (name === '__typename') return { cost: 1, depth: 0, schemaReads: 0 };
    const field = name === SchemaMetaFieldDef.name ? SchemaMetaFieldDef : name === TypeMetaFieldDef.name ? TypeMetaFieldDef : isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (!field) return NONE;
    const type = getNamedType(field.type);
    const child = node.selectionSet && isCompositeType(type) ? selectionSetMeasure(node.selectionSet, type) : NONE;
    if (field === SchemaMetaFieldDef) return { cost: sizes.schema + child.cost, depth: 0, schemaReads: 1 + child.schemaReads };
    if (field === TypeMetaFieldDef) return { cost: sizes.largestType + child.cost, depth: 0, schemaReads: child.schemaReads };
    if (INTROSPECTION_TYPES.has(parent)) return { cost: 1 + child.cost, depth: 0, schemaReads: child.schemaReads };
    return { cost: fieldCost(field, parent, argumentsOf(field, node, variables), child.cost), depth: 1 + child.depth, schemaReads: child.schemaReads };
  };

  const selectionSetMeasure = (set: SelectionSetNode, parent: GraphQLCompositeType): Measure => {
    let cost = 0;
    let depth = 0;
    let schemaReads = 0;
    for (const selection of set.selections) {
      analysisFigures.visits++;
      if (!included(selection, variables)) continue;
      let m: Measure;
      if (selection.kind === Kind.FIELD) m = fieldMeasure(selection, parent);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) m = fragmentMeasure(selection.name.value);
      else {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        m = type && isCompositeType(type) ? selectionSetMeasure(selection.selectionSet, type) : NONE;
      }
      cost += m.cost;
      depth = Math.max(depth, m.depth);
      schemaReads += m.schemaReads;
    }
    return { cost, depth, schemaReads };
  };

  const measures: Measure[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || (operationName && definition.name?.value !== operationName)) continue;
    const root = schema.getRootType(definition.operation);
    if (root) measures.push(selectionSetMeasure(definition.selectionSet, root));
  }
  return measures;
}

/** What makes graphql-js's validation slow, whatever the operation costs: counted over every definition. */
export interface Shape {
  /** Fragment spreads in the document. */
  spreads: number;
  /** The most fields of one selection set (its inline fragments included) that answer under one name. */
  sameName: number;
}

function sameNameIn(set: SelectionSetNode, counts: Map<string, number>): number {
  let most = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      const name = s.alias?.value ?? s.name.value;
      const n = (counts.get(name) ?? 0) + 1;
      counts.set(name, n);
      most = Math.max(most, n);
    } else if (s.kind === Kind.INLINE_FRAGMENT) most = Math.max(most, sameNameIn(s.selectionSet, counts));
  }
  return most;
}

/**
 * graphql-js compares, to validate a document, each pair of fields that answer under one name in a
 * selection set, and each pair of fragments spread into one: 400 `bids { amount }` side by side,
 * or 300 fragments, took it a second, though either costs little to run. One walk counts both.
 */
export function shapeOf(document: DocumentNode): Shape {
  const shape = { spreads: 0, sameName: 0 };
  visit(document, {
    FragmentSpread() {
      shape.spreads++;
    },
    SelectionSet(set) {
      shape.sameName = Math.max(shape.sameName, sameNameIn(set, new Map()));
    },
  });
  return shape;
}
