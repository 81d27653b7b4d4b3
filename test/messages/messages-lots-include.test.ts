import { appWith } from '../helpers/world';
import { countStatements } from '../helpers/statements';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { makeWorld, sent } from './messages.helpers';

const w = appWith(makeWorld);
let lots: Lot[];

beforeAll(async () => {
  lots = [await createLot(w.t, w.admin.keypair, DIRECT_SALE), await createLot(w.t, w.admin.keypair, ENG_LOT), await createLot(w.t, w.admin.keypair, DIRECT_SALE)];
  await sent(w.t, w.buyer.keypair, w.buyer.id, w.admin.id, lots[0].id, 'one');
  await sent(w.t, w.buyer.keypair, w.buyer.id, w.admin.id, lots[0].id, 'two');
  await sent(w.t, w.buyer2.keypair, w.buyer2.id, w.admin.id, lots[1].id, 'three');
  await sent(w.t, w.admin.keypair, w.admin.id, w.buyer.id, lots[1].id, 'four');
});

const counterOf = (body: any, lotId: string) => {
  const resources = Array.isArray(body.data) ? body.data : [body.data];
  const rel = resources.find((l: any) => l.id === lotId).relationships.messages.data;
  return rel && body.included.find((r: any) => r.type === rel.type && r.id === rel.id);
};

describe('the lots messages include', () => {
  it("shows on GET /lots/{id} the caller's unread messages about the lot as an unread_messages counter", async () => {
    const res = await w.t.client.as(w.admin.keypair).get(`/lots/${lots[0].id}?include=messages`);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.messages).toEqual({ data: { type: 'unread_messages', id: `${lots[0].id}-${w.admin.id}` } });
    expect(res.body.included).toEqual([{ type: 'unread_messages', id: `${lots[0].id}-${w.admin.id}`, attributes: { count: 2, lot_id: Number(lots[0].id) } }]);
    const buyer = await w.t.client.as(w.buyer.keypair).get(`/lots/${lots[1].id}?include=messages`);
    expect(counterOf(buyer.body, lots[1].id).attributes.count).toBe(1);
  });

  it('shows the count of each lot of GET /lots, zero where there is none, and follows mark-read', async () => {
    const query = `/lots?filter[in]=${lots.map((l) => l.id).join(',')}&include=messages`;
    const res = await w.t.client.as(w.admin.keypair).get(query);
    expect(res.status).toBe(200);
    expect(lots.map((l) => counterOf(res.body, l.id).attributes.count)).toEqual([2, 1, 0]);
    await w.t.client.as(w.admin.keypair).patch(`/accounts/${w.admin.id}/messages/`, { data: { attributes: { sender: w.buyer.id, lot_id: lots[0].id } } });
    const after = await w.t.client.as(w.admin.keypair).get(query);
    expect(lots.map((l) => counterOf(after.body, l.id).attributes.count)).toEqual([0, 1, 0]);
  });

  it('relates no counter for anonymous callers', async () => {
    const res = await w.t.client.get(`/lots/${lots[0].id}?include=messages`);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.messages).toEqual({ data: null });
    expect(res.body.included).toEqual([]);
  });

  it('loads the counters of a whole page with one statement', async () => {
    const page = (ids: string[]) => async () => {
      const res = await w.t.client.as(w.admin.keypair).get(`/lots?filter[in]=${ids.join(',')}&include=messages`);
      expect(res.body.data).toHaveLength(ids.length);
    };
    const withOne = await countStatements(w.t, page([lots[0].id]));
    const withThree = await countStatements(w.t, page(lots.map((l) => l.id)));
    const without = await countStatements(w.t, async () => w.t.client.as(w.admin.keypair).get(`/lots?filter[in]=${lots.map((l) => l.id).join(',')}`));
    expect(withThree).toBe(withOne);
    expect(withThree - without).toBe(1);
  });

  it('answers Lot.unreadMessages over GraphQL through one loader, null for anonymous callers', async () => {
    const query = '{ lots(first: 50) { nodes { id unreadMessages } } }';
    const res = await w.t.client.as(w.admin.keypair).graphql(query);
    expect(res.body.errors).toBeUndefined();
    const byId = Object.fromEntries(res.body.data.lots.nodes.map((n: any) => [n.id, n.unreadMessages]));
    expect(lots.map((l) => byId[l.id])).toEqual([0, 1, 0]);
    const anon = await w.t.client.graphql(query);
    expect(anon.body.data.lots.nodes.length).toBeGreaterThanOrEqual(lots.length);
    expect(anon.body.data.lots.nodes.every((n: any) => n.unreadMessages === null)).toBe(true);
    const single = await w.t.client.as(w.buyer.keypair).graphql(`{ lot(id: "${lots[1].id}") { unreadMessages } }`);
    expect(single.body.data.lot.unreadMessages).toBe(1);
    const page = (first: number) => async () => {
      const r = await w.t.client.as(w.admin.keypair).graphql(`{ lots(first: ${first}) { nodes { id unreadMessages } } }`);
      expect(r.body.data.lots.nodes).toHaveLength(first);
    };
    expect(await countStatements(w.t, page(3))).toBe(await countStatements(w.t, page(1)));
  });
});
