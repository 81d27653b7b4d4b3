import { Keypair, Memo } from '@stellar/stellar-sdk';
import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { DepositState, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { bid } from '../rules/rules.helpers';
import { depositOf, join, participantOf, setDeposit } from '../trading/trading.helpers';
import { build, ledgerAccount, pay, submit } from './ledger.helpers';

let t: TestApp;
let platform: Keypair;
let user: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  user = await createAccount(t, platform);
  lotId = (await createLot(t, platform, { ...ENG_LOT, deposit: '100.50' })).id;
  const minted = await submit(t, await build(t, platform, [pay(user.id, 'USD', platform.publicKey(), '500')]));
  if (minted.status !== 200) throw new Error(minted.text);
});
afterAll(() => t.close());

const usdToPlatform = (amount: string, issuer = platform.publicKey()) => pay(platform.publicKey(), 'USD', issuer, amount);

describe('a deposit paid by a ledger payment', () => {
  it('stays pending for a payment below the deposit, in another asset, or to someone else', async () => {
    const participant = await join(t, user.keypair, lotId);
    const deposit = await depositOf(t, participant);
    const memo = Memo.text(`deposit:${deposit.id}`);
    expect((await submit(t, await build(t, user.keypair, [usdToPlatform('100.4999999')], { memo }))).status).toBe(200);
    const other = await createPlatform(t);
    await submit(t, await build(t, other, [pay(user.id, 'USD', other.publicKey(), '200')]));
    expect((await submit(t, await build(t, user.keypair, [usdToPlatform('150', other.publicKey())], { memo }))).status).toBe(200);
    expect((await submit(t, await build(t, user.keypair, [pay(other.publicKey(), 'USD', platform.publicKey(), '150')], { memo }))).status).toBe(200);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Pending);
    expect((await participantOf(t, lotId, user.id)).state).toBe(ParticipantState.DepositPending);
  });

  it("marks the deposit paid and the participant pending, with the deposit's notifications", async () => {
    const participant = await participantOf(t, lotId, user.id);
    const deposit = await depositOf(t, participant);
    const res = await submit(t, await build(t, user.keypair, [usdToPlatform('100.5')], { memo: Memo.text(`deposit:${deposit.id}`) }));
    expect(res.status).toBe(200);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Paid);
    expect((await participantOf(t, lotId, user.id)).state).toBe(ParticipantState.Pending);
    const notes = await t.orm.em.fork().find(Notification, { recipient: user.id, type: NotificationType.DepositReceived });
    expect(notes.map((n) => n.meta)).toEqual([{ lot_id: lotId }]);
    // the deposit asset went back to its issuer, the publisher
    expect((await ledgerAccount(t, user.id)).balances).toContainEqual({ asset_code: 'USD', asset_issuer: platform.publicKey(), balance: '149.0000001' });
    const listed = await t.client.as(user.keypair).get('/deposits');
    expect(listed.body.data[0].attributes).toMatchObject({ state: 2, state_str: 'paid' });
  });

  it('leaves a paid deposit as it is when paid again', async () => {
    const participant = await participantOf(t, lotId, user.id);
    const deposit = await depositOf(t, participant);
    const res = await submit(t, await build(t, user.keypair, [usdToPlatform('100.5')], { memo: Memo.text(`deposit:${deposit.id}`) }));
    expect(res.status).toBe(200);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Paid);
    expect(await t.orm.em.fork().count(Notification, { recipient: user.id, type: NotificationType.DepositReceived })).toBe(1);
  });

  it('pays again, as staff could, a deposit returned to a participant still taking part: it is pending again and may bid', async () => {
    const participant = await participantOf(t, lotId, user.id);
    const deposit = await depositOf(t, participant);
    expect((await setDeposit(t, platform, deposit.id, 'returned')).status).toBe(200);
    expect((await participantOf(t, lotId, user.id)).state).toBe(ParticipantState.DepositPending);
    // Returned off the ledger: the user's balance is what the earlier payments left, 48.5000001 USD.
    expect((await submit(t, await build(t, platform, [pay(user.id, 'USD', platform.publicKey(), '100')]))).status).toBe(200);
    const res = await submit(t, await build(t, user.keypair, [usdToPlatform('100.5')], { memo: Memo.text(`deposit:${deposit.id}`) }));
    expect(res.status).toBe(200);
    expect((await depositOf(t, participant)).state).toBe(DepositState.Paid);
    expect((await participantOf(t, lotId, user.id)).state).toBe(ParticipantState.Pending);
    expect((await bid(t, user.keypair, lotId, { amount: '1000' })).status).toBe(204);
  });
});
