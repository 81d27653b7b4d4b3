import { execute, parse } from 'graphql';
import type { RequestContext } from '../../src/core/context';
import { graphqlContext } from '../../src/graphql/context';
import { buildAppSchema } from '../../src/graphql/schema';
import { appWithPlatform } from '../helpers/world';
import { auction, bid, probeBid, ready, socketsClosedAfterEach, until } from './support';

const world = appWithPlatform({ accounts: 2 });
const sockets = socketsClosedAfterEach();

describe('the context of a subscription', () => {
  it('is left unchanged by the resolvers of every subscription (lotUpdated included)', async () => {
    const schema = buildAppSchema();
    const lotId = await auction(world.t, world.platform, []);
    const ctx: RequestContext = { requestId: 'event-context', caller: null, provenKey: null, jwtSubject: null, em: world.t.orm.em.fork(), local: false, address: '127.0.0.1' };
    const { services } = world.t.app;
    const events: [string, unknown][] = [
      ['subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid bids { id } } }', await services.lots.get(ctx, { id: lotId })],
      ['subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount bidderId } }', { ...probeBid(lotId), bidderId: null }],
      ['subscription { notificationAdded { id typeStr } }', { id: '1', recipient: 'r', type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }],
    ];
    for (const [query, rootValue] of events) {
      const context = graphqlContext({ ...ctx, em: ctx.em.fork() }, services);
      const before = { ...context, ctx: { ...context.ctx } };
      // Frozen: a resolver assigning to it fails the execution instead of going unnoticed.
      Object.freeze(context);
      Object.freeze(context.ctx);
      const result = await execute({ schema, document: parse(query), rootValue, contextValue: context, variableValues: { lotId } });
      expect({ query, errors: result.errors }).toEqual({ query, errors: undefined });
      expect(Object.keys(context)).toEqual(Object.keys(before));
      for (const key of Object.keys(before) as (keyof typeof before)[]) if (key !== 'ctx') expect(context[key]).toBe(before[key]);
      for (const key of Object.keys(before.ctx) as (keyof RequestContext)[]) expect(context.ctx[key]).toBe(before.ctx[key]);
    }
  });

  it('gives each lotUpdated event fresh reads of the nested fields', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    const socket = await sockets.open(world.t);
    const feed = socket.subscribe('subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid bids { amount } } }', { lotId });
    await ready(feed, () => world.t.app.services.live.publishLotChanged(lotId));
    // By the highest bid: a probe of `ready` still loading may arrive after it returned.
    const after = (highestBid: string) => feed.events.find((e) => e.highestBid === highestBid);
    await bid(world.t, world.accounts[0].keypair, lotId, { amount: '1000' });
    await until(() => after('1000.00') !== undefined, 5000, () => 'the first change');
    await bid(world.t, world.accounts[1].keypair, lotId, { amount: '1050' });
    await until(() => after('1050.00') !== undefined, 5000, () => 'the second change');
    expect(after('1000.00')?.bids).toEqual([{ amount: '1000.00' }]);
    expect(after('1050.00')?.bids).toEqual([{ amount: '1000.00' }, { amount: '1050.00' }]);
  });
});
