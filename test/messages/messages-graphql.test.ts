import { appWith } from '../helpers/world';
import { blacklist } from '../blacklist/support';
import { createAccount } from '../helpers/factories';
import { makeWorld, type World } from './messages.helpers';

const w = appWith(makeWorld);

const SEND = `mutation($sender: String!, $receiver: String!, $lotId: ID!, $text: String!, $ref: ID) {
  sendMessage(sender: $sender, receiver: $receiver, lotId: $lotId, text: $text, refMessageId: $ref) { id lotId senderId receiverId refMessageId text createdAt readAt }
}`;
const LIST = `query($lotId: ID!, $search: String, $page: Int, $size: Int, $sort: String) {
  lotMessages(lotId: $lotId, search: $search, page: $page, size: $size, sort: $sort) {
    totalItems page size items { id text senderId lot { id organizerId } sender { id email } receiver { id email } }
  }
}`;
const DIALOGS = `query($receivers: [String!], $lotId: ID) {
  messageDialogs(receivers: $receivers, lotId: $lotId) { id lotId accountId withId unreadMessages lastMessageAt lot { id } account { id } companion { id firstName } }
}`;
const UNREAD = `query($sender: String, $lotId: ID) { unreadMessages(sender: $sender, lotId: $lotId) }`;
const MARK = `mutation($accountId: String!, $sender: String!, $lotId: ID!) { markMessagesRead(accountId: $accountId, sender: $sender, lotId: $lotId) }`;

const gql = (who: World['platform'] | null, query: string, variables: Record<string, unknown> = {}) =>
  who ? w.t.client.as(who).graphql(query, variables) : w.t.client.graphql(query, variables);


describe('messages over GraphQL', () => {
  it('sends with sendMessage, which notifies like POST /messages and answers the message', async () => {
    const res = await gql(w.buyer.keypair, SEND, { sender: w.buyer.id, receiver: w.admin.id, lotId: w.lot.id, text: 'Hi from GraphQL' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.sendMessage).toEqual({
      id: expect.stringMatching(/^\d+$/),
      lotId: w.lot.id,
      senderId: w.buyer.id,
      receiverId: w.admin.id,
      refMessageId: null,
      text: 'Hi from GraphQL',
      createdAt: expect.stringMatching(/Z$/),
      readAt: null,
    });
    const reply = await gql(w.admin.keypair, SEND, { sender: w.admin.id, receiver: w.buyer.id, lotId: w.lot.id, text: 'Hello back', ref: res.body.data.sendMessage.id });
    expect(reply.body.data.sendMessage.refMessageId).toBe(res.body.data.sendMessage.id);
    const notes = await w.t.client.as(w.admin.keypair).get('/notifications');
    expect(notes.body.data.map((n: any) => n.attributes.type_str)).toContain('message_from_buyer');
  });

  it('answers sendMessage errors with the REST codes and the field at fault', async () => {
    const long = await gql(w.buyer.keypair, SEND, { sender: w.buyer.id, receiver: w.admin.id, lotId: w.lot.id, text: 'x'.repeat(4001) });
    expect(long.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [expect.objectContaining({ field: 'text' })] });
    const anon = await gql(null, SEND, { sender: w.buyer.id, receiver: w.admin.id, lotId: w.lot.id, text: 'x' });
    expect(anon.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
    const forged = await gql(w.stranger.keypair, SEND, { sender: w.buyer.id, receiver: w.admin.id, lotId: w.lot.id, text: 'x' });
    expect(forged.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const noLot = await gql(w.buyer.keypair, SEND, { sender: w.buyer.id, receiver: w.admin.id, lotId: '99999999', text: 'x' });
    expect(noLot.body.errors[0].extensions).toMatchObject({ code: 'lot_not_found', status: 400, errors: [expect.objectContaining({ field: 'lotId' })] });
    const paused = await createAccount(w.t, w.platform);
    await blacklist(w.t, w.admin.keypair, paused.id, 'paused');
    const pausedRes = await gql(paused.keypair, SEND, { sender: paused.id, receiver: w.admin.id, lotId: w.lot.id, text: 'x' });
    expect(pausedRes.body.errors[0].extensions).toMatchObject({ code: 'account_paused', status: 403 });
  });

  it('lists with lotMessages, searching and paging, with related lot and accounts', async () => {
    const res = await gql(w.admin.keypair, LIST, { lotId: w.lot.id, sort: 'created_at', size: 1, page: 1 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.lotMessages).toMatchObject({ totalItems: 2, page: 1, size: 1 });
    expect(res.body.data.lotMessages.items).toEqual([
      { id: expect.any(String), text: 'Hello back', senderId: w.admin.id, lot: { id: w.lot.id, organizerId: w.admin.id }, sender: { id: w.admin.id, email: w.admin.email }, receiver: { id: w.buyer.id, email: w.buyer.email } },
    ]);
    const found = await gql(w.buyer.keypair, LIST, { lotId: w.lot.id, search: 'graphql' });
    expect(found.body.data.lotMessages.items.map((m: any) => m.text)).toEqual(['Hi from GraphQL']);
    // A buyer sees the admin's public view only.
    expect(found.body.data.lotMessages.items[0].receiver.email).toBeNull();
    const missing = await gql(w.buyer.keypair, LIST, { lotId: w.lot.id, search: 'tractor' });
    expect(missing.body.data.lotMessages).toMatchObject({ totalItems: 0, items: [] });
    const stranger = await gql(w.stranger.keypair, LIST, { lotId: w.lot.id });
    expect(stranger.body.data.lotMessages.totalItems).toBe(0);
    const noLot = await gql(w.admin.keypair, LIST, { lotId: '99999999' });
    expect(noLot.body.errors[0].extensions).toMatchObject({ code: 'lot_not_found', status: 404 });
  });

  it('counts with unreadMessages and messageDialogs, and markMessagesRead changes both', async () => {
    expect((await gql(w.admin.keypair, UNREAD, {})).body.data.unreadMessages).toBe(1);
    const dialogs = await gql(w.admin.keypair, DIALOGS, {});
    expect(dialogs.body.data.messageDialogs).toEqual([
      {
        id: `${w.lot.id}-${w.admin.id}-${w.buyer.id}`,
        lotId: w.lot.id,
        accountId: w.admin.id,
        withId: w.buyer.id,
        unreadMessages: 1,
        lastMessageAt: expect.stringMatching(/Z$/),
        lot: { id: w.lot.id },
        account: { id: w.admin.id },
        companion: { id: w.buyer.id, firstName: 'Ann' },
      },
    ]);
    const marked = await gql(w.admin.keypair, MARK, { accountId: w.admin.id, sender: w.buyer.id, lotId: w.lot.id });
    expect(marked.body.data.markMessagesRead).toBe(1);
    expect((await gql(w.admin.keypair, UNREAD, { sender: w.buyer.id, lotId: w.lot.id })).body.data.unreadMessages).toBe(0);
    expect((await gql(w.admin.keypair, DIALOGS, { lotId: w.lot.id })).body.data.messageDialogs[0].unreadMessages).toBe(0);
    const stranger = await gql(w.stranger.keypair, DIALOGS, { receivers: [w.admin.id] });
    expect(stranger.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const strangerMark = await gql(w.stranger.keypair, MARK, { accountId: w.buyer.id, sender: w.admin.id, lotId: w.lot.id });
    expect(strangerMark.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const badUnread = await gql(w.admin.keypair, UNREAD, { sender: 'nobody' });
    expect(badUnread.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [expect.objectContaining({ field: 'sender' })] });
  });
});
