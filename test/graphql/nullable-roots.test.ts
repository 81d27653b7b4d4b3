import { createAccount } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';

/** A root field that can fail for one reason answers null beside its error: its siblings keep their answers. */
const world = appWithTwoPlatforms();

describe('nullable root fields', () => {
  it('a missing lot nulls only its own field: ping and lotsCount still answer', async () => {
    const res = await world.t.client.graphql('{ lot(id: "999999") { id } ping { currentTime } lotsCount }');
    expect(res.status).toBe(200);
    expect(res.body.data.lot).toBeNull();
    expect(typeof res.body.data.ping.currentTime).toBe('number');
    expect(res.body.data.lotsCount).toBe(0);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['lot'], extensions: { code: 'lot_not_found', status: 404 } })]);
  });

  it("a forbidden read of another platform's account list nulls only that field", async () => {
    const { t, otherAdmin, platform } = world;
    const user = await createAccount(t, platform);
    const res = await t.client.as(otherAdmin.keypair).graphql('query($a: String!) { watchlist(accountId: $a) { lotId } savedSearches(accountId: $a) { id } me { id } }', { a: user.id });
    expect(res.body.data).toEqual({ watchlist: null, savedSearches: null, me: { id: otherAdmin.id } });
    expect(res.body.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['savedSearches', 'watchlist']);
    for (const e of res.body.errors) expect(e.extensions.status).toBe(403);
  });
});
