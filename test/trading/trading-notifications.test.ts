import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { uploadedId } from '../documents/documents.helpers';
import { chooseWinner, FREE_LOT, join, pay, putWinnerDetails } from './trading.helpers';

let t: TestApp;
let platform: Keypair;
let admin: CreatedAccount;
let user: CreatedAccount;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  admin = await createAccount(t, platform, { type: 'admin' });
  user = await createAccount(t, platform);
});
afterAll(() => t.close());

async function inbox(who: Keypair, type: number) {
  const res = await t.client.as(who).get('/notifications?page[size]=100');
  return res.body.data.filter((n: any) => n.attributes.type === type).map((n: any) => ({ type_str: n.attributes.type_str, meta: n.attributes.meta }));
}

describe('notifications emitted by trading', () => {
  it('4 deposit_pending, then 5 deposit_received and 20 new_active_trade when the deposit is paid', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const participant = await join(t, user.keypair, lot.id);
    expect(await inbox(user.keypair, 4)).toEqual([{ type_str: 'deposit_pending', meta: {} }]);
    expect(await inbox(admin.keypair, 20)).toEqual([]);
    await pay(t, platform, participant);
    expect(await inbox(user.keypair, 5)).toEqual([{ type_str: 'deposit_received', meta: { lot_id: lot.id } }]);
    const trade = [{ type_str: 'new_active_trade', meta: { lot_id: lot.id, account_id: user.id } }];
    expect(await inbox(platform, 20)).toEqual(trade);
    expect(await inbox(admin.keypair, 20)).toEqual(trade);
  });

  it('20 new_active_trade on joining a lot without deposit and on a buy-now request; 7 winner; 8 invoice_attached', async () => {
    const buyer = await createAccount(t, platform);
    const lot = await createLot(t, platform, FREE_LOT);
    const participant = await join(t, buyer.keypair, lot.id);
    expect((await t.client.as(buyer.keypair).patch(`/v2/lots/${lot.id}/participants/${buyer.id}`)).status).toBe(200);
    const trades = (await inbox(platform, 20)).filter((n: any) => n.meta.lot_id === lot.id);
    expect(trades).toEqual([
      { type_str: 'new_active_trade', meta: { lot_id: lot.id, account_id: buyer.id } },
      { type_str: 'new_active_trade', meta: { lot_id: lot.id, account_id: buyer.id } },
    ]);
    expect((await chooseWinner(t, platform, lot.id, participant, true)).status).toBe(200);
    expect(await inbox(buyer.keypair, 7)).toEqual([{ type_str: 'winner', meta: { lot_id: lot.id } }]);
    const invoiceId = await uploadedId(t, platform);
    expect((await putWinnerDetails(t, platform, lot.id, { invoice_id: invoiceId })).status).toBe(200);
    expect(await inbox(buyer.keypair, 8)).toEqual([{ type_str: 'invoice_attached', meta: { lot_id: lot.id, invoice_id: invoiceId } }]);
    expect((await putWinnerDetails(t, platform, lot.id, { invoice_id: invoiceId, container_id: 'C1' })).status).toBe(200);
    expect(await inbox(buyer.keypair, 8)).toHaveLength(1);
  });
});
