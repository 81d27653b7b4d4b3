import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RESOURCE_ATTRIBUTES_FILE, resourceAttributeSchemas } from '../../src/rest/resource-attributes';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { fileRequest } from '../requests/requests.helpers';

const world = appWithPlatform({ accounts: 1 });
const root = path.resolve(__dirname, '..', '..');
type Schema = Record<string, any>;
let doc: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

beforeAll(async () => {
  doc = (await world.t.client.get('/openapi.json', { headers: { connection: 'close' } })).body;
});

/** Where `value` breaks `schema` (the keywords the generated schemas use), as `path: why` lines. */
function faults(schema: Schema, value: unknown, at = 'attributes'): string[] {
  if (schema.anyOf) return schema.anyOf.some((s: Schema) => !faults(s, value, at).length) ? [] : [`${at}: matches no alternative of ${JSON.stringify(schema.anyOf)}`];
  if ('const' in schema && value !== schema.const) return [`${at}: is not ${schema.const}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: is not one of ${schema.enum}`];
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (schema.type && schema.type !== kind) return [`${at}: is ${kind}, not ${schema.type}`];
  if (kind === 'array' && schema.items) return (value as unknown[]).flatMap((v, i) => faults(schema.items, v, `${at}[${i}]`));
  if (kind !== 'object') return [];
  const object = value as Record<string, unknown>;
  const properties: Record<string, Schema> = schema.properties ?? {};
  const extra = (name: string, v: unknown): string[] => {
    if (typeof schema.additionalProperties === 'object') return faults(schema.additionalProperties, v, `${at}.${name}`);
    return schema.additionalProperties === true || !schema.properties ? [] : [`${at}.${name}: is not described`];
  };
  return [
    ...((schema.required ?? []) as string[]).filter((name) => !(name in object)).map((name) => `${at}.${name}: is missing`),
    ...Object.entries(object).flatMap(([name, v]) => (name in properties ? faults(properties[name], v, `${at}.${name}`) : extra(name, v))),
  ];
}

/** The attributes schema of the resources the operation answers, as the served document states it. */
function attributesOf(route: string, method = 'get'): Schema {
  const data = doc.paths[route][method].responses['200'].content['application/vnd.api+json'].schema.properties.data;
  const ref: string = (data.items ?? data).$ref;
  expect(ref).toMatch(/^#\/components\/schemas\/[a-z_]+$/);
  return doc.components.schemas[ref.split('/').pop() as string].allOf[1].properties.attributes;
}

describe('the attributes of response resources in the OpenAPI document', () => {
  it('are what the presenters’ types give (run `npm run openapi:attributes` after changing a presenter)', () => {
    const committed = JSON.parse(readFileSync(path.join(root, RESOURCE_ATTRIBUTES_FILE), 'utf8'));
    expect(resourceAttributeSchemas(root)).toEqual(committed);
    expect(Object.keys(committed)).toEqual(expect.arrayContaining(['lots', 'accounts', 'saved_searches', 'bid_logs', 'notifications', 'create_lot_requests', 'platform_rules']));
  });

  it('describe every attribute real responses carry, with its type, and the required ones are there', async () => {
    const me = world.accounts[0];
    const client = world.t.client.as(me.keypair);
    // A saved search the lot matches: a notification to read.
    expect((await client.post(`/accounts/${me.id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter: { maker: 'Toyota' } } } })).status).toBe(201);
    const lot = await createLot(world.t, world.platform);
    const request = await fileRequest(world.t, me.keypair);
    const cases: [string, string, () => Promise<{ status: number; body: any }>][] = [
      ['/lots', 'lots', () => world.t.client.get('/lots')],
      ['/lots/{id}', 'lots', () => world.t.client.get(`/lots/${lot.id}`)],
      ['/accounts/{id}', 'accounts', () => client.get(`/accounts/${me.id}`)],
      ['/accounts/{id}/saved_searches', 'saved_searches', () => client.get(`/accounts/${me.id}/saved_searches`)],
      ['/notifications', 'notifications', () => client.get('/notifications')],
      ['/lots/{id}/bid_log', 'bid_logs', () => world.t.client.get(`/lots/${lot.id}/bid_log`)],
      ['/enums/makers', 'makers', () => world.t.client.get('/enums/makers')],
      ['/requests/{id}', 'create_lot_requests', () => client.get(`/requests/${request.id}`)],
      ['/platforms/{id}/rules', 'platform_rules', () => world.t.client.as(world.platform).get(`/platforms/${world.platform.publicKey()}/rules`)],
    ];
    for (const [route, type, fetch] of cases) {
      const res = await fetch();
      expect(`${route} ${res.status}`).toBe(`${route} 200`);
      const resources = Array.isArray(res.body.data) ? res.body.data : [res.body.data];
      expect(`${route} ${resources.length > 0}`).toBe(`${route} true`);
      const schema = attributesOf(route);
      expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
      for (const r of resources) {
        expect(r.type).toBe(type);
        expect([route, faults(schema, r.attributes)]).toEqual([route, []]);
      }
    }
  });

  it('catches an attribute the schema does not describe, or of another type', () => {
    const schema = attributesOf('/lots/{id}/bid_log');
    expect(faults(schema, { entries: [], head: null, signer: 'G', extra: 1 })).toEqual(['attributes.extra: is not described']);
    expect(faults(schema, { entries: [], head: null, signer: 7 })).toEqual(['attributes.signer: is number, not string']);
    expect(faults(schema, { entries: [], head: null })).toEqual(['attributes.signer: is missing']);
  });
});
