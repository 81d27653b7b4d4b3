import path from 'node:path';
import ts from 'typescript';

type Schema = Record<string, unknown>;

/** Where the generated attribute schemas are committed (read by openapi.ts; `npm run openapi:emit` writes it). */
export const RESOURCE_ATTRIBUTES_FILE = 'src/rest/resource-attributes.json';

/** The files that shape REST output (docs/architecture.md: the presenters are the one place). */
const PRESENTER = /[\\/]src[\\/]modules[\\/][^\\/]+[\\/][^\\/]+\.presenter\.ts$/;

/** Past this depth a nested type is described as any value (recursive types end here). */
const MAX_DEPTH = 6;

/**
 * The JSON Schema of the attributes of every resource type the presenters make, read from their
 * TypeScript types: each `resource('<type>', id, attributes)` call and each `{type: '<type>',
 * attributes}` literal. A type made in several places takes every attribute of every place,
 * required where all of them set it. Attributes built as a plain record describe no properties.
 */
export function resourceAttributeSchemas(root: string): Record<string, Schema> {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error('tsconfig.json cannot be read');
  const files = parsed.fileNames.filter((f) => PRESENTER.test(f)).sort();
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const made = new Map<string, Schema[]>();
  const add = (types: string[], attributes: ts.Expression): void => {
    let inner = attributes;
    while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
    // `c ? a : b` types as the branch the other's type reduces to: each branch is a variant.
    if (ts.isConditionalExpression(inner)) return [inner.whenTrue, inner.whenFalse].forEach((branch) => add(types, branch));
    const schema = schemaOf(checker, checker.getTypeAtLocation(attributes), attributes, 0);
    for (const type of types) made.set(type, [...(made.get(type) ?? []), schema]);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'resource' && node.arguments.length === 3) {
      add(literalsOf(checker, node.arguments[0]), node.arguments[2]);
    } else if (ts.isObjectLiteralExpression(node)) {
      const type = propertyOf(node, 'type');
      const attributes = propertyOf(node, 'attributes');
      if (type && attributes) add(literalsOf(checker, type), attributes);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(program.getSourceFile(file) as ts.SourceFile);
  return Object.fromEntries([...made.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([type, variants]) => [type, merged(variants)]));
}

function propertyOf(node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of node.properties) {
    if (!p.name || !ts.isIdentifier(p.name) || p.name.text !== name) continue;
    if (ts.isPropertyAssignment(p)) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p)) return p.name;
  }
  return undefined;
}

/** The resource types an expression may name: its string literal types. */
function literalsOf(checker: ts.TypeChecker, node: ts.Expression): string[] {
  const type = checker.getTypeAtLocation(node);
  return (type.isUnion() ? type.types : [type]).filter((t) => t.isStringLiteral()).map((t) => (t as ts.StringLiteralType).value);
}

function schemaOf(checker: ts.TypeChecker, type: ts.Type, at: ts.Node, depth: number): Schema {
  if (depth > MAX_DEPTH || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (type.isUnion()) {
    const parts = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
    if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: 'boolean' };
    const strings = parts.filter((t) => t.isStringLiteral()).map((t) => (t as ts.StringLiteralType).value);
    const others = parts.filter((t) => !t.isStringLiteral()).map((t) => schemaOf(checker, t, at, depth));
    // Objects that are alternatives (one literal or another) are one object of all their attributes.
    const objects = others.filter((o) => o.type === 'object');
    const rest = others.filter((o) => o.type !== 'object');
    return oneOf([...(strings.length ? [strings.length === 1 ? { type: 'string', const: strings[0] } : { type: 'string', enum: strings }] : []), ...(objects.length ? [merged(objects)] : []), ...rest]);
  }
  if (type.flags & ts.TypeFlags.Null) return { type: 'null' };
  if (type.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return { type: 'string' };
  if (type.isStringLiteral()) return { type: 'string', const: type.value };
  if (type.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral | ts.TypeFlags.Enum | ts.TypeFlags.EnumLiteral)) return { type: 'number' };
  if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: 'boolean' };
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type as ts.TypeReference).map((t) => schemaOf(checker, t, at, depth + 1));
    return { type: 'array', items: oneOf(items) };
  }
  if (type.getSymbol()?.getName() === 'Date') return { type: 'string', format: 'date-time' };
  if (type.flags & ts.TypeFlags.Object) {
    const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
    const properties = checker.getPropertiesOfType(type);
    const schema: Schema = { type: 'object' };
    if (properties.length) {
      schema.properties = Object.fromEntries(properties.map((p) => [p.getName(), schemaOf(checker, checker.getTypeOfSymbolAtLocation(p, at), at, depth + 1)]));
      const required = properties.filter((p) => !(p.flags & ts.SymbolFlags.Optional)).map((p) => p.getName());
      if (required.length) schema.required = required;
    }
    if (index) schema.additionalProperties = schemaOf(checker, index, at, depth + 1);
    return schema;
  }
  return {};
}

/** One schema for alternatives: the only one, or `anyOf` the distinct ones. */
function oneOf(schemas: Schema[]): Schema {
  const unique = [...new Map(schemas.map((s) => [JSON.stringify(s), s])).values()];
  if (!unique.length) return {};
  return unique.length === 1 ? unique[0] : { anyOf: unique };
}

/** The attributes of a type made in several places: every property of any, required where all require it. */
function merged(variants: Schema[]): Schema {
  if (variants.length === 1) return variants[0];
  const properties: Record<string, Schema[]> = {};
  for (const v of variants) for (const [name, s] of Object.entries((v.properties ?? {}) as Record<string, Schema>)) (properties[name] ??= []).push(s);
  const required = Object.keys(properties).filter((name) => variants.every((v) => ((v.required ?? []) as string[]).includes(name)));
  const described = Object.fromEntries(Object.entries(properties).map(([name, schemas]) => [name, oneOf(schemas)]));
  const open = variants.some((v) => !v.properties || v.additionalProperties);
  return { type: 'object', properties: described, ...(required.length ? { required } : {}), ...(open ? { additionalProperties: true } : {}) };
}
