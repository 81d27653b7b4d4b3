import { nearest } from '../core/nearest';
import { DomainError, type CodeOfKind, type ErrorItem } from '../core/errors';
import { DEFAULT_TEXT_MAX, type FilterKind } from '../core/filter-kinds';
import { parseMoney, type Money } from '../core/money';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/page';
import type { Range } from '../core/range';
import { termOf } from '../core/vocabulary';

export type FilterValue = string | string[] | number | boolean | Range<number | Money>;

export type { FilterKind, Range };

export interface QuerySpec {
  plain?: Record<string, FilterKind & { required?: boolean }>;
  filters?: Record<string, FilterKind & { required?: boolean }>;
  sorts?: readonly string[];
  defaultSort?: string;
  includes?: readonly string[];
  page?: 'cursor' | 'number';
  defaultPageSize?: number;
}

export interface ParsedQuery {
  plain: Record<string, FilterValue>;
  filters: Record<string, FilterValue>;
  sort: { key: string; desc: boolean } | null;
  include: Set<string>;
  page: { cursor: string | null; limit: number } | { number: number; size: number } | null;
}

const FILTER = /^filter\[([a-zA-Z0-9_]+)\]$/;
const PAGE = /^page\[([a-z]+)\]$/;
const INTEGER = /^-?\d{1,15}$/;

type Raw = Record<string, string | string[] | undefined>;

/** A key of the spec's own: `filter[constructor]` must not find what every object inherits. */
const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined => (record && Object.hasOwn(record, key) ? record[key] : undefined);

type Parsed = { ok: true; value: FilterValue } | { ok: false; reason: string };
const ok = (value: FilterValue): Parsed => ({ ok: true, value });
const bad = (reason: string): Parsed => ({ ok: false, reason });

function parseValue(kind: FilterKind, raw: string): Parsed {
  switch (kind.kind) {
    case 'string': {
      const max = kind.max ?? DEFAULT_TEXT_MAX;
      return raw.length === 0 || raw.length > max ? bad(`must be 1 to ${max} characters`) : ok(raw);
    }
    case 'enum': {
      const term = termOf(raw, kind.values, kind);
      return term === undefined ? bad(`must be one of ${kind.values.join(', ')}`) : ok(term);
    }
    case 'list': {
      const items = raw.split(',').map((s) => s.trim());
      if (items.some((s) => s === '')) return bad('must be a comma-separated list without empty items');
      const { values, item } = kind;
      const terms = values ? items.map((s) => termOf(s, values, kind)) : items;
      const wrong = items.find((s, i) => terms[i] === undefined || (item && !item.test(s)));
      if (wrong !== undefined) return bad(`has an invalid item ${JSON.stringify(wrong)}`);
      return ok(terms as string[]);
    }
    case 'integer':
      return INTEGER.test(raw) ? ok(Number.parseInt(raw, 10)) : bad('must be an integer');
    case 'boolean':
      return raw === 'true' ? ok(true) : raw === 'false' ? ok(false) : bad('must be true or false');
    case 'range': {
      const parts = raw.split(',');
      if (parts.length !== 2 || (parts[0] === '' && parts[1] === '')) return bad('must be min,max with either end empty');
      const ends = parts.map((p) => (p === '' ? null : kind.of === 'integer' ? (INTEGER.test(p) ? Number.parseInt(p, 10) : undefined) : (parseMoney(p) ?? undefined)));
      if (ends.some((e) => e === undefined)) return bad(`ends must be ${kind.of === 'integer' ? 'integers' : 'decimals'}`);
      const [min, max] = ends as (number | Money | null)[];
      if (min !== null && max !== null && (typeof min === 'number' ? min > (max as number) : (min as Money).gt(max as Money))) {
        return bad('min must not exceed max');
      }
      return ok({ min, max });
    }
  }
}

function positiveInt(raw: string, max: number): number | null {
  if (!/^\d{1,6}$/.test(raw)) return null;
  const n = Number.parseInt(raw, 10);
  return n >= 1 && n <= max ? n : null;
}

/**
 * `; use filter[state]` when a parameter's bare name is one the endpoint takes in another form
 * (`?state=`, `filter[currency]` for `?currency=`, `?limit=`): the fix is then obvious.
 */
function placeOf(spec: QuerySpec, bare: string, given: string): string {
  const forms = [
    own(spec.filters, bare) ? `filter[${bare}]` : null,
    own(spec.plain, bare) ? bare : null,
    pageKeys(spec).includes(bare) ? `page[${bare}]` : null,
  ].filter((form) => form !== null && form !== given);
  return forms.length ? `; use ${forms.join(' or ')}` : '';
}

function pageKeys(spec: QuerySpec): string[] {
  return spec.page === 'cursor' ? ['cursor', 'limit'] : spec.page === 'number' ? ['number', 'size'] : [];
}

/** `page[size]` on a cursor listing is the other scheme's size: naming this one's parameters is the fix. */
function pagedWith(keys: readonly string[]): string {
  return keys.length ? `; it pages with ${keys.map((key) => `page[${key}]`).join(' and ')}` : '; it is not paged';
}

/** Every parameter the endpoint takes, as [bare name, the form it is written in]: `['maker', 'filter[maker]']`. */
function accepted(spec: QuerySpec): [string, string][] {
  return [
    ...Object.keys(spec.plain ?? {}).map((name): [string, string] => [name, name]),
    ...(spec.sorts?.length ? [['sort', 'sort'] as [string, string]] : []),
    ...(spec.includes?.length ? [['include', 'include'] as [string, string]] : []),
    ...pageKeys(spec).map((key): [string, string] => [key, `page[${key}]`]),
    ...Object.keys(spec.filters ?? {}).map((key): [string, string] => [key, `filter[${key}]`]),
  ];
}

/**
 * Parses a query (docs/rest.md, "Query parameters") against what the endpoint accepts. Every unknown parameter,
 * filter, include or sort key, and every malformed value, is one error naming the parameter.
 */
export function parseQuery(spec: QuerySpec, raw: Raw): ParsedQuery {
  const errors: ErrorItem[] = [];
  const fail = (parameter: string, code: CodeOfKind<'invalid'>, detail: string) => errors.push({ code, detail, source: { parameter } });
  const out: ParsedQuery = { plain: {}, filters: {}, sort: null, include: new Set(), page: null };
  const pageRaw: Record<string, string> = {};
  // The valid names are listed in the first error of each kind only: a query of a thousand unknown
  // names must not be answered with a thousand copies of the list.
  const listed = new Set<'filters' | 'parameters'>();
  const listOnce = (kind: 'filters' | 'parameters', list: string): string => (listed.has(kind) ? '' : (listed.add(kind), list));

  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      fail(name, 'duplicate_parameter', `${name} is given more than once`);
      continue;
    }
    const filter = FILTER.exec(name);
    const page = PAGE.exec(name);
    if (filter) {
      const kind = own(spec.filters, filter[1]);
      if (!kind) fail(name, 'unknown_filter', `${filter[1]} is not a filter of this endpoint${placeOf(spec, filter[1], name) || unknownFilter(filter[1])}`);
      else assign(out.filters, filter[1], kind, value, name);
    } else if (page) {
      const allowed = pageKeys(spec);
      if (!allowed.includes(page[1])) fail(name, 'unknown_parameter', `${name} is not accepted by this endpoint${placeOf(spec, page[1], name) || pagedWith(allowed)}`);
      else pageRaw[page[1]] = value;
    } else if (name === 'sort' && spec.sorts?.length) {
      const key = value.replace(/^-/, '');
      if (!spec.sorts.includes(key)) fail(name, 'unknown_sort', `sort must be one of ${spec.sorts.join(', ')}, optionally with a leading -${nearest(key, spec.sorts, (k) => (value.startsWith('-') ? `-${k}` : k))}`);
      else out.sort = { key, desc: value.startsWith('-') };
    } else if (name === 'include' && spec.includes?.length) {
      const names = value.split(',').map((s) => s.trim());
      const bad = names.filter((n) => !spec.includes?.includes(n));
      if (bad.length) fail(name, 'unknown_include', `unknown include ${bad.join(', ')}${bad.length === 1 ? nearest(bad[0], spec.includes) : ''}; allowed: ${spec.includes.join(', ')}`);
      else names.forEach((n) => out.include.add(n));
    } else {
      const kind = own(spec.plain, name);
      if (kind) assign(out.plain, name, kind, value, name);
      else fail(name, 'unknown_parameter', `${name} is not accepted by this endpoint${placeOf(spec, name, name) || unknownParameter(name)}`);
    }
  }

  for (const [where, kinds] of [['filter', spec.filters], ['plain', spec.plain]] as const) {
    for (const [key, kind] of Object.entries(kinds ?? {})) {
      const target = where === 'filter' ? out.filters : out.plain;
      const parameter = where === 'filter' ? `filter[${key}]` : key;
      if (kind.required && target[key] === undefined && !errors.some((e) => e.source && 'parameter' in e.source && e.source.parameter === parameter)) {
        fail(parameter, 'missing_parameter', `${parameter} is required`);
      }
    }
  }

  if (!out.sort && spec.defaultSort) {
    out.sort = { key: spec.defaultSort.replace(/^-/, ''), desc: spec.defaultSort.startsWith('-') };
  }

  if (spec.page === 'cursor') {
    const limit = pageRaw.limit === undefined ? DEFAULT_PAGE_SIZE : positiveInt(pageRaw.limit, MAX_PAGE_SIZE);
    if (limit === null) fail('page[limit]', 'invalid_page', `page[limit] must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    out.page = { cursor: pageRaw.cursor ?? null, limit: limit ?? DEFAULT_PAGE_SIZE };
  } else if (spec.page === 'number') {
    const number = pageRaw.number === undefined ? 0 : /^\d{1,9}$/.test(pageRaw.number) ? Number(pageRaw.number) : null;
    const size = pageRaw.size === undefined ? (spec.defaultPageSize ?? DEFAULT_PAGE_SIZE) : positiveInt(pageRaw.size, MAX_PAGE_SIZE);
    if (number === null) fail('page[number]', 'invalid_page', 'page[number] must be an integer from 0');
    if (size === null) fail('page[size]', 'invalid_page', `page[size] must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    out.page = { number: number ?? 0, size: size ?? DEFAULT_PAGE_SIZE };
  }

  if (errors.length) throw new DomainError('invalid', errors as [ErrorItem, ...ErrorItem[]]);
  return out;

  function unknownFilter(given: string): string {
    const filters = Object.keys(spec.filters ?? {});
    if (!filters.length) return '; it has no filters';
    return `${nearest(given, filters)}${listOnce('filters', `; its filters: ${filters.join(', ')}`)}`;
  }

  function unknownParameter(given: string): string {
    const names = accepted(spec);
    if (!names.length) return '; it takes no query parameters';
    const formOf = (bare: string) => names.find(([name]) => name === bare)?.[1] ?? bare;
    return `${nearest(given, names.map(([bare]) => bare), formOf)}${listOnce('parameters', `; it takes ${names.map(([, form]) => form).join(', ')}`)}`;
  }

  function assign(target: Record<string, FilterValue>, key: string, kind: FilterKind, value: string, parameter: string) {
    const parsed = parseValue(kind, value);
    if (parsed.ok) target[key] = parsed.value;
    else fail(parameter, 'invalid_parameter', `${parameter} ${parsed.reason}`);
  }
}
