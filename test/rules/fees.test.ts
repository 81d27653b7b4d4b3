import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { chooseWinner, putWinnerDetails } from '../trading/trading.helpers';
import { answer, offered } from '../offers/offers.helpers';
import { appWith } from '../helpers/world';
import { bid, patchRules, seat, setRules } from './rules.helpers';

const FEES = { buyer_fees: [{ up_to: '1000', fixed: '50' }, { up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, fixed: '145', percent: '2.5' }] };

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
    expect((await estimate(world.lot.id, '12345.67')).body.data.attributes).toMatchObject({ buyer_fee: '453.64', total: '12799.31' });
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

describe('a fee larger than any amount kept', () => {
  // Each value in range, the fee on the top price is not: 999999999999999999.99 + 100 % of it.
  const HUGE = { start_price: '999999999999999990.00', buy_now_price: '999999999999999999.99', deposit: '1.00', min_step: '0.01', max_step: '999999999999999999.99' };
  const CHOOSE = /* GraphQL */ `mutation ($lot: ID!, $participant: ID!) { chooseWinner(lotId: $lot, participantId: $participant) { id } }`;

  it('refuses the winner choice with a 400 naming the participant, on both edges, and changes nothing', async () => {
    const { t } = world;
    const platform = await createPlatform(t);
    const rich = await createAccount(t, platform);
    await setRules(t, platform, { buyer_fees: [{ up_to: null, fixed: '999999999999999999.99', percent: '100' }] });
    const lot = await createLot(t, platform, { ...ENG_LOT, ...HUGE });
    await seat(t, lot.id, [rich.id]);
    expect((await bid(t, rich.keypair, lot.id, { amount: '999999999999999990.00' })).status).toBe(204);
    const participant = await t.orm.em.fork().findOneOrFail(Participant, { lotId: lot.id, accountId: rich.id });

    const rest = await chooseWinner(t, platform, lot.id, participant);
    expect(rest.status).toBe(400);
    expect(rest.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'fee_out_of_range', source: { pointer: '/data/id' } })]);
    expect(rest.body.errors[0].detail).toContain('1999999999999999989.99');
    const gql = await t.client.as(platform).graphql(CHOOSE, { lot: lot.id, participant: participant.id });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'fee_out_of_range', status: 400, errors: [{ field: 'participantId' }] });

    const em = t.orm.em.fork();
    expect((await em.findOneOrFail(Lot, { id: lot.id })).winnerId).toBeNull();
    expect((await em.findOneOrFail(Participant, { id: participant.id })).state).toBe(ParticipantState.Pending);
    expect(await em.count(WinnerDetails, { lotId: lot.id })).toBe(0);
  });

  it('refuses a second-chance acceptance at such a price with a 400 naming state; the bidder does not win', async () => {
    const { t } = world;
    const platform = await createPlatform(t);
    const [first, second] = [await createAccount(t, platform), await createAccount(t, platform)];
    // No fee up to 1,000,000; above it, a fixed fee near the top plus 1 %.
    await setRules(t, platform, { buyer_fees: [{ up_to: '1000000', fixed: '0' }, { up_to: null, fixed: '999999999999999999.99', percent: '1' }] });
    const lot = await createLot(t, platform, { ...ENG_LOT, deposit: '0', max_step: '999999999999999' });
    await seat(t, lot.id, [first.id, second.id]);
    expect((await bid(t, first.keypair, lot.id, { amount: '1000' })).status).toBe(204);
    expect((await bid(t, second.keypair, lot.id, { amount: '2000000' })).status).toBe(204);
    const em = t.orm.em.fork();
    const chosen = await em.findOneOrFail(Participant, { lotId: lot.id, accountId: first.id });
    expect((await chooseWinner(t, platform, lot.id, chosen)).status).toBe(200);
    expect((await putWinnerDetails(t, platform, lot.id, { deal_canceled: true })).status).toBe(200);

    const offerId = await offered(t, platform, lot.id);
    const res = await answer(t, second.keypair, lot.id, offerId, 'accepted');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'fee_out_of_range', source: { pointer: '/data/attributes/state' } })]);
    expect((await t.orm.em.fork().findOneOrFail(Participant, { lotId: lot.id, accountId: second.id })).state).not.toBe(ParticipantState.Winner);
  });
});

describe("a buyer's fee of more digits than a JSON number carries", () => {
  it('is answered in winner details as its decimal string, not as a nearby number', async () => {
    const { t } = world;
    const platform = await createPlatform(t);
    const user = await createAccount(t, platform);
    await setRules(t, platform, { buyer_fees: [{ up_to: null, percent: '1' }] });
    const lot = await createLot(t, platform, { ...ENG_LOT, start_price: '99999999999999999', buy_now_price: '999999999999999999.99', max_step: '999999999999999' });
    await seat(t, lot.id, [user.id]);
    expect((await bid(t, user.keypair, lot.id, { amount: '99999999999999999' })).status).toBe(204);
    const participant = await t.orm.em.fork().findOneOrFail(Participant, { lotId: lot.id, accountId: user.id });
    expect((await chooseWinner(t, platform, lot.id, participant)).status).toBe(200);
    const res = await t.client.as(platform).get(`/lots/${lot.id}?include=winner_details`);
    expect(res.body.included[0].attributes).toMatchObject({ fee_amount: '999999999999999.99', fee_currency: 'USD' });
  });
});

describe('a fee schedule in which a higher price costs less', () => {
  const UPDATE = /* GraphQL */ `mutation ($id: ID!, $rules: PlatformRulesInput!) { updatePlatformRules(platformId: $id, rules: $rules) { version buyerFees { upTo fixed percent } } }`;
  const current = async () => (await world.t.client.as(world.platform).get(`/platforms/${world.platform.publicKey()}/rules`)).body.data.attributes;

  it('is refused, naming the band whose first cent costs less than the cent below it, on both edges', async () => {
    const before = await current();
    // 5,000.00 costs 5,270.00 in total; 5,000.01 would cost 5,125.01.
    const falling = [{ up_to: '1000', fixed: '50' }, { up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, percent: '2.5' }];
    const res = await patchRules(world.t, world.platform, world.platform.publicKey(), { buyer_fees: falling });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'fee_total_falls', source: { pointer: '/data/attributes/buyer_fees/2' } })]);
    expect(res.body.errors[0].detail).toContain('5125.01');
    const gqlFalling = falling.map((b) => ({ upTo: b.up_to, fixed: b.fixed, percent: b.percent }));
    const gql = await world.t.client.as(world.platform).graphql(UPDATE, { id: world.platform.publicKey(), rules: { buyerFees: gqlFalling } });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'fee_total_falls', status: 400, errors: [{ field: 'buyerFees.2' }] });
    expect(await current()).toEqual(before);
  });

  it.each([
    ['a fixed fee one cent short', [{ up_to: '1000', fixed: '50' }, { up_to: null, fixed: '49.98' }], 1],
    ['a percentage one cent short after rounding', [{ up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, fixed: '144.98', percent: '2.5' }], 1],
    ['a fall at the second boundary', [{ up_to: '100', fixed: '1' }, { up_to: '200', fixed: '5' }, { up_to: null, fixed: '4.98' }], 2],
  ])('refuses %s', async (_name, schedule, band) => {
    const res = await patchRules(world.t, world.platform, world.platform.publicKey(), { buyer_fees: schedule });
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'fee_total_falls', source: { pointer: `/data/attributes/buyer_fees/${band}` } })]);
  });

  it('answers malformed or unordered bands with their own fault', async () => {
    const malformed = await patchRules(world.t, world.platform, world.platform.publicKey(), { buyer_fees: [{ up_to: 'abc', fixed: '50' }, { up_to: null, fixed: '1' }] });
    expect(malformed.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/buyer_fees/0/up_to' } })]);
    const unordered = await patchRules(world.t, world.platform, world.platform.publicKey(), { buyer_fees: [{ up_to: '500', fixed: '50' }, { up_to: '100', fixed: '1' }, { up_to: null, fixed: '60' }] });
    expect(unordered.status).toBe(400);
    expect(unordered.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain('/data/attributes/buyer_fees/1/up_to');
  });

  it.each([
    ['an equal total at the boundary', [{ up_to: '1000', fixed: '50' }, { up_to: null, fixed: '49.99' }]],
    ['an equal total after rounding a percentage', [{ up_to: '5000', fixed: '20', percent: '5' }, { up_to: null, fixed: '144.99', percent: '2.5' }]],
  ])('takes %s', async (_name, schedule) => {
    const platform = await createPlatform(world.t);
    expect((await patchRules(world.t, platform, platform.publicKey(), { buyer_fees: schedule })).status).toBe(200);
  });
});
