import type { Keypair } from '@stellar/stellar-sdk';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { join as joinLot } from '../trading/trading.helpers';
import { bid as bidOn } from '../rules/rules.helpers';
import { appWith } from '../helpers/world';

const FREE = { ...ENG_LOT, deposit: '0', reserve_price: '3000' };

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const buyer = await createAccount(t, platform);
  const rival = await createAccount(t, platform);
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  return { platform, otherPlatform, buyer, rival, otherAdmin };
});

const ok = async (res: Promise<{ status: number; text: string }>) => {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
};
const join = (who: CreatedAccount, lotId: string) => joinLot(world.t, who.keypair, lotId);
const bid = (who: CreatedAccount, lotId: string, amount: string) => bidOn(world.t, who.keypair, lotId, { amount });
const gql = (who: Keypair | null, query: string, variables?: Record<string, unknown>) => (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);

let lot: Lot;
let buyersOnly: Lot;

beforeAll(async () => {
  const { t, platform, buyer, rival } = world;
  lot = await createLot(t, platform, FREE);
  buyersOnly = await createLot(t, platform, FREE);
  await join(buyer, lot.id);
  await join(rival, lot.id);
  await join(buyer, buyersOnly.id);
  await ok(bid(buyer, lot.id, '1000'));
  await ok(bid(rival, lot.id, '1100'));
  await ok(bid(buyer, buyersOnly.id, '1000'));
});

const BIDDERS = `query($id: ID!) { lot(id: $id) { reservePrice bids { amount bidderId bidder { id email } } } }`;

describe('the relations show nobody more than REST does', () => {
  it("names through Bid.bidder only the bidders REST names: a rival's own bids, every bid to the lot's platform", async () => {
    const rest = await world.t.client.as(world.rival.keypair).get(`/lots/${lot.id}?include=bids`);
    const restBidders = rest.body.included.filter((r: { type: string }) => r.type === 'bids').map((r: any) => r.attributes.account_id ?? null);
    const asRival = (await gql(world.rival.keypair, BIDDERS, { id: lot.id })).body.data.lot;
    expect(asRival.bids.map((b: any) => b.bidderId)).toEqual(restBidders);
    expect(asRival.bids).toEqual([
      { amount: '1000.00', bidderId: null, bidder: null },
      { amount: '1100.00', bidderId: world.rival.id, bidder: { id: world.rival.id, email: world.rival.email } },
    ]);
    expect(asRival.reservePrice).toBeNull();
    const asOtherStaff = (await gql(world.otherAdmin.keypair, BIDDERS, { id: lot.id })).body.data.lot;
    expect(asOtherStaff.bids.map((b: any) => b.bidder)).toEqual([null, null]);
    expect(asOtherStaff.reservePrice).toBeNull();
    const asPlatform = (await gql(world.platform, BIDDERS, { id: lot.id })).body.data.lot;
    expect(asPlatform.bids.map((b: any) => b.bidder.id)).toEqual([world.buyer.id, world.rival.id]);
    expect(asPlatform.reservePrice).toBe('3000.00');
  });

  it("answers Account.bids only where the caller may see them as the account's: itself and the lots' managers", async () => {
    const query = `query($id: String!) { account(id: $id) { email bids { amount lotId bidderId } lots { id } } }`;
    const own = (await gql(world.buyer.keypair, query, { id: world.buyer.id })).body.data.account;
    expect(own.bids.map((b: any) => [b.lotId, b.amount])).toEqual([[buyersOnly.id, '1000.00'], [lot.id, '1000.00']]);
    expect(own.bids.every((b: any) => b.bidderId === world.buyer.id)).toBe(true);
    for (const stranger of [world.rival.keypair, world.otherAdmin.keypair, world.otherPlatform]) {
      const seen = await gql(stranger, query, { id: world.buyer.id });
      expect(seen.body.errors).toBeUndefined();
      expect(seen.body.data.account).toMatchObject({ email: null, bids: [] });
    }
    expect((await gql(null, query, { id: world.buyer.id })).body.data.account.bids).toEqual([]);
    const managers = (await gql(world.platform, query, { id: world.buyer.id })).body.data.account;
    expect(managers.bids).toHaveLength(2);
    // The lots an account organized are public, as GET /lots?filter[organizer] shows them to anyone.
    const organized = (await gql(world.otherAdmin.keypair, query, { id: world.platform.publicKey() })).body.data.account.lots.map((l: any) => l.id);
    const rest = await world.t.client.as(world.otherAdmin.keypair).get(`/lots?filter[organizer]=${world.platform.publicKey()}`);
    expect(organized.sort()).toEqual(rest.body.data.map((r: any) => r.id).sort());
  });

  it("shows another bidder and another platform's staff none of the buyer's participations, standing or rows", async () => {
    const query = `query($id: ID!) {
      lot(id: $id) { viewerCanBid viewerParticipation { accountId isLeading } participants { accountId account { id email } lot { id } } deposits { lot { id } } }
    }`;
    const rival = (await gql(world.rival.keypair, query, { id: buyersOnly.id })).body.data.lot;
    expect(rival).toEqual({ viewerCanBid: false, viewerParticipation: null, participants: [], deposits: [] });
    const other = (await gql(world.otherAdmin.keypair, query, { id: lot.id })).body.data.lot;
    expect(other).toEqual({ viewerCanBid: false, viewerParticipation: null, participants: [], deposits: [] });
    const restOther = await world.t.client.as(world.otherAdmin.keypair).get(`/lots/${lot.id}?include=participants`);
    expect((restOther.body.included ?? []).filter((r: { type: string }) => r.type === 'participants')).toEqual([]);
    const mine = (await gql(world.rival.keypair, query, { id: lot.id })).body.data.lot;
    expect(mine).toEqual({
      viewerCanBid: true,
      viewerParticipation: { accountId: world.rival.id, isLeading: true },
      participants: [{ accountId: world.rival.id, account: { id: world.rival.id, email: world.rival.email }, lot: { id: lot.id } }],
      deposits: [],
    });
    const anonymous = (await gql(null, `query($id: ID!) { lot(id: $id) { viewerCanBid viewerParticipation { id } } }`, { id: lot.id })).body.data.lot;
    expect(anonymous).toEqual({ viewerCanBid: false, viewerParticipation: null });
  });

  it("answers viewer to a signed-in caller only, and with the caller's own lists", async () => {
    const res = await gql(null, '{ viewer { id } }');
    expect(res.body.errors[0].extensions.code).toBe('unauthenticated');
    const rival = (await gql(world.rival.keypair, '{ viewer { participations { nodes { lotId isLeading } } notifications { nodes { lot { id } } } } }')).body.data.viewer;
    expect(rival.participations.nodes).toEqual([{ lotId: lot.id, isLeading: true }]);
    const buyer = (await gql(world.buyer.keypair, '{ viewer { notifications { nodes { typeStr lot { id } } } } }')).body.data.viewer;
    // The outbid notice names the lot it is about.
    expect(buyer.notifications.nodes).toContainEqual({ typeStr: 'overbid', lot: { id: lot.id } });
  });

  it('refuses a page of a viewer list beyond 100 naming the argument, and counts the lists in the cost', async () => {
    const res = await gql(world.buyer.keypair, '{ viewer { participations(first: 101) { nodes { id } } } }');
    expect(res.body.errors[0]).toMatchObject({ extensions: expect.objectContaining({ code: 'invalid_page' }) });
    const costly = await gql(world.buyer.keypair, '{ viewer { participations(first: 100) { nodes { lot { participants { account { bids(last: 100) { id } } } } } } } }');
    expect(costly.status).toBe(400);
    expect(costly.body.errors[0].message).toMatch(/the query costs \d+, more than the limit/);
  });
});
