import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { CreateLotRequest } from '../../src/modules/requests/requests.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWithRequestors, fileRequest, reviewDoc } from './requests.helpers';

const world = appWithRequestors();
let broker: Keypair;
let otherPlatform: Keypair;
let otherAdmin: Keypair;
beforeAll(async () => {
  broker = (await createAccount(world.t, world.platform, { type: 'broker' })).keypair;
  otherPlatform = await createPlatform(world.t);
  otherAdmin = (await createAccount(world.t, otherPlatform, { type: 'admin' })).keypair;
});

const lotsOf = (organizer: Keypair) => world.t.orm.em.fork().count(Lot, { organizerId: organizer.publicKey() });
const stored = async (id: string) => world.t.orm.em.fork().findOneOrFail(CreateLotRequest, { id });

describe('PATCH /requests/{id}', () => {
  it('approves: creates the lot with the requestor as organizer and the platform as publisher', async () => {
    const request = await fileRequest(world.t, world.user);
    const before = await lotsOf(world.user);
    const res = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'create_lot_requests',
      id: request.id,
      attributes: { request_state: 3, request_state_str: 'approved', lot_id: expect.any(Number), reject_reason: '', requestor: world.user.publicKey() },
    });
    expect(await lotsOf(world.user)).toBe(before + 1);
    expect((await stored(request.id)).lotId).toBe(String(res.body.data.attributes.lot_id));
    const lot = await world.t.client.get(`/lots/${res.body.data.attributes.lot_id}`);
    expect(lot.body.data.attributes).toMatchObject({ organizer_id: world.user.publicKey(), publisher_id: world.platform.publicKey(), lot_state: 1 });
  });

  it('approves a broker\'s request for the platform itself, without data.id', async () => {
    const request = await fileRequest(world.t, broker);
    const res = await world.t.client.as(world.platform).patch(`/requests/${request.id}`, { data: { type: 'reviewable_requests', attributes: { hash: request.hash, state: 'approved' } } });
    expect(res.status).toBe(200);
    const lot = await world.t.client.get(`/lots/${res.body.data.attributes.lot_id}`);
    expect(lot.body.data.attributes.organizer_id).toBe(broker.publicKey());
  });

  it.each([
    ['rejected', 4],
    ['permanently_rejected', 5],
  ])('%s: stores the reject reason and creates no lot', async (state, code) => {
    const request = await fileRequest(world.t, world.user);
    const before = await lotsOf(world.user);
    const res = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state, reject_reason: 'photos missing' }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ request_state: code, request_state_str: state, reject_reason: 'photos missing', lot_id: null });
    expect(await lotsOf(world.user)).toBe(before);
    const got = await world.t.client.as(world.user).get(`/requests/${request.id}`);
    expect(got.body.data.attributes).toMatchObject({ request_state: code, reject_reason: 'photos missing' });
  });

  it('rejects without a reason as an empty reason', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'rejected' }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.reject_reason).toBe('');
  });

  it('answers 401 unsigned', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it('answers 404 for an unknown request, and for another platform\'s (before any other check)', async () => {
    const request = await fileRequest(world.t, world.user);
    const unknown = await world.t.client.as(world.admin).patch('/requests/987654321', reviewDoc('987654321', { hash: request.hash, state: 'approved' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('request_not_found');
    for (const who of [otherAdmin, otherPlatform]) {
      const res = await world.t.client.as(who).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: 'wrong', state: 'nonsense' }));
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('request_not_found');
    }
    expect((await stored(request.id)).requestState).toBe(1);
  });

  it.each([
    ['the requestor', () => world.user],
    ['another user of the platform', () => world.otherUser],
    ['a broker of the platform', () => broker],
  ])('answers 403 to %s (before validating the body)', async (_name, who) => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(who()).patch(`/requests/${request.id}`, reviewDoc(request.id, { state: 'nonsense' }));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    expect((await stored(request.id)).requestState).toBe(1);
  });

  it('answers 400 hash_mismatch for another hash, and changes nothing', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: '0'.repeat(64), state: 'approved' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'hash_mismatch', source: { pointer: '/data/attributes/hash' } });
    expect(await stored(request.id)).toMatchObject({ requestState: 1, lotId: null });
  });

  it('answers 400 request_not_pending once reviewed, also to a second approval', async () => {
    const request = await fileRequest(world.t, world.user);
    const first = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }));
    expect(first.status).toBe(200);
    const before = await lotsOf(world.user);
    for (const state of ['approved', 'rejected']) {
      const again = await world.t.client.as(world.platform).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state }));
      expect(again.status).toBe(400);
      expect(again.body.errors[0].code).toBe('request_not_pending');
    }
    expect(await lotsOf(world.user)).toBe(before);
  });

  it('answers 400 request_not_pending for a canceled request', async () => {
    const request = await fileRequest(world.t, world.user);
    expect((await world.t.client.as(world.user).delete(`/requests/${request.id}`)).status).toBe(204);
    const res = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('request_not_pending');
  });

  it('answers 400 with one error per missing or malformed attribute', async () => {
    const request = await fileRequest(world.t, world.user);
    const missing = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, {}));
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'missing_field', source: { pointer: '/data/attributes/hash' } }),
        expect.objectContaining({ code: 'missing_field', source: { pointer: '/data/attributes/state' } }),
      ]),
    );
    const state = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'canceled' }));
    expect(state.status).toBe(400);
    expect(state.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/state' } });
    const reason = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'rejected', reject_reason: 42 }));
    expect(reason.status).toBe(400);
    expect(reason.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/reject_reason' } });
    expect((await stored(request.id)).requestState).toBe(1);
  });

  it('answers 400 for a wrong data.type, a data.id of another request, a missing body and a malformed id', async () => {
    const request = await fileRequest(world.t, world.user);
    const type = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, { data: { type: 'requests', id: request.id, attributes: { hash: request.hash, state: 'approved' } } });
    expect(type.status).toBe(400);
    expect(type.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/type' } });
    const id = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc('1', { hash: request.hash, state: 'approved' }));
    expect(id.status).toBe(400);
    expect(id.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/id' } });
    const body = await world.t.client.as(world.admin).patch(`/requests/${request.id}`);
    expect(body.status).toBe(400);
    expect(body.body.errors[0].code).toBe('missing_body');
    const malformed = await world.t.client.as(world.admin).patch('/requests/x1', reviewDoc('x1', { hash: request.hash, state: 'approved' }));
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].code).toBe('invalid_request_id');
    expect((await stored(request.id)).requestState).toBe(1);
  });

  it('lets exactly one of several simultaneous approvals win', async () => {
    const reviewers = [world.platform, world.admin, (await createAccount(world.t, world.platform, { type: 'admin' })).keypair];
    const request = await fileRequest(world.t, world.user);
    const before = await lotsOf(world.user);
    const base = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        world.t.client.patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state: 'approved' }), {
          sign: { keypair: reviewers[i % reviewers.length], at: new Date(base + i) },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.errors[0].code === 'request_not_pending')).toBe(true);
    expect(await lotsOf(world.user)).toBe(before + 1);
    const winner = answers.find((a) => a.status === 200);
    expect((await stored(request.id)).lotId).toBe(String(winner?.body.data.attributes.lot_id));
  });
});
