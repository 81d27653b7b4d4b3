import { Bid } from '../../src/modules/bids/bids.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { chooseWinner, closeLot, participantOf } from '../trading/trading.helpers';
import { buyingPower, EUR_LOT, lotWithPaidBidders } from './buying-power.helpers';
import { bid, patchRules, setRules } from './rules.helpers';

// Buying power 10 × paid deposits: each lot's deposit of 100 EUR lets its bidder hold 1,000 EUR more.
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const users: CreatedAccount[] = [];
  for (let i = 0; i < 3; i++) users.push(await createAccount(t, platform));
  await setRules(t, platform, { buying_power_multiple: '10' });
  return { platform, users };
});

/** A fresh user of the platform, with nothing held. */
const newUser = () => createAccount(world.t, world.platform);
const attributesOf = async (user: CreatedAccount) => (await buyingPower(world.t, user.keypair, user.id)).body.data.attributes;
const PLACE = /* GraphQL */ `mutation ($lot: ID!, $amount: String, $max: String) { placeBid(lotId: $lot, amount: $amount, maxAmount: $max) { highestBid } }`;
const POWER = /* GraphQL */ `query ($id: ID!, $platform: ID) { buyingPower(accountId: $id, platformId: $platform) { accountId platformId multiple deposits limit inUse left currency } }`;

describe('the buying_power_multiple rule', () => {
  it('is a decimal greater than 0, off (null) by default, shown by REST and GraphQL', async () => {
    const platform = await createPlatform(world.t);
    const id = platform.publicKey();
    for (const bad of ['0', '-1', 'ten', '1.23456']) {
      expect((await patchRules(world.t, platform, id, { buying_power_multiple: bad })).body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/buying_power_multiple' } });
    }
    const set = await patchRules(world.t, platform, id, { buying_power_multiple: 2.5 });
    expect(set.body.data.attributes).toMatchObject({ version: 1, buying_power_multiple: '2.5' });
    const gql = await world.t.client.as(platform).graphql(`query ($id: ID!) { platformRules(platformId: $id) { buyingPowerMultiple } }`, { id });
    expect(gql.body.data.platformRules).toEqual({ buyingPowerMultiple: '2.5' });
    const off = await world.t.client.as(platform).graphql(`mutation ($id: ID!) { updatePlatformRules(platformId: $id, rules: { buyingPowerMultiple: null }) { version buyingPowerMultiple } }`, { id });
    expect(off.body.data.updatePlatformRules).toEqual({ version: 2, buyingPowerMultiple: null });
  });
});

describe('bids held to buying power', () => {
  it('accepts bids up to multiple × paid deposits across lots and refuses one beyond with 400 buying_power_exceeded', async () => {
    const [u, v] = [await newUser(), await newUser()];
    const a = await lotWithPaidBidders(world.t, world.platform, [u.keypair, v.keypair]);
    await lotWithPaidBidders(world.t, world.platform, [v.keypair]); // v: 2,000 of power
    expect((await bid(world.t, u.keypair, a, { amount: '1000' })).status).toBe(204);
    expect(await attributesOf(u)).toEqual({ platform_id: world.platform.publicKey(), multiple: '10', deposits: '100.00', limit: '1000.00', in_use: '1000.00', left: '0.00', currency: 'EUR' });

    const b = await lotWithPaidBidders(world.t, world.platform, [u.keypair]);
    const beyond = await bid(world.t, u.keypair, b, { amount: '1050' });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors[0]).toMatchObject({ status: '400', code: 'buying_power_exceeded', source: { pointer: '/data/attributes/amount' } });
    expect(await world.t.orm.em.fork().count(Bid, { lotId: b })).toBe(0);
    expect((await bid(world.t, u.keypair, b, { amount: '1000' })).status).toBe(204);
    expect(await attributesOf(u)).toMatchObject({ deposits: '200.00', limit: '2000.00', in_use: '2000.00', left: '0.00' });

    // Raising its own lead replaces what it held on that lot: still beyond, since lot b holds 1,000.
    expect((await bid(world.t, u.keypair, a, { amount: '1050' })).body.errors[0].code).toBe('buying_power_exceeded');
    // Outbid on a, it holds only b.
    expect((await bid(world.t, v.keypair, a, { amount: '1050' })).status).toBe(204);
    expect(await attributesOf(u)).toMatchObject({ in_use: '1000.00', left: '1000.00' });
    // 1,100 would now lead a, but b holds 1,000 of u's 2,000.
    expect((await bid(world.t, u.keypair, a, { amount: '1100' })).body.errors[0]).toMatchObject({ code: 'buying_power_exceeded', detail: expect.stringContaining('(1000.00)') });
  });

  it("answers the contract's own refusals first", async () => {
    const u = await newUser();
    const a = await lotWithPaidBidders(world.t, world.platform, [u.keypair]);
    const b = await lotWithPaidBidders(world.t, world.platform, [u.keypair]);
    expect((await bid(world.t, u.keypair, a, { amount: '1500' })).status).toBe(204);
    // 2,000 of power, 1,500 held on a: on b, below the start price is bid_too_low even though 900 would fit.
    expect((await bid(world.t, u.keypair, b, { amount: '900' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.t, u.keypair, a, { amount: '9000' })).body.errors[0].code).toBe('bid_step_invalid');
    const stranger = await newUser();
    expect((await bid(world.t, stranger.keypair, b, { amount: '99999' })).body.errors[0]).toMatchObject({ status: '403', code: 'not_participant' });
    expect((await bid(world.t, u.keypair, b, { amount: '1000' })).body.errors[0].code).toBe('buying_power_exceeded');
  });

  it('converts through the rates: a USD deposit and bid count in EUR', async () => {
    const u = await newUser();
    // 108 USD is 100 EUR (1.08 USD per EUR): 1,000 EUR of power is 1,080 USD.
    const lot = await lotWithPaidBidders(world.t, world.platform, [u.keypair], { ...EUR_LOT, currency: 'USD', deposit: '108' });
    expect((await bid(world.t, u.keypair, lot, { amount: '1081' })).body.errors[0].code).toBe('buying_power_exceeded');
    expect((await bid(world.t, u.keypair, lot, { amount: '1080' })).status).toBe(204);
    expect(await attributesOf(u)).toMatchObject({ deposits: '100.00', limit: '1000.00', in_use: '1000.00', left: '0.00', currency: 'EUR' });
  });

  it('holds a bid to the cent in its deposit\'s currency, without a trip through EUR cents (a second outside test)', async () => {
    const u = await newUser();
    // 100 USD is 92.59 EUR to the cent; 10 × that, back in USD, was 999.97: a bid of 1,000 was refused.
    const lot = await lotWithPaidBidders(world.t, world.platform, [u.keypair], { ...EUR_LOT, currency: 'USD', deposit: '100' });
    expect((await bid(world.t, u.keypair, lot, { amount: '1000.01' })).body.errors[0].code).toBe('buying_power_exceeded');
    expect((await bid(world.t, u.keypair, lot, { amount: '1000' })).status).toBe(204);
    const gql = await world.t.client.as(u.keypair).graphql(PLACE, { lot, amount: '1050.01' });
    expect(gql.body.errors[0].extensions.code).toBe('buying_power_exceeded');
  });

  it('counts a won lot until it is closed, and leaves lots created before the rule alone', async () => {
    const platform = await createPlatform(world.t);
    const u = await createAccount(world.t, platform);
    const before = await lotWithPaidBidders(world.t, platform, [u.keypair]);
    await setRules(world.t, platform, { buying_power_multiple: '1' });
    // The lot keeps the rules it was created with (none): 1 × 100 would refuse this bid.
    expect((await bid(world.t, u.keypair, before, { amount: '1000' })).status).toBe(204);
    const power = () => buyingPower(world.t, u.keypair, u.id).then((r) => r.body.data.attributes);
    expect(await power()).toMatchObject({ multiple: '1', deposits: '100.00', limit: '100.00', in_use: '1000.00', left: '0.00' });
    expect((await chooseWinner(world.t, platform, before, await participantOf(world.t, before, u.id))).status).toBe(200);
    expect(await power()).toMatchObject({ in_use: '1000.00' });
    expect((await closeLot(world.t, platform, before, 'sold')).status).toBe(200);
    expect(await power()).toMatchObject({ in_use: '0.00' });
  });

  it('holds GraphQL placeBid to it alike', async () => {
    const u = await newUser();
    const lot = await lotWithPaidBidders(world.t, world.platform, [u.keypair]);
    const refused = await world.t.client.as(u.keypair).graphql(PLACE, { lot, amount: '1050' });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'buying_power_exceeded', status: 400 });
    const maxRefused = await world.t.client.as(u.keypair).graphql(PLACE, { lot, max: '1050' });
    expect(maxRefused.body.errors[0].extensions).toMatchObject({ code: 'buying_power_exceeded', status: 400 });
    expect((await world.t.client.as(u.keypair).graphql(PLACE, { lot, amount: '1000' })).body.data.placeBid).toEqual({ highestBid: '1000.00' });
  });
});

describe('max bids held to buying power', () => {
  it('refuses a max_amount beyond it, and stops a raise at the limit', async () => {
    const [u, v] = [await newUser(), await newUser()];
    const c = await lotWithPaidBidders(world.t, world.platform, [u.keypair, v.keypair]);
    const d = await lotWithPaidBidders(world.t, world.platform, [u.keypair, v.keypair], { ...EUR_LOT, start_price: '900' });
    // u: 200 of deposits, 2,000 of power.
    const beyond = await bid(world.t, u.keypair, c, { max_amount: '2001' });
    expect(beyond.body.errors[0]).toMatchObject({ status: '400', code: 'buying_power_exceeded', source: { pointer: '/data/attributes/max_amount' } });
    expect((await bid(world.t, u.keypair, c, { max_amount: '1500' })).status).toBe(204);
    expect((await bid(world.t, u.keypair, d, { amount: '900' })).status).toBe(204);
    // u's max of 1,500 on c may now lead with 2,000 - 900 = 1,100 at most.
    expect((await bid(world.t, v.keypair, c, { amount: '1050' })).status).toBe(204);
    expect((await world.t.client.get(`/lots/${c}`)).body.data.attributes.highest_bid).toBe('1100.00');
    expect((await bid(world.t, v.keypair, c, { amount: '1150' })).status).toBe(204);
    const bids = await world.t.orm.em.fork().find(Bid, { lotId: c }, { orderBy: { id: 'asc' } });
    expect(bids.map((b) => [b.accountId === u.id ? 'u' : 'v', b.amount.toFixed(2), b.placedByProxy])).toEqual([
      ['u', '1000.00', false],
      ['v', '1050.00', false],
      ['u', '1100.00', true],
      ['v', '1150.00', false],
    ]);
    expect(await attributesOf(u)).toMatchObject({ in_use: '900.00', left: '1100.00' });
  });
});

describe('GET /accounts/{id}/buying_power and GraphQL buyingPower', () => {
  it('shows the account itself and staff of the platform; 401 unsigned, 403 others, 404 no account', async () => {
    const [u, other] = [world.users[0], world.users[1]];
    expect((await buyingPower(world.t, u.keypair, u.id)).body.data).toEqual({
      type: 'buying_power',
      id: u.id,
      attributes: { platform_id: world.platform.publicKey(), multiple: '10', deposits: '0.00', limit: '0.00', in_use: '0.00', left: '0.00', currency: 'EUR' },
    });
    expect((await buyingPower(world.t, world.platform, u.id)).status).toBe(200);
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    expect((await buyingPower(world.t, admin.keypair, u.id)).status).toBe(200);
    expect((await buyingPower(world.t, null, u.id)).status).toBe(401);
    expect((await buyingPower(world.t, other.keypair, u.id)).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    const stranger = await createPlatform(world.t);
    expect((await buyingPower(world.t, stranger, u.id)).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await buyingPower(world.t, world.platform, 'GNOSUCHACCOUNT')).body.errors[0]).toMatchObject({ status: '404', code: 'account_not_found' });
  });

  it('answers for another platform given platform_id, with limit and left null where no multiple is set', async () => {
    const u = world.users[2];
    const elsewhere = await createPlatform(world.t);
    const res = await buyingPower(world.t, elsewhere, u.id, `?platform_id=${elsewhere.publicKey()}`);
    expect(res.body.data.attributes).toEqual({ platform_id: elsewhere.publicKey(), multiple: null, deposits: '0.00', limit: null, in_use: '0.00', left: null, currency: 'EUR' });
    expect((await buyingPower(world.t, u.keypair, u.id, '?platform_id=')).body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'platform_id' } });
  });

  it('reads the same through GraphQL, with the same refusals', async () => {
    const [u, other] = [world.users[0], world.users[1]];
    const mine = await world.t.client.as(u.keypair).graphql(POWER, { id: u.id });
    expect(mine.body.data.buyingPower).toEqual({ accountId: u.id, platformId: world.platform.publicKey(), multiple: '10', deposits: '0.00', limit: '0.00', inUse: '0.00', left: '0.00', currency: 'EUR' });
    const staff = await world.t.client.as(world.platform).graphql(POWER, { id: u.id, platform: world.platform.publicKey() });
    expect(staff.body.data.buyingPower.limit).toBe('0.00');
    expect((await world.t.client.as(other.keypair).graphql(POWER, { id: u.id })).body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    expect((await world.t.client.as(u.keypair).graphql(POWER, { id: 'GNOSUCHACCOUNT' })).body.errors[0].extensions).toMatchObject({ code: 'account_not_found', status: 404 });
  });
});

describe('the cost of buying power', () => {
  it('adds its lock and its read only to rounds on lots created under the rule', async () => {
    const plainPlatform = await createPlatform(world.t);
    const u = await createAccount(world.t, plainPlatform);
    const plain = await lotWithPaidBidders(world.t, plainPlatform, [u.keypair]);
    const held = await lotWithPaidBidders(world.t, world.platform, [world.users[2].keypair]);
    // Its own lock (the round also holds the bid log's key period, docs/bid-log.md) and its read.
    const locks = (sent: string[]) => sent.filter((text) => text.includes(`pg_advisory_xact_lock(hashtextextended('buying-power:'`) || text.includes('from deposits d')).length;
    expect(locks(await statementsSent(async () => expect((await bid(world.t, u.keypair, plain, { amount: '1000' })).status).toBe(204)))).toBe(0);
    expect(locks(await statementsSent(async () => expect((await bid(world.t, world.users[2].keypair, held, { amount: '1000' })).status).toBe(204)))).toBe(2);
  });
});
