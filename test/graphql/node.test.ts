import { parse } from 'graphql';
import { checkCost } from '../../src/graphql/cost';
import { buildAppSchema } from '../../src/graphql/schema';
import { FIELD_STATEMENT_COST } from '../../src/graphql/statement-cost';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { fileRequest } from '../requests/requests.helpers';

// node(id:) refetches what a type's own query answers, and refuses what it refuses.

const world = appWithTwoPlatforms();
let user: CreatedAccount;
let lotId: string;
let requestId: string;

beforeAll(async () => {
  const { t, platform } = world;
  user = await createAccount(t, platform);
  lotId = String((await createLot(t, platform, { ...ENG_LOT, reserve_price: '3000' })).id);
  requestId = String((await fileRequest(t, user.keypair)).id);
});

/** A global id as a client could forge one: the form is no secret, the checks behind it are the point. */
const forged = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64url');
const codeOf = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code;

describe('node(id:)', () => {
  it('answers the lot as lot(id:) does, its reserve redacted alike, under the type’s own id', async () => {
    const fields = 'id state prices { start { amount } reserve { amount } }';
    for (const client of [world.t.client, world.t.client.as(world.platform)]) {
      const direct = await client.graphql(`query($id: ID!) { lot(id: $id) { nodeId ${fields} } }`, { id: lotId });
      const { nodeId, ...lot } = direct.body.data.lot;
      const refetched = await client.graphql(`query($id: ID!) { node(id: $id) { __typename nodeId ... on Lot { ${fields} } } }`, { id: nodeId });
      expect(refetched.body.errors).toBeUndefined();
      expect(refetched.body.data.node).toEqual({ __typename: 'Lot', nodeId, ...lot });
    }
    const staff = await world.t.client.as(world.platform).graphql(`query($id: ID!) { lot(id: $id) { prices { reserve { amount } } } }`, { id: lotId });
    expect(staff.body.data.lot.prices.reserve).toEqual({ amount: '3000.00' });
  });

  it('refuses another platform’s staff a request as request(id:) does, and answers its own staff', async () => {
    const byNode = (client: typeof world.t.client) => client.graphql(`query($id: ID!) { node(id: $id) { ... on CreateLotRequest { id requestor } } }`, { id: forged('CreateLotRequest', requestId) });
    const byQuery = (client: typeof world.t.client) => client.graphql(`query($id: ID!) { request(id: $id) { id requestor } }`, { id: requestId });
    for (const client of [world.t.client.as(world.admin.keypair), world.t.client.as(user.keypair)]) {
      expect((await byNode(client)).body.data.node).toEqual({ id: requestId, requestor: user.id });
    }
    for (const client of [world.t.client.as(world.otherAdmin.keypair), world.t.client.as(world.otherPlatform), world.t.client]) {
      const [node, query] = [await byNode(client), await byQuery(client)];
      expect(node.body.data.node).toBeNull();
      expect(codeOf(node)).toBeDefined();
      expect(codeOf(node)).toBe(codeOf(query));
      expect(JSON.stringify(node.body)).not.toContain(user.id);
    }
  });

  it('shows an account as account(id:) does: the public view to another platform’s staff', async () => {
    const fields = 'id email firstName';
    for (const client of [world.t.client.as(world.otherAdmin.keypair), world.t.client.as(world.admin.keypair), world.t.client.as(user.keypair)]) {
      const direct = (await client.graphql(`query($id: String!) { account(id: $id) { nodeId ${fields} } }`, { id: user.id })).body.data.account;
      const { nodeId, ...account } = direct;
      expect(nodeId).toBe(forged('Account', user.id));
      const refetched = await client.graphql(`query($id: ID!) { node(id: $id) { ... on Account { ${fields} } } }`, { id: nodeId });
      expect(refetched.body.errors).toBeUndefined();
      expect(refetched.body.data.node).toEqual(account);
    }
    const other = (await world.t.client.as(world.otherAdmin.keypair).graphql(`query($id: ID!) { node(id: $id) { ... on Account { email } } }`, { id: forged('Account', user.id) })).body.data.node;
    expect(other).toEqual({ email: null });
  });

  it('refuses an id of a type it does not refetch, a lot id passed as another type’s, and anything not a global id', async () => {
    const ask = (id: string) => world.t.client.as(world.otherAdmin.keypair).graphql(`query($id: ID!) { node(id: $id) { nodeId } }`, { id });
    for (const id of [forged('WatchlistEntry', '1'), forged('Node', lotId), forged('Lot', ''), forged('', lotId), `Lot:${lotId}`, lotId, '', 'x'.repeat(600)]) {
      const res = await ask(id);
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_node_id', status: 400, errors: [expect.objectContaining({ field: 'id' })] }) })]);
    }
    // The lot's own id named as a request: the request query's refusal, not the lot.
    const asRequest = await ask(forged('CreateLotRequest', lotId === requestId ? '999999' : lotId));
    expect(asRequest.body.data.node).toBeNull();
    expect(codeOf(asRequest)).toBe(codeOf(await world.t.client.as(world.otherAdmin.keypair).graphql(`{ request(id: "${lotId === requestId ? '999999' : lotId}") { id } }`)));
    // A malformed id of a type is refused as the type's own query refuses it, never a 500.
    const malformed = await ask(forged('Lot', "1' or 1=1"));
    expect(codeOf(malformed)).toBe(codeOf(await world.t.client.graphql(`{ lot(id: "1' or 1=1") { id } }`)));
    expect(malformed.body.errors[0].extensions.status).toBeLessThan(500);
  });
});

describe('nodes(ids:)', () => {
  it('answers in the order given, a refused one null with its error at its index', async () => {
    const ids = [forged('Account', user.id), forged('CreateLotRequest', requestId), forged('Lot', lotId)];
    const res = await world.t.client.as(world.otherAdmin.keypair).graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename nodeId } }`, { ids });
    expect(res.body.data.nodes).toEqual([{ __typename: 'Account', nodeId: ids[0] }, null, { __typename: 'Lot', nodeId: ids[2] }]);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['nodes', 1] })]);
  });

  it('keeps a refused id in its place in every run, once the document is compiled too', async () => {
    // A malformed id fails at once, before the lot ahead of it is read: the order of settling is not the order of the list.
    const ids = [forged('Lot', lotId), 'not a global id'];
    for (let run = 1; run <= 5; run++) {
      const res = await world.t.client.graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }`, { ids });
      expect({ run, nodes: res.body.data.nodes }).toEqual({ run, nodes: [{ __typename: 'Lot' }, null] });
      expect({ run, path: res.body.errors[0].path, code: res.body.errors[0].extensions.code }).toEqual({ run, path: ['nodes', 1], code: 'invalid_node_id' });
    }
  });

  it('takes at most 100 ids, and costs each id given with its statement', async () => {
    const res = await world.t.client.graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }`, { ids: Array.from({ length: 101 }, () => forged('Lot', lotId)) });
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'too_many_items', errors: [expect.objectContaining({ field: 'ids' })] }) })]);
    const schema = buildAppSchema();
    const cost = checkCost(schema, parse('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }'), { ids: ['a', 'b', 'c'] }, undefined, { maxCost: 1e9, maxDepth: 15, maxTokens: 5000 });
    expect(cost).toBe(1 + 3 * (1 + FIELD_STATEMENT_COST));
  });
});
