import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { appWith } from '../helpers/world';
import { buyingPower, EUR_LOT, lotWithPaidBidders } from '../rules/buying-power.helpers';
import { bid, setRules } from '../rules/rules.helpers';
import { chooseWinner, lotRow, participantOf, putWinnerDetails } from '../trading/trading.helpers';
import { answer, offered } from './offers.helpers';

// Buying power 10 × paid deposits, every lot in EUR with a deposit of 100: each paid deposit lets
// its bidder hold 1,000 EUR more. A win holds its price as a lead does, so it is held to the same rule.
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  await setRules(t, platform, { buying_power_multiple: '10' });
  return { platform };
});

const newUser = (): Promise<CreatedAccount> => createAccount(world.t, world.platform);
/** A rival bidder with 1,000 EUR more power, from a deposit paid on a lot of its own. */
const newRival = async (): Promise<CreatedAccount> => {
  const rival = await newUser();
  await lotWithPaidBidders(world.t, world.platform, [rival.keypair]);
  return rival;
};
const inUse = async (user: CreatedAccount) => (await buyingPower(world.t, user.keypair, user.id)).body.data.attributes;
const placed = async (user: CreatedAccount, lotId: string, amount: string) => {
  const res = await bid(world.t, user.keypair, lotId, { amount });
  if (res.status !== 204) throw new Error(`bid failed: ${res.status} ${res.text}`);
};
const CHOOSE = /* GraphQL */ `mutation ($lot: ID!, $participant: ID!) { chooseWinner(lotId: $lot, participantId: $participant) { id stateStr } }`;
const ANSWER = /* GraphQL */ `mutation ($lot: ID!, $offer: ID!) { answerSecondChance(lotId: $lot, offerId: $offer, state: "accepted") { id state } }`;

describe('a winner held to buying power', () => {
  it('refuses to choose a bidder whose win would take it past its limit (REST and GraphQL), and takes it once power frees up', async () => {
    const { t, platform } = world;
    const [b, d, e] = [await newUser(), await newRival(), await newRival()];
    const n = await lotWithPaidBidders(t, platform, [b.keypair, d.keypair]);
    const m = await lotWithPaidBidders(t, platform, [b.keypair, e.keypair]);
    // b: 2,000 EUR of power. It bids 1,000 on n and is outbid; it leads m at 1,500.
    await placed(b, n, '1000');
    await placed(d, n, '1050');
    await placed(b, m, '1000');
    await placed(b, m, '1500');
    expect(await inUse(b)).toMatchObject({ limit: '2000.00', in_use: '1500.00', left: '500.00' });

    // Winning n at its own 1,000 would hold 2,500.
    const participant = await participantOf(t, n, b.id);
    const rest = await chooseWinner(t, platform, n, participant);
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0]).toMatchObject({ code: 'buying_power_exceeded', source: { pointer: '/data/id' }, detail: 'the winning price (1000.00) exceeds the buying power left for this lot (500.00)' });
    const gql = await t.client.as(platform).graphql(CHOOSE, { lot: n, participant: participant.id });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'buying_power_exceeded', status: 400, errors: [{ field: 'participantId' }] });
    expect((await lotRow(t, n)).winnerId).toBeNull();
    expect(await inUse(b)).toMatchObject({ in_use: '1500.00' });

    // Outbid on m, b holds nothing else: the same choice is taken.
    await placed(e, m, '1550');
    const chosen = await t.client.as(platform).graphql(CHOOSE, { lot: n, participant: participant.id });
    expect(chosen.body).toEqual({ data: { chooseWinner: { id: participant.id, stateStr: 'winner' } } });
    expect(await inUse(b)).toMatchObject({ limit: '2000.00', in_use: '1000.00' });
  });

  it('refuses a second-chance acceptance that would take the bidder past its limit (REST and GraphQL); the offer stays open', async () => {
    const { t, platform } = world;
    const [b, c, e] = [await newUser(), await newRival(), await newRival()];
    const lot = await lotWithPaidBidders(t, platform, [b.keypair, c.keypair]);
    const other = await lotWithPaidBidders(t, platform, [b.keypair, e.keypair]);
    await placed(b, lot, '1000');
    await placed(c, lot, '1050');
    expect((await chooseWinner(t, platform, lot, await participantOf(t, lot, c.id))).status).toBe(200);
    // b lost the lot: its deposit there went back, leaving 1,000 EUR of power, all held on the other lot.
    await placed(b, other, '1000');
    expect((await putWinnerDetails(t, platform, lot, { deal_canceled: true })).status).toBe(200);
    expect(await inUse(b)).toMatchObject({ limit: '1000.00', in_use: '1000.00', left: '0.00' });

    const offerId = await offered(t, platform, lot);
    const rest = await answer(t, b.keypair, lot, offerId, 'accepted');
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0]).toMatchObject({ code: 'buying_power_exceeded', source: { pointer: '/data/attributes/state' }, detail: expect.stringContaining('(0.00)') });
    const gql = await t.client.as(b.keypair).graphql(ANSWER, { lot, offer: offerId });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'buying_power_exceeded', status: 400, errors: [{ field: 'state' }] });
    expect((await participantOf(t, lot, b.id)).state).toBe(ParticipantState.Lost);
    expect((await lotRow(t, lot)).winnerId).toBe(c.id);
    expect(await inUse(b)).toMatchObject({ in_use: '1000.00' });

    // Outbid on the other lot, b may take the offer, still open.
    await placed(e, other, '1050');
    const accepted = await t.client.as(b.keypair).graphql(ANSWER, { lot, offer: offerId });
    expect(accepted.body).toEqual({ data: { answerSecondChance: { id: offerId, state: 'accepted' } } });
    expect((await lotRow(t, lot)).winnerId).toBe(b.id);
    expect(await inUse(b)).toMatchObject({ limit: '1000.00', in_use: '1000.00', left: '0.00' });
  });

  it('keeps buy now out of it, as documented', async () => {
    const { t, platform } = world;
    const b = await newUser();
    const lot = await lotWithPaidBidders(t, platform, [b.keypair], { ...EUR_LOT, buy_now_price: '5000' });
    const res = await chooseWinner(t, platform, lot, await participantOf(t, lot, b.id), true);
    expect(res.status).toBe(200);
    expect(await inUse(b)).toMatchObject({ limit: '1000.00', in_use: '5000.00', left: '0.00' });
  });
});
