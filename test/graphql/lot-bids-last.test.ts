import { parse } from 'graphql';
import { Money } from '../../src/core/money';
import { checkCost } from '../../src/graphql/cost';
import { buildAppSchema } from '../../src/graphql/schema';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();
let lotId: string;
/** The amounts of the lot's 102 bids, oldest first: two more than the field shows. */
const AMOUNTS = Array.from({ length: 102 }, (_, i) => (1000 + i * 50).toFixed(2));

beforeAll(async () => {
  const { t, platform } = world;
  const lot = await createLot(t, platform, ENG_LOT);
  lotId = String(lot.id);
  const bidder = await createAccount(t, platform);
  const em = t.orm.em.fork();
  const participant = em.create(Participant, { lotId: lot.id, accountId: bidder.id, state: ParticipantState.Pending });
  await em.flush();
  // One flush a bid: ids, and so the history's order, follow the amounts.
  for (const amount of AMOUNTS) {
    em.create(Bid, { lotId: lot.id, participantId: participant.id, accountId: bidder.id, amount: new Money(amount) });
    await em.flush();
  }
});

const bidsOf = async (args: string) => {
  const res = await world.t.client.graphql(`query($id: ID!) { lot(id: $id) { bids${args} { amount } } }`, { id: lotId });
  return res;
};

describe('Lot.bids answers at most a page of the history, the count its cost counts', () => {
  it('answers the newest 100 bids by default, oldest first, and fewer with `last`', async () => {
    expect((await bidsOf('')).body.data.lot.bids.map((b: { amount: string }) => b.amount)).toEqual(AMOUNTS.slice(-100));
    expect((await bidsOf('(last: 3)')).body.data.lot.bids.map((b: { amount: string }) => b.amount)).toEqual(AMOUNTS.slice(-3));
    expect((await bidsOf('(last: 100)')).body.data.lot.bids.map((b: { amount: string }) => b.amount)).toEqual(AMOUNTS.slice(-100));
  });

  it('refuses `last` outside 1 to 100 with 400 invalid_page naming it', async () => {
    for (const last of [0, 101]) {
      const res = await bidsOf(`(last: ${last})`);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ message: 'last must be an integer from 1 to 100', extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field: 'last' })] }) }),
      ]);
    }
  });

  it('costs the bids at `last`, its default of 100 when not given, in a subscription and in a query', async () => {
    const schema = buildAppSchema();
    const limits = { maxCost: 1e9, maxDepth: 15, maxTokens: 5000 };
    expect(checkCost(schema, parse('subscription { lotUpdated(lotId: "1") { bids { amount } } }'), {}, undefined, limits)).toBe(102);
    expect(checkCost(schema, parse('subscription { lotUpdated(lotId: "1") { bids(last: 10) { amount } } }'), {}, undefined, limits)).toBe(12);
    expect(checkCost(schema, parse('subscription { lotUpdated(lotId: "1") { bids(last: 100) { amount } } }'), {}, undefined, limits)).toBe(102);
    const page = 'lots(first: 100) { nodes { bids(last: 100) { amount } } }';
    const res = await world.t.client.graphql(`{ a: ${page} b: ${page} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe(`the query costs 22402, more than the limit of ${world.t.config.GRAPHQL_MAX_COST}`);
  });
});
