import { appWithPlatform } from '../helpers/world';
import { createLot, ENG_LOT } from '../helpers/lots';
import { chooseWinner, join, pay, putWinnerDetails } from './trading.helpers';

/**
 * Winner details' fees are JSON numbers in REST answers, as the contract types them: a fee is
 * taken only with the digits a JSON number carries exactly, so that the amount answered is the
 * amount recorded, never a float's neighbour of it.
 */
const world = appWithPlatform({ accounts: 1 });

async function wonLot(): Promise<string> {
  const lot = await createLot(world.t, world.platform, ENG_LOT);
  const winner = await join(world.t, world.accounts[0].keypair, lot.id);
  await pay(world.t, world.platform, winner);
  expect((await chooseWinner(world.t, world.platform, lot.id, winner)).status).toBe(200);
  return lot.id;
}

const SET = /* GraphQL */ `mutation ($lot: ID!, $input: WinnerDetailsInput!) { setWinnerDetails(lotId: $lot, input: $input) { feeAmount transportationFee } }`;

describe('winner details fees', () => {
  it('answers the largest exact amounts as they were sent, over REST and GraphQL', async () => {
    const lotId = await wonLot();
    const rest = await putWinnerDetails(world.t, world.platform, lotId, { fee_amount: '9999999999999.99', transportation_fee: 1234567890123.45 });
    expect(rest.status).toBe(200);
    expect(rest.text).toContain('"fee_amount":9999999999999.99,"transportation_fee":1234567890123.45');
    const graphql = await world.t.client.as(world.platform).graphql(SET, { lot: lotId, input: { feeAmount: '9999999999999.98' } });
    expect(graphql.body).toEqual({ data: { setWinnerDetails: { feeAmount: '9999999999999.98', transportationFee: '1234567890123.45' } } });
  });

  it('refuses a fee a JSON number would answer as another amount, naming it on each edge, and keeps the recorded one', async () => {
    const lotId = await wonLot();
    expect((await putWinnerDetails(world.t, world.platform, lotId, { fee_amount: '12.50' })).status).toBe(200);
    const rest = await putWinnerDetails(world.t, world.platform, lotId, { fee_amount: '123456789012345678.99', transportation_fee: '10000000000000.01' });
    expect(rest.status).toBe(400);
    expect(rest.body.errors.map((e: any) => [e.code, e.source.pointer, e.detail])).toEqual([
      ['invalid_field', '/data/attributes/fee_amount', 'fee_amount: must have at most 15 digits: it is answered as a JSON number'],
      ['invalid_field', '/data/attributes/transportation_fee', 'transportation_fee: must have at most 15 digits: it is answered as a JSON number'],
    ]);
    const graphql = await world.t.client.as(world.platform).graphql(SET, { lot: lotId, input: { feeAmount: '123456789012345678.99' } });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ field: 'feeAmount' }] });
    const shown = await world.t.client.as(world.platform).get(`/lots/${lotId}?include=winner_details`);
    expect(shown.body.included).toEqual([expect.objectContaining({ type: 'winner_details', attributes: expect.objectContaining({ fee_amount: 12.5 }) })]);
  });
});
