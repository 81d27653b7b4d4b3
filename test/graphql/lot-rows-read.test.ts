import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT, seedBids } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { rowsReceived } from '../helpers/rows-received';
import { appWith } from '../helpers/world';

// A lot's row connections read their page, not the lot's whole list: a hot lot's bids would
// otherwise cost anyone who asks for one of them every bid of the lot, times the lots of a page.

jest.setTimeout(120_000);

const BIDS = 3000;

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const bidder = await createAccount(t, platform);
  const lotIds: string[] = [];
  for (let i = 0; i < 10; i++) lotIds.push(String((await createLot(t, admin.keypair, ENG_LOT)).id));
  await seedBids(t, lotIds[0], bidder.id, BIDS);
  return { admin, lotIds };
});

describe('Lot.bidsConnection', () => {
  it(`reads a page of a lot of ${BIDS} bids, not its history, for anyone`, async () => {
    let body: any;
    const { rows } = await rowsReceived(async () => {
      body = (await world.t.client.graphql('query($id: ID!) { lot(id: $id) { bidsConnection(first: 2) { nodes { amount } totalCount } } }', { id: world.lotIds[0] })).body;
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.lot.bidsConnection).toEqual({ nodes: [{ amount: '4000.00' }, { amount: '3999.00' }], totalCount: BIDS });
    // The lot, the page of two and the request's bookkeeping: a few dozen rows at most, whatever the history.
    expect(rows).toBeLessThan(50);
  });

  it('reads a page per lot for a page of lots, in the one statement it reads one lot’s in', async () => {
    const measure = async (n: number, withBids: boolean) => {
      let body: any;
      let rows = 0;
      const sent = await statementsSent(async () => {
        ({ rows } = await rowsReceived(async () => {
          body = (await world.t.client.as(world.admin.keypair).graphql(`{ lots(first: ${n}) { nodes { id ${withBids ? 'bidsConnection(first: 1) { totalCount }' : ''} } } }`)).body;
        }));
      });
      expect(body.errors).toBeUndefined();
      expect(body.data.lots.nodes).toHaveLength(n);
      return { statements: sent.length, rows };
    };
    await measure(10, true);
    const added = async (n: number) => {
      const [with_, without] = [await measure(n, true), await measure(n, false)];
      return { statements: with_.statements - without.statements, rows: with_.rows - without.rows };
    };
    const one = await added(1);
    const ten = await added(10);
    expect(one.statements).toBeGreaterThan(0);
    expect(ten.statements).toBe(one.statements);
    // A page of one bid per lot, whichever lots the page holds (the hot one among them or not).
    expect(ten.rows).toBeLessThanOrEqual(10);
  });
});
