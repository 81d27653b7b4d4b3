import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { fileRequest } from '../requests/requests.helpers';
import { join } from '../trading/trading.helpers';

// Money beside the String amounts of placeBid's result, the fee estimate and a create-lot
// request: the same amounts, each in its currency, converting with `in(currency:)`.

const world = appWithPlatform();
let bidder: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  const { t, platform } = world;
  bidder = await createAccount(t, platform);
  lotId = String((await createLot(t, platform, { ...ENG_LOT, deposit: '0', currency: 'GEL' })).id);
  await join(t, bidder.keypair, lotId);
});

const as = (who: CreatedAccount) => (query: string, variables?: Record<string, unknown>) => world.t.client.as(who.keypair).graphql(query, variables);

describe('Money on the remaining String amounts', () => {
  it('gives placeBid’s highest bid as Money in the lot’s currency', async () => {
    const res = await as(bidder)(`mutation($lot: ID!) { placeBid(lotId: $lot, amount: "1100") { highestBid highestBidMoney { amount currency eur: in(currency: EUR) { currency } } } }`, { lot: lotId });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.placeBid).toEqual({ highestBid: '1100.00', highestBidMoney: { amount: '1100.00', currency: 'GEL', eur: { currency: 'EUR' } } });
  });

  it('gives the fee estimate’s amounts as Money agreeing with its strings', async () => {
    const res = await world.t.client.graphql(
      `query($lot: ID!) { feeEstimate(lotId: $lot, amount: "2500.5") { amount buyerFee total currency amountMoney { amount currency } buyerFeeMoney { amount currency } totalMoney { amount currency } } }`,
      { lot: lotId },
    );
    expect(res.body.errors).toBeUndefined();
    const e = res.body.data.feeEstimate;
    expect(e.amountMoney).toEqual({ amount: '2500.50', currency: 'GEL' });
    expect([e.amountMoney, e.buyerFeeMoney, e.totalMoney]).toEqual([e.amount, e.buyerFee, e.total].map((amount) => ({ amount, currency: e.currency })));
  });

  it('gives a create-lot request’s amounts as Money in the currency it is shown in, the reserve to whom the string shows it', async () => {
    const requestor = await createAccount(world.t, world.platform);
    const request = await fileRequest(world.t, requestor.keypair, { ...ENG_LOT, currency: 'EUR', reserve_price: '3000' });
    const query = `query($id: ID!, $c: String) { request(id: $id, currency: $c) { startPrice deposit maxStep reservePrice currency prices { start { amount currency } deposit { amount } maxStep { amount } reserve { amount currency } b2bVehicle { amount } } } }`;
    for (const c of [null, 'USD']) {
      const res = await as(requestor)(query, { id: String(request.id), c });
      expect(res.body.errors).toBeUndefined();
      const r = res.body.data.request;
      expect(r.prices).toEqual({
        start: { amount: r.startPrice, currency: r.currency },
        deposit: { amount: r.deposit },
        maxStep: { amount: r.maxStep },
        reserve: { amount: r.reservePrice, currency: r.currency },
        b2bVehicle: null,
      });
      expect(r.currency).toBe(c ?? 'EUR');
    }
  });
});
