import { Money } from '../../src/core/money';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Notification, NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';

// Notification.payload: each notification's meta read as a typed notice, the lot it names read
// through the request's lot loader and redacted as the lot's own view is for the caller.

const world = appWithPlatform();
let bidder: CreatedAccount;
let lotIds: string[];
const END = new Date('2030-05-01T10:00:00Z');

const notify = (type: N, meta: Record<string, string>, createdAt: Date) => ({ recipient: bidder.id, type, meta, createdAt });

beforeAll(async () => {
  const { t, platform } = world;
  bidder = await createAccount(t, platform);
  lotIds = [];
  for (let i = 0; i < 3; i++) lotIds.push(String((await createLot(t, platform, { ...ENG_LOT, reserve_price: '3000', currency: i === 1 ? 'GEL' : 'USD' })).id));
  const em = t.orm.em.fork();
  await em.nativeUpdate(Lot, { id: lotIds[0] }, { highestBid: new Money('1250.50'), endTime: END });
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  em.create(Notification, notify(N.Overbid, { lot_id: lotIds[0] }, at(9)));
  em.create(Notification, notify(N.LotExtended, { lot_id: lotIds[0], end_time: '2030-05-01T10:00:00Z' }, at(8)));
  em.create(Notification, notify(N.SecondChanceOffered, { lot_id: lotIds[1], offer_id: '7', amount: '1050.00', currency: 'GEL', expires_at: '2030-01-02T03:04:05Z' }, at(7)));
  em.create(Notification, notify(N.SavedSearchMatched, { lot_id: lotIds[2], search_id: '4', reason: 'new_lot' }, at(6)));
  em.create(Notification, notify(N.Winner, { lot_id: lotIds[2] }, at(5)));
  em.create(Notification, notify(N.DirectSaleRejected, { request_id: '12' }, at(4)));
  em.create(Notification, notify(N.DepositPending, {}, at(3)));
  em.create(Notification, { recipient: world.platform.publicKey(), type: N.CallbackRequested, meta: { lot_id: lotIds[0], account_id: bidder.id }, createdAt: at(1) });
  // What a platform reported: meta it chose, malformed values answered null.
  em.create(Notification, notify(N.FinancingPending, { lot_id: 'not a lot' }, at(2)));
  await em.flush();
});

const PAYLOAD = `payload {
  __typename lotId lot { id reservePrice }
  ... on OutbidNotice { amount { amount currency } endTime }
  ... on LotExtendedNotice { endTime }
  ... on SecondChanceOfferNotice { offerId amount { amount currency } expiresAt }
  ... on SavedSearchMatchNotice { searchId reason }
  ... on RequestNotice { requestId }
}`;

const asBidder = (query: string, variables?: Record<string, unknown>) => world.t.client.as(bidder.keypair).graphql(query, variables);

describe('Notification.payload', () => {
  it('types each notification’s meta by its kind, the lot as its own view shows it to the caller', async () => {
    const res = await asBidder(`{ viewer { notifications(first: 20) { nodes { typeStr ${PAYLOAD} } } } }`);
    expect(res.body.errors).toBeUndefined();
    const [l0, l1, l2] = lotIds.map((id) => ({ id, reservePrice: null }));
    expect(res.body.data.viewer.notifications.nodes.map((n: any) => [n.typeStr, n.payload])).toEqual([
      ['overbid', { __typename: 'OutbidNotice', lotId: l0.id, lot: l0, amount: { amount: '1250.50', currency: 'USD' }, endTime: '2030-05-01T10:00:00Z' }],
      ['lot_extended', { __typename: 'LotExtendedNotice', lotId: l0.id, lot: l0, endTime: '2030-05-01T10:00:00Z' }],
      ['second_chance_offered', { __typename: 'SecondChanceOfferNotice', lotId: l1.id, lot: l1, offerId: '7', amount: { amount: '1050.00', currency: 'GEL' }, expiresAt: '2030-01-02T03:04:05Z' }],
      ['saved_search_matched', { __typename: 'SavedSearchMatchNotice', lotId: l2.id, lot: l2, searchId: '4', reason: 'new_lot' }],
      ['winner', { __typename: 'LotNotice', lotId: l2.id, lot: l2 }],
      ['direct_sale_rejected', { __typename: 'RequestNotice', lotId: null, lot: null, requestId: '12' }],
      ['deposit_pending', { __typename: 'LotNotice', lotId: null, lot: null }],
      ['financing_pending', { __typename: 'LotNotice', lotId: null, lot: null }],
    ]);
  });

  it('shows the lot’s managers its reserve, and the account a staff notice names', async () => {
    const res = await world.t.client.as(world.platform).graphql(`{ viewer { notifications(first: 5) { nodes { payload { __typename lot { id reservePrice } ... on LotAccountNotice { accountId account { id } } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.notifications.nodes).toEqual([
      { payload: { __typename: 'LotAccountNotice', lot: { id: lotIds[0], reservePrice: '3000.00' }, accountId: bidder.id, account: { id: bidder.id } } },
    ]);
  });

  it('answers the same payload on the deprecated page/size list', async () => {
    const viewer = await asBidder(`{ viewer { notifications(first: 20) { nodes { id ${PAYLOAD} } } } }`);
    const paged = await asBidder(`{ notifications(size: 20) { items { id ${PAYLOAD} } } }`);
    expect(paged.body.errors).toBeUndefined();
    expect(paged.body.data.notifications.items).toEqual(viewer.body.data.viewer.notifications.nodes);
  });

  it('reads the lots of a page of notices in the statements of a page of one', async () => {
    const statementsFor = async (first: number) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await asBidder(`{ viewer { notifications(first: ${first}) { nodes { ${PAYLOAD} } } } }`);
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.viewer.notifications.nodes).toHaveLength(first);
      return sent.length;
    };
    expect(await statementsFor(5)).toBe(await statementsFor(1));
  });
});
