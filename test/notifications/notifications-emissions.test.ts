import type { Keypair } from '@stellar/stellar-sdk';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { clientHash, fileRequest, reviewDoc } from '../requests/requests.helpers';

let t: TestApp;
let platform: Keypair;
let admin: CreatedAccount;
let user: CreatedAccount;
let rival: CreatedAccount;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  admin = await createAccount(t, platform, { type: 'admin' });
  user = await createAccount(t, platform);
  rival = await createAccount(t, platform);
});
afterAll(() => t.close());

/** The unread notifications of one type that `who` can read, as {type, type_str, meta}. */
async function inbox(who: Keypair, type: number) {
  const res = await t.client.as(who).get('/notifications?page[size]=100');
  expect(res.status).toBe(200);
  return res.body.data.filter((n: any) => n.attributes.type === type).map((n: any) => ({ type: n.attributes.type, type_str: n.attributes.type_str, meta: n.attributes.meta }));
}

describe('notifications emitted by the catalogue and bids', () => {
  it('19 callback_requested reaches the staff of the publisher', async () => {
    const lot = await createLot(t, platform);
    expect((await t.client.as(user.keypair).post(`/lots/${lot.id}/callbacks`)).status).toBe(201);
    const expected = [{ type: 19, type_str: 'callback_requested', meta: { lot_id: lot.id, account_id: user.id } }];
    expect(await inbox(platform, 19)).toEqual(expected);
    expect(await inbox(admin.keypair, 19)).toEqual(expected);
    expect(await inbox(user.keypair, 19)).toEqual([]);
  });

  it('21 new_upload reaches the platform staff, 15 and 16 reach the requestor', async () => {
    const approved = await fileRequest(t, user.keypair, DIRECT_SALE);
    const rejected = await fileRequest(t, user.keypair, DIRECT_SALE);
    expect(await inbox(admin.keypair, 21)).toEqual([
      { type: 21, type_str: 'new_upload', meta: { request_id: rejected.id } },
      { type: 21, type_str: 'new_upload', meta: { request_id: approved.id } },
    ]);
    const review = async (id: string, state: string) => {
      const shown = await t.client.as(platform).get(`/requests/${id}`);
      return t.client.as(platform).patch(`/requests/${id}`, reviewDoc(id, { hash: clientHash(shown.body.data.attributes), state }));
    };
    const ok = await review(approved.id, 'approved');
    await review(rejected.id, 'permanently_rejected');
    expect(await inbox(user.keypair, 15)).toEqual([{ type: 15, type_str: 'direct_sale_approved', meta: { lot_id: String(ok.body.data.attributes.lot_id) } }]);
    expect(await inbox(user.keypair, 16)).toEqual([{ type: 16, type_str: 'direct_sale_rejected', meta: { request_id: rejected.id } }]);
  });

  it('6 overbid reaches the previous leader and the staff of the publisher, not the new leader', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const em = t.orm.em.fork();
    for (const a of [user, rival]) em.create(Participant, { lotId: lot.id, accountId: a.id, state: ParticipantState.Pending });
    await em.flush();
    const bid = (who: CreatedAccount, amount: string) => t.client.as(who.keypair).post(`/lots/${lot.id}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
    expect((await bid(user, '1000')).status).toBe(204);
    expect(await inbox(user.keypair, 6)).toEqual([]);
    expect((await bid(rival, '1100')).status).toBe(204);
    expect(await inbox(user.keypair, 6)).toEqual([{ type: 6, type_str: 'overbid', meta: { lot_id: lot.id } }]);
    expect(await inbox(platform, 6)).toEqual([{ type: 6, type_str: 'overbid', meta: { lot_id: lot.id } }]);
    expect(await inbox(rival.keypair, 6)).toEqual([]);
  });
});
