import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';
import { probeBid, until } from '../live/support';

// `bidPlaced { id amount }` costs 3: an address runs three at once, an account two.
const world = appWithPlatform({ accounts: 2, env: { WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: '10', WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT: '7' } });
const BIDS = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount } }';

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

async function open(address: string, accountId?: string): Promise<RawSocket> {
  const socket = await openRaw(world.t.port, { address, token: accountId ? await bearerFor(world.t, accountId) : undefined });
  opened.push(socket);
  return socket;
}

/** Subscribes and answers 'live' once a probe bid reached it, or the code that refused it. */
async function outcome(r: RawSocket, id: string, lotId: string): Promise<string> {
  r.subscribe(id, BIDS, { lotId });
  let code = 'running';
  await until(
    () => {
      const error = r.messages.find((m) => m.id === id && m.type === 'error');
      if (error) code = error.payload[0]?.extensions?.code ?? 'no code';
      else if (r.nexts(id).length) code = 'live';
      else world.t.app.services.live.publishBid(probeBid(lotId));
      return code !== 'running';
    },
    5000,
    () => `subscription ${id} to start or fail`,
  );
  return code;
}

/** Waits until the server saw the end of the client's subscriptions (their `complete` has no answer). */
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('the live cost budget of an address and of an account', () => {
  let lotId: string;
  beforeAll(async () => {
    lotId = (await createLot(world.t, world.platform)).id;
  });

  it('refuses the subscription that would take an address over its budget; another address is still admitted', async () => {
    const a = await open('127.0.0.11');
    expect([await outcome(a, '1', lotId), await outcome(a, '2', lotId), await outcome(a, '3', lotId)]).toEqual(['live', 'live', 'live']);
    // Another socket of the same address shares its budget.
    const b = await open('127.0.0.11');
    expect(await outcome(b, '4', lotId)).toBe('subscription_budget_exceeded');
    const refusal = b.messages.find((m) => m.id === '4' && m.type === 'error').payload[0];
    expect(refusal.message).toMatch(/one address may cost 10 at once; this one costs 3, and 9 are taken/);
    expect(refusal.extensions).toMatchObject({ code: 'subscription_budget_exceeded', status: 400 });
    const other = await open('127.0.0.12');
    expect(await outcome(other, '1', lotId)).toBe('live');
  });

  it('gives the cost back when the client completes a subscription, and when a socket closes', async () => {
    const a = await open('127.0.0.13');
    const b = await open('127.0.0.13');
    expect([await outcome(a, '1', lotId), await outcome(a, '2', lotId), await outcome(b, '3', lotId)]).toEqual(['live', 'live', 'live']);
    expect(await outcome(b, '4', lotId)).toBe('subscription_budget_exceeded');
    a.complete('1');
    await settle();
    expect(await outcome(b, '5', lotId)).toBe('live');
    expect(await outcome(b, '6', lotId)).toBe('subscription_budget_exceeded');
    a.socket.close();
    await a.closed;
    await settle();
    // b runs 3 and 5; a's 2 is given back.
    expect(await outcome(b, '7', lotId)).toBe('live');
    expect(await outcome(b, '8', lotId)).toBe('subscription_budget_exceeded');
  });

  it('gives the cost back when a subscription ends with an error, and when a completed id is reused', async () => {
    const a = await open('127.0.0.14');
    for (let i = 0; i < 10; i++) {
      a.subscribe(`missing-${i}`, BIDS, { lotId: '999999999' });
      expect(await a.outcome(`missing-${i}`, 5000)).toBe('lot_not_found');
    }
    for (let round = 0; round < 5; round++) {
      expect(await outcome(a, 'again', lotId)).toBe('live');
      a.complete('again');
      a.messages.length = 0;
    }
    await settle();
    expect([await outcome(a, '1', lotId), await outcome(a, '2', lotId), await outcome(a, '3', lotId)]).toEqual(['live', 'live', 'live']);
    expect(await outcome(a, '4', lotId)).toBe('subscription_budget_exceeded');
  });

  it('gives the cost back of a subscription completed while being set up whose id is reused at once', async () => {
    const a = await open('127.0.0.18');
    // The first is still looking its lot up when its complete and the second subscribe arrive.
    a.subscribe('reused', BIDS, { lotId });
    a.complete('reused');
    a.subscribe('reused', BIDS, { lotId });
    await until(
      () => {
        world.t.app.services.live.publishBid(probeBid(lotId));
        return a.nexts('reused').length > 0;
      },
      5000,
      () => 'the reused id to run',
    );
    a.complete('reused');
    await settle();
    expect([await outcome(a, '1', lotId), await outcome(a, '2', lotId), await outcome(a, '3', lotId)]).toEqual(['live', 'live', 'live']);
  });

  it("counts an account's subscriptions from every address against its budget", async () => {
    const [bidder, rival] = world.accounts;
    const first = await open('127.0.0.15', bidder.id);
    expect([await outcome(first, '1', lotId), await outcome(first, '2', lotId)]).toEqual(['live', 'live']);
    const second = await open('127.0.0.16', bidder.id);
    const refused = await outcome(second, '1', lotId);
    expect(refused).toBe('subscription_budget_exceeded');
    expect(second.messages.find((m) => m.type === 'error').payload[0].message).toMatch(/one account may cost 7/);
    // The address has room, and another account from it is admitted.
    const other = await open('127.0.0.16', rival.id);
    expect(await outcome(other, '1', lotId)).toBe('live');
    first.socket.close();
    await first.closed;
    await settle();
    expect(await outcome(second, '2', lotId)).toBe('live');
  });

  // The service measures a text once per variables: a measure kept by text alone would charge the second the first's cost.
  it('charges the same text at the cost of its own variables: a list bound of 1 is admitted, then one of 100 refused', async () => {
    const text = 'subscription ($lotId: ID!, $n: Int) { lotUpdated(lotId: $lotId) { id bids(last: $n) { id amount } } }';
    const a = await open('127.0.0.18');
    a.subscribe('small', text, { lotId, n: 1 });
    expect(await a.outcome('small', 1000)).toBe('running');
    const b = await open('127.0.0.19');
    b.subscribe('large', text, { lotId, n: 100 });
    expect(await b.outcome('large', 5000)).toBe('subscription_budget_exceeded');
    b.subscribe('small again', text, { lotId, n: 1 });
    expect(await b.outcome('small again', 1000)).toBe('running');
  });

  it('refuses one subscription that costs more than the budget by itself, and runs nothing for it', async () => {
    const a = await open('127.0.0.17');
    const lists = Array.from({ length: 12 }, (_, i) => `b${i}: bids { id amount bidderId }`).join(' ');
    a.subscribe('big', `subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id ${lists} } }`, { lotId });
    expect(await a.outcome('big', 5000)).toBe('subscription_budget_exceeded');
    world.t.app.services.live.publishLotChanged(lotId);
    await settle();
    expect(a.nexts('big')).toEqual([]);
  });
});
