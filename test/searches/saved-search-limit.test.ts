import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform({ accounts: 2, env: { SAVED_SEARCHES_PER_ACCOUNT: '3' } });

const save = (i: number, maker: string) =>
  world.t.client.as(world.accounts[i].keypair).post(`/accounts/${world.accounts[i].id}/saved_searches`, { data: { type: 'saved_searches', attributes: { filter: { maker } } } });
const SAVE = /* GraphQL */ `mutation($a: String!) { saveSearch(accountId: $a, filter: { maker: "Kia" }) { id } }`;

describe('SAVED_SEARCHES_PER_ACCOUNT', () => {
  it('holds an account to its limit, also when it saves many at once, on both edges', async () => {
    // Makers differ, so that no two requests are one signed request replayed.
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => save(0, `Maker ${i}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const refused = answers.find((a) => a.status === 409);
    expect(refused?.body.errors[0]).toMatchObject({ status: '409', code: 'saved_search_limit' });
    expect(refused?.body.errors[0].detail).toContain('(3)');
    const listed = await world.t.client.as(world.accounts[0].keypair).get(`/accounts/${world.accounts[0].id}/saved_searches`);
    expect(listed.body.data).toHaveLength(3);

    const gql = await world.t.client.as(world.accounts[0].keypair).graphql(SAVE, { a: world.accounts[0].id });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'saved_search_limit', status: 409 });

    // Another account has room of its own; deleting one makes room again.
    expect((await save(1, 'Lada')).status).toBe(201);
    const path = `/accounts/${world.accounts[0].id}/saved_searches/${listed.body.data[0].id}`;
    expect((await world.t.client.as(world.accounts[0].keypair).delete(path)).status).toBe(204);
    expect((await world.t.client.as(world.accounts[0].keypair).graphql(SAVE, { a: world.accounts[0].id })).body.data.saveSearch.id).toBeDefined();
  });
});
