import { Lot } from '../../src/modules/lots/lots.entity';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

// What a newcomer gets wrong first: a misspelt filter, the other paging scheme, a method the path
// does not take, and comparing the times the two edges show.
const world = appWithPlatform({ accounts: 1 });
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('a misspelt query parameter', () => {
  it('names the nearest filter and lists the filters of the endpoint', async () => {
    const res = await world.t.client.get('/lots?filter[makr]=Toyota');
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors;
    expect(error).toMatchObject({ status: '400', code: 'unknown_filter', source: { parameter: 'filter[makr]' } });
    expect(error.detail).toMatch(/^makr is not a filter of this endpoint \(did you mean maker\?\); its filters: /);
    const listed = (error.detail as string).replace(/^.*its filters: /, '').split(', ');
    expect(listed).toEqual(expect.arrayContaining(['maker', 'model', 'lot_state', 'lot_type', 'price']));
    // Every name listed is one the endpoint takes.
    for (const name of listed) expect((await world.t.client.get(`/lots?filter[${name}]=x`)).body.errors?.[0]?.code).not.toBe('unknown_filter');
  });

  it('names the parameters a listing pages with when it is paged in the other scheme', async () => {
    const lots = await world.t.client.get('/lots?page[size]=5');
    expect(lots.status).toBe(400);
    expect(lots.body.errors).toEqual([
      {
        status: '400',
        code: 'unknown_parameter',
        title: 'Bad Request',
        detail: 'page[size] is not accepted by this endpoint; it pages with page[cursor] and page[limit]',
        source: { parameter: 'page[size]' },
      },
    ]);
    expect((await world.t.client.get('/lots?page[limit]=5')).status).toBe(200);
  });

  it('suggests the sort key meant, keeping its direction', async () => {
    const res = await world.t.client.get('/lots?sort=-prcie');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'unknown_sort', source: { parameter: 'sort' } });
    expect(res.body.errors[0].detail).toMatch(/ \(did you mean -price\?\)$/);
  });

  it('answers a query of many unknown filters in proportion to it: the list is given once', async () => {
    const query = Array.from({ length: 300 }, (_, i) => `filter[f${i}]=1`).join('&');
    const res = await world.t.client.get(`/lots?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(300);
    expect(res.text.split('its filters:')).toHaveLength(2);
    expect(res.text.length).toBeLessThan(query.length * 12);
  });
});

describe('a method the path does not take', () => {
  it('is a JSON:API 405 with Allow and the allowed methods in the detail', async () => {
    const res = await world.t.client.delete('/lots/1');
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    expect(res.headers.allow).toBe('HEAD, GET, PATCH');
    expect(res.body).toEqual({
      errors: [{ status: '405', code: 'method_not_allowed', title: 'Method Not Allowed', detail: 'DELETE is not allowed on /lots/1; it allows HEAD, GET, PATCH' }],
    });
  });

  it('is a 405 with Allow for a method no route has, and a 404 on a path no route has, never a 500', async () => {
    const known = await world.t.client.request('PROPFIND', '/lots/1');
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe('HEAD, GET, PATCH');
    expect(known.body.errors[0]).toMatchObject({ code: 'method_not_allowed', detail: 'PROPFIND is not allowed on /lots/1; it allows HEAD, GET, PATCH' });
    const unknown = await world.t.client.request('PROPFIND', '/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
    expect(unknown.body.errors).toEqual([{ status: '404', code: 'route_not_found', title: 'Not Found', detail: 'no route for PROPFIND /nowhere' }]);
  });

  it('is a 405 in GraphQL’s shape on the GraphQL path', async () => {
    const res = await world.t.client.delete('/graphql');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('HEAD, GET, POST');
    expect(res.body).toEqual({ errors: [{ message: 'DELETE is not allowed on /graphql; it allows HEAD, GET, POST', extensions: { code: 'method_not_allowed', status: 405 } }] });
  });
});

describe('times', () => {
  it('are written alike by both edges: RFC 3339, whole seconds, Z', async () => {
    const staff = world.platform;
    const lot = await createLot(world.t, staff);
    // Times with milliseconds, as the database keeps them for what it stamps itself.
    await world.t.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { createdAt: new Date('2026-11-24T22:31:33.456Z') });
    const rest = (await world.t.client.as(staff).get(`/lots/${lot.id}`)).body.data.attributes;
    const gql = await world.t.client.as(staff).graphql('query ($id: ID!) { lot(id: $id) { createdAt updatedAt startTime endTime } }', { id: lot.id });
    expect(gql.body.data.lot).toEqual({ createdAt: '2026-11-24T22:31:33Z', updatedAt: rest.updated_at, startTime: rest.start_time, endTime: rest.end_time });
    expect(rest.created_at).toBe('2026-11-24T22:31:33Z');
    for (const value of Object.values(gql.body.data.lot)) expect(value).toMatch(RFC3339);
  });

  it('of a saved search too', async () => {
    const { id, keypair } = world.accounts[0];
    const saved = await world.t.client.as(keypair).post(`/accounts/${id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter: { maker: 'Toyota' } } } });
    expect(saved.status).toBe(201);
    expect(saved.body.data.attributes.created_at).toMatch(RFC3339);
    await world.t.orm.em.fork().getConnection().execute(`update saved_searches set created_at = '2026-11-24T22:31:33.456Z' where id = ?`, [saved.body.data.id]);
    const listed = await world.t.client.as(keypair).get(`/accounts/${id}/saved_searches`);
    const gql = await world.t.client.as(keypair).graphql('query ($id: String!) { savedSearches(accountId: $id) { createdAt } }', { id });
    expect(listed.body.data.map((s: { attributes: { created_at: string } }) => s.attributes.created_at)).toEqual(['2026-11-24T22:31:33Z']);
    expect(gql.body.data.savedSearches).toEqual([{ createdAt: '2026-11-24T22:31:33Z' }]);
  });
});
