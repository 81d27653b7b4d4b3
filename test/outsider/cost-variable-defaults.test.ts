import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';

/**
 * The cost is measured from the variables as sent; an operation's own variable defaults
 * (`$n: Int = 100`) are what execution uses when a variable is left out, but the measure falls
 * back to the field's default instead (`bids(last: Int! = 10)`). So the same operation costs a
 * tenth of itself when its page size is a variable default rather than a value sent, and passes
 * both the request limit and the live budget that refuse it otherwise.
 */
const LIMIT = 150;
const world = appWithPlatform({ env: { GRAPHQL_MAX_COST: String(LIMIT), WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: String(LIMIT), WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT: String(LIMIT) } });

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

const QUERY = 'query ($id: ID!, $n: Int! = 100) { lot(id: $id) { id bids(last: $n) { id amount createdAt } } }';
const SUBSCRIPTION = 'subscription ($lotId: ID!, $n: Int! = 100) { lotUpdated(lotId: $lotId) { id bids(last: $n) { id amount createdAt } } }';

describe('a page size given as an operation variable default', () => {
  let lotId: string;
  beforeAll(async () => {
    lotId = (await createLot(world.t, world.platform)).id;
  });

  it('costs over HTTP what the same page size sent as a variable costs: 400 query_too_costly both ways', async () => {
    const sent = await world.t.client.graphql(QUERY, { id: lotId, n: 100 });
    expect(sent.status).toBe(400);
    expect(sent.body.errors[0].extensions.code).toBe('query_too_costly');
    const defaulted = await world.t.client.graphql(QUERY, { id: lotId });
    expect({ status: defaulted.status, code: defaulted.body.errors?.[0]?.extensions?.code }).toEqual({ status: 400, code: 'query_too_costly' });
  });

  it('is charged to the live budget as the same page size sent: refused both ways on the WebSocket', async () => {
    const socket = await openRaw(world.t.port, { address: '127.0.0.51' });
    opened.push(socket);
    socket.subscribe('sent', SUBSCRIPTION, { lotId, n: 100 });
    const sent = await socket.outcome('sent', 5000);
    expect(['query_too_costly', 'subscription_budget_exceeded']).toContain(sent);
    socket.subscribe('defaulted', SUBSCRIPTION, { lotId });
    expect(await socket.outcome('defaulted', 2000)).toBe(sent);
  });
});
