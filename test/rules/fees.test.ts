import { Participant } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { chooseWinner } from '../trading/trading.helpers';
import { appWith } from '../helpers/world';
import { bid, seat, setRules } from './rules.helpers';

const FEES = { buyer_fees: [{ up_to: '1000', fixed: '50' }, { up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, percent: '2.5' }] };

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const user = await createAccount(t, platform);
  const plain = await createLot(t, platform, ENG_LOT);
  await setRules(t, platform, FEES);
  const lot = await createLot(t, platform, ENG_LOT);
  return { platform, user, plain, lot };
});

const estimate = (lotId: string, amount: string) => world.t.client.get(`/lots/${lotId}/fee_estimate?amount=${encodeURIComponent(amount)}`);

describe('GET /lots/{id}/fee_estimate', () => {
  it("shows anyone the buyer's fee of the band an amount falls in, in the lot's currency", async () => {
    expect((await estimate(world.lot.id, '1000')).body.data).toEqual({
      type: 'fee_estimates',
      id: world.lot.id,
      attributes: { amount: '1000.00', buyer_fee: '50.00', total: '1050.00', currency: 'USD', rules_version: 1 },
    });
    expect((await estimate(world.lot.id, '1000.01')).body.data.attributes).toMatchObject({ buyer_fee: '70.00', total: '1070.01' });
    expect((await estimate(world.lot.id, '12345.67')).body.data.attributes).toMatchObject({ buyer_fee: '308.64', total: '12654.31' });
  });

  it('answers a fee of 0.00 for a lot created without a schedule', async () => {
    expect((await estimate(world.plain.id, '2000')).body.data.attributes).toEqual({ amount: '2000.00', buyer_fee: '0.00', total: '2000.00', currency: 'USD', rules_version: null });
  });

  it('names the faulty parameter; 404 for no lot', async () => {
    expect((await estimate(world.lot.id, '-5')).body.errors[0]).toMatchObject({ status: '400', code: 'invalid_parameter', source: { parameter: 'amount' } });
    expect((await world.t.client.get(`/lots/${world.lot.id}/fee_estimate`)).body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'amount' } });
    expect((await estimate('999999', '10')).status).toBe(404);
  });

  it('GraphQL feeEstimate answers the same', async () => {
    const q = `query ($id: ID!, $a: String!) { feeEstimate(lotId: $id, amount: $a) { lotId amount buyerFee total currency rulesVersion } }`;
    const res = await world.t.client.graphql(q, { id: world.lot.id, a: '3000' });
    expect(res.body.data.feeEstimate).toEqual({ lotId: world.lot.id, amount: '3000.00', buyerFee: '170.00', total: '3170.00', currency: 'USD', rulesVersion: 1 });
    const bad = await world.t.client.graphql(q, { id: world.lot.id, a: '1.234' });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', status: 400 });
  });
});

describe("the buyer's fee in winner details", () => {
  it("records the fee on the winning bid when the winner is chosen; a lot without a schedule records none", async () => {
    for (const lot of [world.lot, world.plain]) {
      await seat(world.t, lot.id, [world.user.id]);
      expect((await bid(world.t, world.user.keypair, lot.id, { amount: '2000' })).status).toBe(204);
      const participant = await world.t.orm.em.fork().findOneOrFail(Participant, { lotId: lot.id, accountId: world.user.id });
      expect((await chooseWinner(world.t, world.platform, lot.id, participant)).status).toBeLessThan(300);
    }
    const details = async (id: string) => (await world.t.client.as(world.platform).get(`/lots/${id}?include=winner_details`)).body.included;
    expect(await details(world.lot.id)).toEqual([expect.objectContaining({ type: 'winner_details', attributes: expect.objectContaining({ fee_amount: 120, fee_currency: 'USD' }) })]);
    expect(await details(world.plain.id)).toEqual([]);
  });
});
