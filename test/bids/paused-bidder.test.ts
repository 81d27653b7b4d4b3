import { Bid } from '../../src/modules/bids/bids.entity';
import { blacklist } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { bid } from '../rules/rules.helpers';
import { FREE_LOT, join } from '../trading/trading.helpers';

// A participant paused after it joined keeps its participation, but may not bid:
// the bid round itself refuses it, whichever edge the bid came through.
const world = appWithPlatform({ accounts: 2 });
const PLACE = /* GraphQL */ `mutation ($lot: ID!, $amount: String, $max: String) { placeBid(lotId: $lot, amount: $amount, maxAmount: $max) { highestBid } }`;

describe('a participant paused after joining', () => {
  it('is refused 403 account_paused over REST and GraphQL, for bids and max bids, and nothing is written', async () => {
    const { t, platform } = world;
    const [paused, other] = world.accounts;
    const lot = await createLot(t, platform, FREE_LOT);
    await join(t, paused.keypair, lot.id);
    await join(t, other.keypair, lot.id);
    expect((await bid(t, paused.keypair, lot.id, { amount: '1000' })).status).toBe(204);
    await blacklist(t, platform, paused.id, 'paused');

    const rest = await bid(t, paused.keypair, lot.id, { amount: '1100' });
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0]).toMatchObject({ status: '403', code: 'account_paused' });
    const max = await bid(t, paused.keypair, lot.id, { max_amount: '3000' });
    expect(max.body.errors[0]).toMatchObject({ status: '403', code: 'account_paused' });
    const gql = await t.client.as(paused.keypair).graphql(PLACE, { lot: lot.id, amount: '1100' });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'account_paused', status: 403 });
    expect(await t.orm.em.fork().count(Bid, { lotId: lot.id })).toBe(1);

    // The lot goes on for everyone else.
    expect((await bid(t, other.keypair, lot.id, { amount: '1050' })).status).toBe(204);
    expect((await t.client.get(`/lots/${lot.id}`)).body.data.attributes.highest_bid).toBe('1050.00');
  });
});
