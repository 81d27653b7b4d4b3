import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';
import type { ConnectionPage } from './connection.helpers';

// The contact directories are ordered by name, so their windows are the only ones keyed by texts:
// an empty page (an empty directory, a cursor at either end) must answer no contact, as the REST
// twin's list does, not the row that stands for "no row" in the window's statement.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const bare = await createPlatform(t);
  const lone = await createPlatform(t);
  await createAccount(t, lone, { type: 'admin', attributes: { region: 'Imereti' } });
  await createAccount(t, lone, { type: 'broker', attributes: { region: 'Imereti' } });
  return { bare, lone };
});

/** A connection, its REST twin, and the filter both take, as GraphQL arguments and as a query string. */
type Twin = [string, string, (platform: Keypair) => [string, string]];
const TWINS: Twin[] = [
  ['adminsConnection', '/admins', (p) => [`platformId: "${p.publicKey()}"`, `filter[platform_id]=${p.publicKey()}`]],
  ['brokersConnection', '/brokers', (p) => [`platformId: "${p.publicKey()}"`, `filter[platform_id]=${p.publicKey()}`]],
  ['brokersConnection', '/brokers', (p) => [`platformId: "${p.publicKey()}", region: "imereti"`, `filter[platform_id]=${p.publicKey()}&filter[region]=imereti`]],
];

async function pageOf(field: string, args: string): Promise<ConnectionPage> {
  const body = (await world.t.client.graphql(`{ ${field}(${args}) { edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`)).body;
  expect(body.errors).toBeUndefined();
  return body.data[field];
}

async function restIds(path: string, query: string): Promise<string[]> {
  const res = await world.t.client.get(`${path}?${query}`);
  expect(res.status).toBe(200);
  return res.body.data.map((r: { id: string }) => r.id);
}

const EMPTY = { edges: [], nodes: [], pageInfo: { startCursor: null, endCursor: null } };

describe.each(TWINS)('Query.%s and GET %s', (field, path, filter) => {
  it('answer a directory without contacts with an empty page and an empty list', async () => {
    const [args, query] = filter(world.bare);
    expect(await restIds(path, query)).toEqual([]);
    for (const size of ['first: 1', 'last: 1']) {
      expect(await pageOf(field, `${args}, ${size}`)).toMatchObject({ ...EMPTY, pageInfo: { ...EMPTY.pageInfo, hasNextPage: false, hasPreviousPage: false }, totalCount: 0 });
    }
  });

  it('answer an empty page past either end, the pages holding what the list holds', async () => {
    const [args, query] = filter(world.lone);
    const all = await restIds(path, query);
    expect(all.length).toBeGreaterThan(0);
    const whole = await pageOf(field, `${args}, first: 100`);
    expect(whole.nodes.map((n) => n.id)).toEqual(all);
    const past = await pageOf(field, `${args}, first: 1, after: "${whole.pageInfo.endCursor}"`);
    expect(past).toMatchObject({ ...EMPTY, pageInfo: { ...EMPTY.pageInfo, hasNextPage: false, hasPreviousPage: true }, totalCount: all.length });
    const before = await pageOf(field, `${args}, last: 1, before: "${whole.pageInfo.startCursor}"`);
    expect(before).toMatchObject({ ...EMPTY, pageInfo: { ...EMPTY.pageInfo, hasNextPage: true, hasPreviousPage: false }, totalCount: all.length });
  });
});
