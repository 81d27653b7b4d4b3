import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { buyingPower, EUR_LOT, lotWithPaidBidders } from '../rules/buying-power.helpers';
import { bid, setRules } from '../rules/rules.helpers';

// Rates are shared by every platform: buying power sums deposits in EUR through them, so a rate
// set by one platform's staff would move the limits of another platform's bidders.
const world = appWith(async (t) => {
  const victim = await createPlatform(t);
  const attacker = await createPlatform(t);
  const attackerAdmin = await createAccount(t, attacker, { type: 'admin' });
  const victimAdmin = await createAccount(t, victim, { type: 'admin' });
  const bidder: CreatedAccount = await createAccount(t, victim);
  await setRules(t, victim, { buying_power_multiple: '10' });
  // 108 USD (100 EUR at 1.08) and 100 EUR of paid deposits: 2,000 EUR of buying power.
  await lotWithPaidBidders(t, victim, [bidder.keypair], { ...ENG_LOT, deposit: '108' });
  const euroLot = await lotWithPaidBidders(t, victim, [bidder.keypair], EUR_LOT);
  return { victim, attacker, attackerAdmin, victimAdmin, bidder, euroLot };
});

const SET = 'mutation($currency: String!, $rate: String!) { setCurrencyRate(currency: $currency, unitsPerEur: $rate) { currency unitsPerEur } }';
const PLACE = 'mutation ($lot: ID!, $amount: String) { placeBid(lotId: $lot, amount: $amount) { highestBid } }';

describe("another platform's staff and a bidder's buying power", () => {
  it("cannot set the rate that buying power is summed through: 403 not_allowed to any platform's admin or account", async () => {
    const { t } = world;
    for (const who of [world.attackerAdmin.keypair, world.attacker, world.victimAdmin.keypair, world.victim]) {
      const res = await t.client.as(who).graphql(SET, { currency: 'USD', rate: '0.00108' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: null, errors: [{ extensions: { code: 'not_allowed', status: 403 } }] });
    }
    const rates = await t.client.graphql('{ currencyRates { currency unitsPerEur } }');
    expect(rates.body.data.currencyRates).toContainEqual({ currency: 'USD', unitsPerEur: '1.08' });

    expect((await buyingPower(t, world.bidder.keypair, world.bidder.id)).body.data.attributes).toMatchObject({ deposits: '200.00', limit: '2000.00', left: '2000.00' });
    const rest = await bid(t, world.bidder.keypair, world.euroLot, { amount: '90000' });
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0]).toMatchObject({ code: 'buying_power_exceeded', source: { pointer: '/data/attributes/amount' } });
    const gql = await t.client.as(world.bidder.keypair).graphql(PLACE, { lot: world.euroLot, amount: '90000' });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'buying_power_exceeded', status: 400 });
    expect((await t.client.get(`/lots/${world.euroLot}`)).body.data.attributes.highest_bid).toBe('0.00');
  });

  it('is set by the master account alone, and then moves every platform alike', async () => {
    const { t } = world;
    const res = await t.client.as(t.master).graphql(SET, { currency: 'USD', rate: '2.16' });
    expect(res.body).toEqual({ data: { setCurrencyRate: { currency: 'USD', unitsPerEur: '2.16' } } });
    // 108 USD is now 50 EUR: 1,500 EUR of buying power.
    expect((await buyingPower(t, world.bidder.keypair, world.bidder.id)).body.data.attributes).toMatchObject({ deposits: '150.00', limit: '1500.00' });
    expect((await bid(t, world.bidder.keypair, world.euroLot, { amount: '1550' })).body.errors[0].code).toBe('buying_power_exceeded');
    expect((await bid(t, world.bidder.keypair, world.euroLot, { amount: '1500' })).status).toBe(204);
  });
});
