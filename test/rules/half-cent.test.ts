import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { chooseWinner, participantOf } from '../trading/trading.helpers';
import { bid, seat, setRules } from './rules.helpers';

// Amounts that fall exactly on half a cent: half-up (the rule, as every amount of the service
// rounds) and half-even or truncation part there, and nowhere else.
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const user = await createAccount(t, platform);
  await setRules(t, platform, {
    buyer_fees: [{ up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, fixed: '150', percent: '2.5' }],
    deposit: { percent: '5', floor: '0' },
  });
  return { platform, user };
});

const estimate = (lotId: string, amount: string) => world.t.client.get(`/lots/${lotId}/fee_estimate?amount=${amount}`);
const FEE = `query ($id: ID!, $a: String!) { feeEstimate(lotId: $id, amount: $a) { buyerFee total } }`;
const CREATE = 'mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }';

describe("the buyer's fee on half a cent", () => {
  it('rounds half up in both bands, over REST and GraphQL', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    // 20 + 5% of 1000.10 = 70.005; 150 + 2.5% of 5000.20 = 275.005: the cent before is even, so half-even would keep it.
    expect((await estimate(lot.id, '1000.10')).body.data.attributes).toMatchObject({ buyer_fee: '70.01', total: '1070.11' });
    expect((await estimate(lot.id, '5000.20')).body.data.attributes).toMatchObject({ buyer_fee: '275.01', total: '5275.21' });
    expect((await world.t.client.graphql(FEE, { id: lot.id, a: '1000.10' })).body.data.feeEstimate).toEqual({ buyerFee: '70.01', total: '1070.11' });
    expect((await world.t.client.graphql(FEE, { id: lot.id, a: '5000.20' })).body.data.feeEstimate).toEqual({ buyerFee: '275.01', total: '5275.21' });
  });

  it('records the rounded-up fee in the winner details of a winning bid of 1000.10', async () => {
    const lot = await createLot(world.t, world.platform, { ...ENG_LOT, deposit: '0' });
    await seat(world.t, lot.id, [world.user.id]);
    expect((await bid(world.t, world.user.keypair, lot.id, { amount: '1000.10' })).status).toBe(204);
    expect((await chooseWinner(world.t, world.platform, lot.id, await participantOf(world.t, lot.id, world.user.id))).status).toBe(200);
    const gql = await world.t.client.as(world.platform).graphql('query ($id: ID!) { lot(id: $id) { winnerDetails { feeAmount feeCurrency } } }', { id: lot.id });
    expect(gql.body.data.lot.winnerDetails).toEqual({ feeAmount: '70.01', feeCurrency: 'USD' });
  });
});

describe('a percentage deposit on half a cent', () => {
  it('rounds half up, over REST and GraphQL', async () => {
    // 5% of 1000.10 = 50.005: truncated it would be 50.00.
    const rest = await createLot(world.t, world.platform, { ...ENG_LOT, start_price: '1000.10' });
    expect((await world.t.client.get(`/lots/${rest.id}`)).body.data.attributes.deposit).toBe('50.01');
    const input = { type: 'eng', currency: 'EUR', startPrice: '1000.30', buyNowPrice: '0', deposit: '1', minStep: '10', maxStep: '20', duration: 3600, details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const created = await world.t.client.as(world.platform).graphql(CREATE, { input });
    expect(created.body.errors).toBeUndefined();
    // 5% of 1000.30 = 50.015.
    const shown = await world.t.client.graphql('query ($id: ID!) { lot(id: $id) { deposit } }', { id: created.body.data.createLot.lotId });
    expect(shown.body.data.lot).toEqual({ deposit: '50.02' });
  });
});
