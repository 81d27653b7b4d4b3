import { Message } from '../../src/modules/messages/messages.entity';
import { Notification } from '../../src/modules/notifications/notifications.entity';
import { blacklist } from '../blacklist/support';
import { appWith } from '../helpers/world';
import { absentAccountId, createAccount } from '../helpers/factories';
import { makeWorld, messageDoc, send } from './messages.helpers';

const w = appWith(makeWorld);

const rowsOf = (lotId: string) => w.t.orm.em.fork().find(Message, { lotId }, { orderBy: { id: 'asc' } });
const notificationsOf = (recipient: string) => w.t.orm.em.fork().find(Notification, { recipient, type: { $in: [17, 18] } }, { orderBy: { id: 'asc' } });


describe('POST /messages', () => {
  it('stores the message from the caller and answers 204 without a body', async () => {
    const res = await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: Number(w.lot.id), text: 'Hello there' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const [row] = (await rowsOf(w.lot.id)).filter((m) => m.sender === w.buyer.id && m.receiver === w.buyer2.id);
    expect(row).toMatchObject({ lotId: w.lot.id, text: 'Hello there', readAt: null, refMessageId: null });
  });

  it('takes lot_id as an integer-valued string too, and data.type must be messages', async () => {
    expect((await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: 'as string' })).status).toBe(204);
    const wrong = await w.t.client.as(w.buyer.keypair).post('/messages', { data: { type: 'notes', attributes: { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: 1, text: 'x' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/type' } });
  });

  it('accepts exactly 4000 characters, counting code points, and refuses 4001 naming the field', async () => {
    const atLimit = '🚗'.repeat(4000);
    expect((await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: atLimit })).status).toBe(204);
    const before = (await rowsOf(w.lot.id)).length;
    const res = await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: 'a'.repeat(4001) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/text' } })]);
    expect(res.body.errors[0].detail).toMatch(/4000/);
    expect(await rowsOf(w.lot.id)).toHaveLength(before);
  });

  it('answers 400 for each missing or malformed attribute, naming it', async () => {
    const res = await send(w.t, w.buyer.keypair, { receiver: 'nobody', lot_id: 'x', text: '   ' });
    expect(res.status).toBe(400);
    const byPointer = Object.fromEntries(res.body.errors.map((e: any) => [e.source.pointer, e.code]));
    expect(byPointer).toEqual({
      '/data/attributes/sender': 'missing_field',
      '/data/attributes/receiver': 'invalid_field',
      '/data/attributes/lot_id': 'invalid_field',
      '/data/attributes/text': 'invalid_field',
    });
    const noBody = await w.t.client.as(w.buyer.keypair).post('/messages');
    expect(noBody.status).toBe(400);
    expect(noBody.body.errors[0].code).toBe('missing_body');
  });

  it('answers 400 lot_not_found for an unknown lot, and 400 for an unknown receiver or a message to oneself', async () => {
    const noLot = await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: 99999999, text: 'hi' });
    expect(noLot.status).toBe(400);
    expect(noLot.body.errors[0]).toMatchObject({ status: '400', code: 'lot_not_found', source: { pointer: '/data/attributes/lot_id' } });
    const ghost = absentAccountId((await createAccount(w.t, w.platform)).id);
    const noReceiver = await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: ghost, lot_id: w.lot.id, text: 'hi' });
    expect(noReceiver.status).toBe(400);
    expect(noReceiver.body.errors[0]).toMatchObject({ code: 'account_not_found', source: { pointer: '/data/attributes/receiver' } });
    const self = await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.buyer.id, lot_id: w.lot.id, text: 'hi' });
    expect(self.status).toBe(400);
    expect(self.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/receiver' } });
  });

  it('answers 401 unsigned', async () => {
    const res = await w.t.client.post('/messages', messageDoc({ sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: 'hi' }));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  describe('permission (the sender, or staff of its platform)', () => {
    it('refuses 403 to another user sending as the sender', async () => {
      const res = await send(w.t, w.stranger.keypair, { sender: w.buyer.id, receiver: w.admin.id, lot_id: w.lot.id, text: 'forged' });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_allowed');
      expect((await rowsOf(w.lot.id)).some((m) => m.text === 'forged')).toBe(false);
    });

    it("refuses 403 to staff of another platform, and lets staff of the sender's platform send as it", async () => {
      const other = await send(w.t, w.otherAdmin.keypair, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: 'other staff' });
      expect(other.status).toBe(403);
      const staff = await send(w.t, w.platform, { sender: w.buyer.id, receiver: w.buyer2.id, lot_id: w.lot.id, text: 'by the platform' });
      expect(staff.status).toBe(204);
      const byAdmin = await send(w.t, w.admin.keypair, { sender: w.buyer2.id, receiver: w.buyer.id, lot_id: w.lot.id, text: 'by the admin' });
      expect(byAdmin.status).toBe(204);
      const texts = (await rowsOf(w.lot.id)).map((m) => [m.sender, m.text]);
      expect(texts).toEqual(expect.arrayContaining([[w.buyer.id, 'by the platform'], [w.buyer2.id, 'by the admin']]));
    });

    it('refuses 403 account_paused to a paused account', async () => {
      const paused = await createAccount(w.t, w.platform);
      await blacklist(w.t, w.admin.keypair, paused.id, 'paused');
      const res = await send(w.t, paused.keypair, { sender: paused.id, receiver: w.admin.id, lot_id: w.lot.id, text: 'let me in' });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('account_paused');
      expect((await rowsOf(w.lot.id)).some((m) => m.sender === paused.id)).toBe(false);
    });
  });

  describe('ref_message_id', () => {
    it('links a reply to a message of the same conversation and refuses others', async () => {
      await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.stranger.id, lot_id: w.lot.id, text: 'question' });
      const question = (await rowsOf(w.lot.id)).filter((m) => m.text === 'question')[0];
      const reply = await send(w.t, w.stranger.keypair, { sender: w.stranger.id, receiver: w.buyer.id, lot_id: w.lot.id, text: 'answer', ref_message_id: question.id });
      expect(reply.status).toBe(204);
      expect((await rowsOf(w.lot.id)).find((m) => m.text === 'answer')?.refMessageId).toBe(question.id);
      const foreign = await send(w.t, w.buyer2.keypair, { sender: w.buyer2.id, receiver: w.buyer.id, lot_id: w.lot.id, text: 'x', ref_message_id: question.id });
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/ref_message_id' } });
    });
  });
});

describe('notifications 17 and 18', () => {
  it('notifies the organizer of a message from a buyer as message_from_buyer', async () => {
    const before = (await notificationsOf(w.admin.id)).length;
    expect((await send(w.t, w.buyer.keypair, { sender: w.buyer.id, receiver: w.admin.id, lot_id: w.lot.id, text: 'Is it still for sale?' })).status).toBe(204);
    const rows = await notificationsOf(w.admin.id);
    expect(rows).toHaveLength(before + 1);
    const listed = await w.t.client.as(w.admin.keypair).get('/notifications');
    const n = listed.body.data.find((x: any) => x.id === rows[rows.length - 1].id);
    expect(n.attributes).toMatchObject({ type: 17, type_str: 'message_from_buyer', meta: { lot_id: w.lot.id, sender_id: w.buyer.id, receiver_id: w.admin.id } });
    expect((await notificationsOf(w.buyer.id)).filter((x) => x.type === 18)).toHaveLength(0);
  });

  it('notifies the receiver of a message from the organizer as message_from_seller', async () => {
    const buyer = await createAccount(w.t, w.platform);
    expect((await send(w.t, w.admin.keypair, { sender: w.admin.id, receiver: buyer.id, lot_id: w.lot.id, text: 'Yes it is' })).status).toBe(204);
    const listed = await w.t.client.as(buyer.keypair).get('/notifications');
    expect(listed.body.data.map((x: any) => x.attributes)).toEqual([
      expect.objectContaining({ type: 18, type_str: 'message_from_seller', meta: { lot_id: w.lot.id, sender_id: w.admin.id, receiver_id: buyer.id } }),
    ]);
  });

  it('notifies nobody when neither account organizes the lot', async () => {
    const a = await createAccount(w.t, w.platform);
    const b = await createAccount(w.t, w.platform);
    expect((await send(w.t, a.keypair, { sender: a.id, receiver: b.id, lot_id: w.lot.id, text: 'between buyers' })).status).toBe(204);
    expect(await notificationsOf(b.id)).toEqual([]);
    expect(await notificationsOf(a.id)).toEqual([]);
  });
});
