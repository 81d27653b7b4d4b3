import { trust } from '../blacklist/support';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { makeWorld, sent, type World } from './messages.helpers';

let t: TestApp;
let w: World;
let lot: Lot;
let outsider: CreatedAccount;

const index = (who: CreatedAccount['keypair'], lotId: string, query = '') => t.client.as(who).get(`/lots/${lotId}/messages${query}`);
const texts = (body: any) => body.data.map((m: any) => m.attributes.text);

beforeAll(async () => {
  t = await startTestApp();
  w = await makeWorld(t);
  lot = await createLot(t, w.admin.keypair, DIRECT_SALE);
  outsider = await createAccount(t, w.otherPlatform);
  // One conversation buyer ↔ admin (the organizer), another buyer2 → admin.
  await sent(t, w.buyer.keypair, w.buyer.id, w.admin.id, lot.id, 'Is the engine original?');
  await sent(t, w.admin.keypair, w.admin.id, w.buyer.id, lot.id, 'Yes, the engine is original');
  await sent(t, w.buyer2.keypair, w.buyer2.id, w.admin.id, lot.id, 'Any rust on the doors?');
  await sent(t, w.buyer.keypair, w.buyer.id, w.admin.id, lot.id, 'Can I see the service book?');
  await sent(t, outsider.keypair, outsider.id, w.admin.id, lot.id, 'Delivery to Kyiv possible?');
});
afterAll(() => t.close());

describe('GET /lots/{id}/messages', () => {
  it('shows a participant its own conversations only, newest first, as message resources', async () => {
    const res = await index(w.buyer.keypair, lot.id);
    expect(res.status).toBe(200);
    expect(texts(res.body)).toEqual(['Can I see the service book?', 'Yes, the engine is original', 'Is the engine original?']);
    expect(res.body.meta).toEqual({ on_page: 3, total_items: 3 });
    const [first] = res.body.data;
    expect(first).toEqual({
      type: 'messages',
      id: expect.stringMatching(/^\d+$/),
      attributes: {
        account_id: w.buyer.id,
        receiver_id: w.admin.id,
        lot_id: Number(lot.id),
        ref_message_id: null,
        text: 'Can I see the service book?',
        created_at: expect.stringMatching(/Z$/),
        read_at: null,
      },
      relationships: {
        lot: { data: { type: 'lots', id: lot.id } },
        members: { data: [{ type: 'accounts', id: w.buyer.id }, { type: 'accounts', id: w.admin.id }] },
      },
    });
    expect(res.body.included).toBeUndefined();
  });

  it("shows staff of the lot's publisher every message of the lot", async () => {
    for (const staff of [w.admin.keypair, w.platform]) {
      const res = await index(staff, lot.id, '?sort=created_at');
      expect(res.status).toBe(200);
      expect(res.body.meta.total_items).toBe(5);
      expect(texts(res.body)[0]).toBe('Is the engine original?');
    }
  });

  it("counts an admin trusting the publisher among the publisher's staff", async () => {
    const trusting = await createAccount(t, w.otherPlatform, { type: 'admin' });
    expect((await index(trusting.keypair, lot.id)).body.meta.total_items).toBe(0);
    await trust(t, trusting.id, w.platform.publicKey());
    expect((await index(trusting.keypair, lot.id)).body.meta.total_items).toBe(5);
  });

  it('shows a stranger none of the conversations of others', async () => {
    const res = await index(w.stranger.keypair, lot.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.total_items).toBe(0);
    const otherStaff = await index(w.otherAdmin.keypair, lot.id);
    expect(otherStaff.body.data).toEqual([]);
  });

  it("answers 403 when a non-participant asks for someone else's conversation", async () => {
    for (const who of [w.stranger.keypair, w.otherAdmin.keypair, w.buyer2.keypair]) {
      const res = await index(who, lot.id, `?filter[sender]=${w.buyer.id}&filter[receivers]=${w.admin.id}`);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_allowed');
    }
    const own = await index(w.buyer.keypair, lot.id, `?filter[sender]=${w.buyer.id}&filter[receivers]=${w.admin.id}`);
    expect(texts(own.body)).toEqual(['Can I see the service book?', 'Is the engine original?']);
    const staff = await index(w.platform, lot.id, `?filter[sender]=${w.buyer.id}&filter[receivers]=${w.admin.id}`);
    expect(staff.body.meta.total_items).toBe(2);
  });

  it('filters by sender, receivers and lot_id', async () => {
    const fromAdmin = await index(w.admin.keypair, lot.id, `?filter[sender]=${w.admin.id}`);
    expect(texts(fromAdmin.body)).toEqual(['Yes, the engine is original']);
    const toBuyer = await index(w.admin.keypair, lot.id, `?filter[receivers]=${w.buyer.id},${w.buyer2.id}`);
    expect(texts(toBuyer.body)).toEqual(['Yes, the engine is original']);
    const sameLot = await index(w.admin.keypair, lot.id, `?filter[lot_id]=${lot.id}`);
    expect(sameLot.body.meta.total_items).toBe(5);
    const otherLot = await index(w.admin.keypair, lot.id, `?filter[lot_id]=${w.lot.id}`);
    expect(otherLot.body.meta.total_items).toBe(0);
  });

  it("filters by the senders' platform, for staff of that platform only", async () => {
    const ours = await index(w.admin.keypair, lot.id, `?filter[platform]=${w.platform.publicKey()}`);
    expect(ours.status).toBe(200);
    expect(ours.body.meta.total_items).toBe(4);
    const theirs = await index(w.otherAdmin.keypair, lot.id, `?filter[platform]=${w.otherPlatform.publicKey()}`);
    expect(theirs.status).toBe(200);
    expect(texts(theirs.body)).toEqual([]);
    const user = await index(w.buyer.keypair, lot.id, `?filter[platform]=${w.platform.publicKey()}`);
    expect(user.status).toBe(403);
    const foreign = await index(w.admin.keypair, lot.id, `?filter[platform]=${w.otherPlatform.publicKey()}`);
    expect(foreign.status).toBe(403);
  });

  describe('full-text search', () => {
    it('matches words whatever their case, every word of the query, and quoted phrases', async () => {
      const res = await index(w.admin.keypair, lot.id, '?filter[search]=ENGINE');
      expect(texts(res.body).sort()).toEqual(['Is the engine original?', 'Yes, the engine is original']);
      const both = await index(w.admin.keypair, lot.id, `?filter[search]=${encodeURIComponent('yes engine')}`);
      expect(texts(both.body)).toEqual(['Yes, the engine is original']);
      const phrase = await index(w.admin.keypair, lot.id, `?filter[search]=${encodeURIComponent('"service book"')}`);
      expect(texts(phrase.body)).toEqual(['Can I see the service book?']);
    });

    it('is served by the GIN index on the text search vector', async () => {
      const em = t.orm.em.fork();
      const plan = await em.transactional(async (tx) => {
        await tx.getConnection().execute('set local enable_seqscan = off', [], 'run', tx.getTransactionContext());
        return tx
          .getConnection()
          .execute<{ 'QUERY PLAN': string }[]>(`explain select id from messages m where m.search @@ websearch_to_tsquery('simple', 'engine')`, [], 'all', tx.getTransactionContext());
      });
      expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/messages_search_idx/);
    });

    it('matches nothing for absent words, and stays within what the caller may see', async () => {
      const none = await index(w.admin.keypair, lot.id, '?filter[search]=gearbox');
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ data: [], meta: { on_page: 0, total_items: 0 } });
      const punctuation = await index(w.admin.keypair, lot.id, `?filter[search]=${encodeURIComponent('?!')}`);
      expect(punctuation.body.data).toEqual([]);
      const hidden = await index(w.buyer.keypair, lot.id, '?filter[search]=rust');
      expect(hidden.body.data).toEqual([]);
    });
  });

  it('includes the lot and the members, accounts in the view the caller may see', async () => {
    const res = await index(w.buyer.keypair, lot.id, '?include=lot,members');
    expect(res.status).toBe(200);
    const included = res.body.included as any[];
    expect(included.filter((r) => r.type === 'lots')).toEqual([
      expect.objectContaining({ id: lot.id, attributes: expect.objectContaining({ organizer_id: w.admin.id, buy_now_price: '12000.00' }) }),
    ]);
    const accounts = Object.fromEntries(included.filter((r) => r.type === 'accounts').map((r) => [r.id, r.attributes]));
    expect(Object.keys(accounts).sort()).toEqual([w.admin.id, w.buyer.id].sort());
    expect(accounts[w.buyer.id].email).toBe(w.buyer.email);
    expect(accounts[w.admin.id].email).toBeUndefined();
  });

  it('walks number/size pages with total_items and links.next', async () => {
    const seen: string[] = [];
    let target: string | undefined = `/lots/${lot.id}/messages?page[size]=2&sort=created_at`;
    const pages: number[] = [];
    while (target) {
      const res: { status: number; body: any } = await t.client.as(w.admin.keypair).get(target);
      expect(res.status).toBe(200);
      expect(res.body.meta.total_items).toBe(5);
      expect(res.body.links.first).toBe(`/lots/${lot.id}/messages?page[size]=2&sort=created_at&page[number]=0`);
      expect(res.body.links.last).toBe(`/lots/${lot.id}/messages?page[size]=2&sort=created_at&page[number]=2`);
      pages.push(res.body.meta.on_page);
      seen.push(...res.body.data.map((m: any) => m.id));
      target = res.body.links.next;
    }
    expect(pages).toEqual([2, 2, 1]);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toEqual([...seen].sort((a, b) => Number(a) - Number(b)));
  });

  it('answers 401 unsigned and 404 for a missing lot', async () => {
    const anon = await t.client.get(`/lots/${lot.id}/messages`);
    expect(anon.status).toBe(401);
    expect(anon.body.errors[0].code).toBe('unauthenticated');
    for (const id of ['99999999', 'abc']) {
      const res = await index(w.admin.keypair, id);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('lot_not_found');
    }
  });

  it('answers 400 naming the parameter for unknown filters, includes, sorts and malformed values', async () => {
    const cases: [string, string, string][] = [
      ['?filter[text]=x', 'unknown_filter', 'filter[text]'],
      ['?include=bids', 'unknown_include', 'include'],
      ['?sort=updated_at', 'unknown_sort', 'sort'],
      ['?filter[sender]=nobody', 'invalid_parameter', 'filter[sender]'],
      ['?filter[receivers]=a,b', 'invalid_parameter', 'filter[receivers]'],
      ['?filter[lot_id]=x', 'invalid_parameter', 'filter[lot_id]'],
      ['?page[size]=101', 'invalid_page', 'page[size]'],
      ['?page[cursor]=x', 'unknown_parameter', 'page[cursor]'],
    ];
    for (const [query, code, parameter] of cases) {
      const res = await index(w.admin.keypair, lot.id, query);
      expect([query, res.status, res.body.errors[0].code, res.body.errors[0].source]).toEqual([query, 400, code, { parameter }]);
    }
  });
});
