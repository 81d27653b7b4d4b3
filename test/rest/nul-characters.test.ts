import { createAccount, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();
let user: CreatedAccount;
beforeAll(async () => {
  user = await createAccount(world.t, world.platform);
});

const NUL = '\u0000';

describe('a NUL character (U+0000), which PostgreSQL text cannot hold, answers 400 nul_character naming where, never 500', () => {
  it('in a filter and a plain query parameter', async () => {
    for (const [target, parameter] of [
      ['/lots?filter[search]=%00', 'filter[search]'],
      ['/lots?filter[maker]=a%00b', 'filter[maker]'],
      ['/lots?currency=%00', 'currency'],
    ]) {
      const res = await world.t.client.get(target);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'nul_character', source: { parameter } });
    }
  });

  it('in a path segment', async () => {
    const res = await world.t.client.get('/accounts/%00');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'nul_character' });
    expect(res.body.errors[0].detail).toContain('id');
  });

  it('in an attribute of a body: first_name, the POST /jwt email, lot details', async () => {
    const patch = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, { data: { type: 'accounts', attributes: { first_name: `a${NUL}` } } });
    expect(patch.status).toBe(400);
    expect(patch.body.errors[0]).toMatchObject({ code: 'nul_character', source: { pointer: '/data/attributes/first_name' } });

    const jwt = await world.t.client.post('/jwt', { data: { type: 'jwt', attributes: { email: `a${NUL}@example.com`, platform_id: world.platform.publicKey(), password: 'whatever1' } } });
    expect(jwt.status).toBe(400);
    expect(jwt.body.errors[0]).toMatchObject({ code: 'nul_character', source: { pointer: '/data/attributes/email' } });

    const lot = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, details: { ...ENG_LOT.details, model: `Cam${NUL}ry` } } } });
    expect(lot.status).toBe(400);
    expect(lot.body.errors[0]).toMatchObject({ code: 'nul_character', source: { pointer: '/data/attributes/details/model' } });
  });

  it('in LotFilter.search over GraphQL, as a literal and as a variable', async () => {
    const literal = await world.t.client.graphql('{ lots(filter: { search: "a\\u0000b" }) { nodes { id } } }');
    expect(literal.body.errors[0].extensions).toMatchObject({ code: 'nul_character', status: 400, errors: [expect.objectContaining({ field: 'filter.search' })] });

    const variable = await world.t.client.graphql('query($f: LotFilter) { lots(filter: $f) { nodes { id } } }', { f: { search: NUL } });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions).toMatchObject({ code: 'nul_character', status: 400 });
    expect(variable.body.errors[0].message).toContain('/variables/f/search');
  });
});
