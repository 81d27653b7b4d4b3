import type { Keypair } from '@stellar/stellar-sdk';
import { CreateLotRequest } from '../../src/modules/requests/requests.entity';
import { createPlatform } from '../helpers/factories';
import { appWithRequestors, fileRequest, reviewDoc } from './requests.helpers';

const world = appWithRequestors();
let otherPlatform: Keypair;
beforeAll(async () => {
  otherPlatform = await createPlatform(world.t);
});

const stateOf = async (id: string) => (await world.t.orm.em.fork().findOneOrFail(CreateLotRequest, { id })).requestState;
const review = (request: CreateLotRequest, state: string) =>
  world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state }));

describe('DELETE /requests/{id}', () => {
  it('cancels a pending request of the requestor: request_state 2', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.user).delete(`/requests/${request.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const got = await world.t.client.as(world.user).get(`/requests/${request.id}`);
    expect(got.body.data.attributes).toMatchObject({ request_state: 2, request_state_str: 'canceled' });
  });

  it('cancels a rejected request', async () => {
    const request = await fileRequest(world.t, world.user);
    expect((await review(request, 'rejected')).status).toBe(200);
    expect((await world.t.client.as(world.user).delete(`/requests/${request.id}`)).status).toBe(204);
    expect(await stateOf(request.id)).toBe(2);
  });

  it.each([
    ['approved', 3],
    ['permanently_rejected', 5],
  ])('answers 400 request_not_cancelable for an %s request', async (state, code) => {
    const request = await fileRequest(world.t, world.user);
    expect((await review(request, state)).status).toBe(200);
    const res = await world.t.client.as(world.user).delete(`/requests/${request.id}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('request_not_cancelable');
    expect(await stateOf(request.id)).toBe(code);
  });

  it('answers 400 request_not_cancelable for a canceled request', async () => {
    const request = await fileRequest(world.t, world.user);
    expect((await world.t.client.as(world.user).delete(`/requests/${request.id}`)).status).toBe(204);
    const again = await world.t.client.as(world.user).delete(`/requests/${request.id}`);
    expect(again.status).toBe(400);
    expect(again.body.errors[0].code).toBe('request_not_cancelable');
  });

  it('answers 401 unsigned', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.delete(`/requests/${request.id}`);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
    expect(await stateOf(request.id)).toBe(1);
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    const unknown = await world.t.client.as(world.user).delete('/requests/987654321');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('request_not_found');
    const malformed = await world.t.client.as(world.user).delete('/requests/one');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].code).toBe('invalid_request_id');
  });

  it.each([
    ['staff of its platform', () => world.admin],
    ['its platform', () => world.platform],
    ['another user', () => world.otherUser],
    ['another platform', () => otherPlatform],
  ])('answers 403 not_allowed to %s, before the state rule', async (_name, who) => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(who()).delete(`/requests/${request.id}`);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    expect(await stateOf(request.id)).toBe(1);
    expect((await review(request, 'approved')).status).toBe(200);
    const approved = await world.t.client.as(who()).delete(`/requests/${request.id}`);
    expect(approved.status).toBe(403);
  });
});
