import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT, seedBids } from '../helpers/lots';
import { rowsReceived } from '../helpers/rows-received';
import { appWith } from '../helpers/world';

// The bids a lot shows beside it (REST include=bids, GraphQL Lot.bids) are its newest hundred: a
// hot lot's whole history, read for every lot of a page at every request, is an amplification
// anyone could send.

jest.setTimeout(120_000);

const BIDS = 3000;

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const bidder = await createAccount(t, platform);
  const lot = await createLot(t, admin.keypair, ENG_LOT);
  await seedBids(t, String(lot.id), bidder.id, BIDS);
  return { lotId: String(lot.id) };
});

// A bid as the database sends it is some 60 to 100 bytes: the newest hundred stay well under 20 KB, the history is ten times that.
const BOUND = 20_000;

it(`REST include=bids shows the newest 100 of a lot's ${BIDS} bids, read alone, on the lot and in a listing`, async () => {
  for (const target of [`/lots/${world.lotId}?include=bids`, `/lots?include=bids&page[limit]=100`]) {
    let body: any;
    const { bytes } = await rowsReceived(async () => {
      body = (await world.t.client.get(target)).body;
    });
    const bids = body.included.filter((r: { type: string }) => r.type === 'bids');
    expect({ target, shown: bids.length, newest: bids.at(-1)?.attributes.amount, oldest: bids[0]?.attributes.amount }).toEqual({ target, shown: 100, newest: '4000.00', oldest: '3901.00' });
    expect(bytes).toBeLessThan(BOUND);
  }
});

it(`GraphQL Lot.bids(last: 1) reads the newest bids, not the ${BIDS} of the history, on the lot and in a page of lots`, async () => {
  for (const query of ['query($id: ID!) { lot(id: $id) { bids(last: 1) { amount } } }', '{ lots(first: 100) { nodes { bids(last: 1) { amount } } } }']) {
    let body: any;
    const { bytes } = await rowsReceived(async () => {
      body = (await world.t.client.graphql(query, { id: world.lotId })).body;
    });
    expect(body.errors).toBeUndefined();
    const shown = body.data.lot ? body.data.lot.bids : body.data.lots.nodes.flatMap((n: { bids: unknown[] }) => n.bids);
    expect(shown).toEqual([{ amount: '4000.00' }]);
    expect(bytes).toBeLessThan(BOUND);
  }
});
