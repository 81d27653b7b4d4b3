import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWith, twoPlatforms } from '../helpers/world';
import { auction, bid, connect, until, type Socket } from '../live/support';

// The types whose id names a value, a question or the caller (reference entries, conversions, the
// viewer, a live bid event) refetch by node(id:) as their own query or subscription answers them,
// with its checks: nobody refetches what their own operation would not show them.

const world = appWith(async (t) => {
  const two = await twoPlatforms(t);
  const bidders = [await createAccount(t, two.platform), await createAccount(t, two.platform)];
  const lotId = await auction(t, two.platform, bidders.map((b) => b.id));
  // A max bid answered by proxy in the request of the rival's bid: that bid's event announces the proxy's amount as the highest.
  await bid(t, bidders[0].keypair, lotId, { max_amount: '3000' });
  await bid(t, bidders[1].keypair, lotId, { amount: '1200' });
  return { ...two, bidders, lotId };
});

type Client = typeof world.t.client;
const forged = (type: string, key: string) => Buffer.from(`${type}:${key}`).toString('base64url');
const node = (client: Client, id: string, fields: string) => client.graphql(`query($id: ID!) { node(id: $id) { __typename ${fields} } }`, { id });
const codeOf = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code;

async function data(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const res = await client.graphql(query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

describe('node(id:) of reference entries', () => {
  const FUEL = 'nodeId id value verbose';
  const ENTRY = 'nodeId id verbose';

  it('refetches every fuel type and every entry of both lists as the lists answer them', async () => {
    const lists = await data(world.t.client, `{ fuelTypes { ${FUEL} } wheelPositions { ${ENTRY} } transmissionTypes { ${ENTRY} } }`);
    const every = [...lists.fuelTypes.map((f: object) => ['FuelType', FUEL, f]), ...[...lists.wheelPositions, ...lists.transmissionTypes].map((e: object) => ['EnumEntry', ENTRY, e])];
    expect(every.length).toBeGreaterThan(10);
    const ids = every.map(([, , e]) => (e as { nodeId: string }).nodeId);
    expect(new Set(ids).size).toBe(ids.length);
    const { nodes } = await data(world.t.client, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on FuelType { ${FUEL} } ... on EnumEntry { ${ENTRY} } } }`, { ids });
    expect(nodes).toEqual(every.map(([type, , e]) => ({ __typename: type, ...(e as object) })));
  });

  it('names the list in an entry id: an id of one list is no entry of another, nor of a list that does not exist', async () => {
    const { wheelPositions } = await data(world.t.client, '{ wheelPositions { nodeId id } }');
    const { id } = wheelPositions[0];
    expect(Buffer.from(wheelPositions[0].nodeId, 'base64url').toString('utf8')).toBe(`EnumEntry:wheel_positions:${id}`);
    for (const key of [`transmission_types:${id}`, `makers:${id}`, id, `wheel_positions:${id.toLowerCase()}`, 'constructor:x', '__proto__:LEFT', ':']) {
      const res = await node(world.t.client, forged('EnumEntry', key), '... on EnumEntry { id }');
      expect({ key, node: res.body.data.node, code: codeOf(res), status: res.body.errors[0].extensions.status }).toEqual({ key, node: null, code: 'enum_entry_not_found', status: 404 });
    }
    const fuel = await node(world.t.client, forged('FuelType', 'KEROSENE'), '... on FuelType { id }');
    expect([fuel.body.data.node, codeOf(fuel)]).toEqual([null, 'fuel_type_not_found']);
  });
});

describe('node(id:) of a conversion', () => {
  const FIELDS = '... on ConvertedCurrency { nodeId id amount currency }';

  it('asks the question its id names again, as convert answers it', async () => {
    const { convert } = await data(world.t.client, `{ convert(from: "USD", to: "EUR", amount: "110.5") { nodeId id amount currency } }`);
    expect(convert.id).toBe('USD-EUR-110.50');
    const res = await node(world.t.client, convert.nodeId, FIELDS);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.node).toEqual({ __typename: 'ConvertedCurrency', ...convert });
  });

  it('reads the rates once for many conversions', async () => {
    const sentFor = async (amounts: string[]) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await world.t.client.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { ... on ConvertedCurrency { id } } }', { ids: amounts.map((a) => forged('ConvertedCurrency', `USD-GEL-${a}`)) });
      });
      expect(answer.body.data.nodes).toEqual(amounts.map((a) => ({ id: `USD-GEL-${a}` })));
      return sent.length;
    };
    const one = await sentFor(['1.00']);
    expect(one).toBeGreaterThan(0);
    expect(await sentFor(Array.from({ length: 100 }, (_, i) => `${i + 1}.00`))).toBe(one);
  });

  it('answers a question convert refuses, or no question, as no global id, naming the argument', async () => {
    for (const key of ['USD-XYZ-1.00', 'USD-EUR-1.001', 'USD-EUR', 'USD-EUR-1.00-2', 'USD-EUR-abc', '--', 'USD-EUR-99999999999999999999999.00']) {
      const res = await world.t.client.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', { ids: [forged('ConvertedCurrency', 'USD-EUR-1.00'), forged('ConvertedCurrency', key)] });
      expect({ key, nodes: res.body.data.nodes }).toEqual({ key, nodes: [{ __typename: 'ConvertedCurrency' }, null] });
      expect({ key, code: codeOf(res), status: res.body.errors[0].extensions.status, field: res.body.errors[0].extensions.errors[0].field }).toEqual({
        key,
        code: 'invalid_node_id',
        status: 400,
        field: 'ids.1',
      });
    }
  });
});

describe('node(id:) of the viewer', () => {
  it('refetches the viewer by itself, as viewer answers it', async () => {
    const asBidder = world.t.client.as(world.bidders[0].keypair);
    const { viewer } = await data(asBidder, '{ viewer { nodeId id account { id email } } }');
    expect(viewer.id).toBe(world.bidders[0].id);
    const res = await node(asBidder, viewer.nodeId, '... on Viewer { nodeId id account { id email } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.node).toEqual({ __typename: 'Viewer', ...viewer });
  });

  it("answers another account's viewer as no viewer to everyone, its platform's admin included, and asks an anonymous caller to sign in", async () => {
    const { viewer } = await data(world.t.client.as(world.bidders[0].keypair), '{ viewer { nodeId } }');
    for (const [who, as] of [['other bidder', world.bidders[1].keypair], ['its admin', world.admin.keypair], ['its platform', world.platform], ['another admin', world.otherAdmin.keypair]] as const) {
      const res = await node(world.t.client.as(as as Keypair), viewer.nodeId, '... on Viewer { id account { email } }');
      expect({ who, node: res.body.data.node, code: codeOf(res) }).toEqual({ who, node: null, code: 'viewer_not_found' });
    }
    const anonymous = await node(world.t.client, viewer.nodeId, '... on Viewer { id }');
    expect([anonymous.body.data.node, anonymous.body.errors[0].extensions.status]).toEqual([null, 401]);
  });
});

describe('node(id:) of a bid event', () => {
  const FIELDS = 'nodeId id lotId amount highestBid bidderId placedByProxy createdAt endTime';
  const sockets: Socket[] = [];
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.dispose()));
  });

  /** The lot's bids as a replay of bidPlaced shows them to `as` (anonymous without). */
  async function replayed(as?: Keypair): Promise<Record<string, unknown>[]> {
    const socket = connect(world.t, as);
    sockets.push(socket);
    const feed = socket.subscribe(`subscription($lotId: ID!) { bidPlaced(lotId: $lotId, after: "0") { ${FIELDS} } }`, { lotId: world.lotId });
    await until(() => feed.events.length >= 3 || feed.errors.length > 0, 10_000, () => `${feed.events.length} of 3 bids replayed`);
    expect(feed.errors).toEqual([]);
    return feed.events;
  }

  it('refetches each bid as bidPlaced replays it to the same caller: the bidder named to itself and the publisher staff only', async () => {
    const readers: [string, Keypair | undefined, (string | null)[]][] = [
      ['max bidder', world.bidders[0].keypair, [world.bidders[0].id, null, world.bidders[0].id]],
      ['rival', world.bidders[1].keypair, [null, world.bidders[1].id, null]],
      ['publisher admin', world.admin.keypair, [world.bidders[0].id, world.bidders[1].id, world.bidders[0].id]],
      ['publisher', world.platform, [world.bidders[0].id, world.bidders[1].id, world.bidders[0].id]],
      ['another platform admin', world.otherAdmin.keypair, [null, null, null]],
      ['anonymous', undefined, [null, null, null]],
    ];
    for (const [who, as, bidders] of readers) {
      const events = await replayed(as);
      expect({ who, bidders: events.map((e) => e.bidderId) }).toEqual({ who, bidders });
      const client = as ? world.t.client.as(as) : world.t.client;
      const { nodes } = await data(client, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on BidEvent { ${FIELDS} } } }`, { ids: events.map((e) => e.nodeId) });
      expect({ who, nodes }).toEqual({ who, nodes: events.map((e) => ({ __typename: 'BidEvent', ...e })) });
    }
  });

  it("announces, in a refetched event, the highest bid once its request committed: the proxy's answer to the rival's bid", async () => {
    const events = await replayed(world.admin.keypair);
    expect(events.map((e) => [e.amount, e.highestBid, e.placedByProxy])).toEqual([
      ['1000.00', '1000.00', false],
      ['1200.00', '1250.00', false],
      ['1250.00', '1250.00', true],
    ]);
    const res = await node(world.t.client, events[1].nodeId as string, `... on BidEvent { amount highestBid }`);
    expect(res.body.data.node).toEqual({ __typename: 'BidEvent', amount: '1200.00', highestBid: '1250.00' });
  });

  it('reads many bid events in as many statements as one', async () => {
    const events = await replayed(world.admin.keypair);
    const sentFor = async (ids: string[]) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await world.t.client.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { ... on BidEvent { id highestBid } } }', { ids });
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.nodes.map((n: { id: string }) => n.id)).toEqual(ids.map((id) => Buffer.from(id, 'base64url').toString('utf8').split(':')[1]));
      return sent.length;
    };
    const ids = events.map((e) => e.nodeId as string);
    expect(await sentFor([...ids, ...ids, ...ids])).toBe(await sentFor(ids.slice(0, 1)));
  });

  it('answers a bid id of no bid, or of no form, as no bid, never a 500', async () => {
    for (const key of ['987654321', '-1', 'abc', "1' or 1=1", '9'.repeat(30)]) {
      const res = await node(world.t.client, forged('BidEvent', key), '... on BidEvent { id }');
      expect({ key, node: res.body.data.node, code: codeOf(res), status: res.body.errors[0].extensions.status }).toEqual({ key, node: null, code: 'bid_not_found', status: 404 });
    }
  });
});
