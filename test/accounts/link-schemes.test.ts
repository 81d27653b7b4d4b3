import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();
let user: CreatedAccount;
beforeAll(async () => {
  user = await createAccount(world.t, world.platform);
});

const BAD = ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://example.com/a.png'];
const fieldsOf = (res: { body: any }) => res.body.errors[0].extensions.errors.map((e: { field: string }) => e.field);

describe('stored links are http(s) only, on both edges', () => {
  it.each(BAD)('refuses avatar_link %s', async (link) => {
    const rest = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, { data: { type: 'accounts', attributes: { avatar_link: link } } });
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/avatar_link' } });
    const gql = await world.t.client
      .as(user.keypair)
      .graphql('mutation($id: String!, $input: UpdateAccountInput!) { updateAccount(id: $id, input: $input) { avatarLink } }', { id: user.id, input: { avatarLink: link } });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(fieldsOf(gql)).toEqual(['avatarLink']);
  });

  it('keeps http and https avatar links', async () => {
    for (const link of ['http://example.com/a.png', 'https://example.com/a.png']) {
      const res = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, { data: { type: 'accounts', attributes: { avatar_link: link } } });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.avatar_link).toBe(link);
    }
  });

  it.each(BAD)("refuses %s in a lot's link fields", async (link) => {
    const details = { ...ENG_LOT.details, hd_img_links: ['https://example.com/1.jpg', link], full_img_links: [link], video_link: link };
    const rest = await world.t.client.as(world.platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, details } } });
    expect(rest.status).toBe(400);
    expect(rest.body.errors.map((e: any) => e.source.pointer).sort()).toEqual(
      ['/data/attributes/details/full_img_links/0', '/data/attributes/details/hd_img_links/1', '/data/attributes/details/video_link'],
    );
    const input = { type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '5000', deposit: '100', minStep: '50', maxStep: '500', duration: 86400, details };
    const gql = await world.t.client.as(world.platform).graphql('mutation($input: CreateLotInput!) { createLot(input: $input) { lotId } }', { input });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(fieldsOf(gql).sort()).toEqual(['details.full_img_links.0', 'details.hd_img_links.1', 'details.video_link']);
  });

  it("refuses a javascript: service_link in a lot's winner details", async () => {
    const lot = await createLot(world.t, world.platform);
    const rest = await world.t.client.as(world.platform).put(`/lots/${lot.id}/winner_details`, { data: { type: 'winner_details', attributes: { service_link: BAD[0] } } });
    expect(rest.status).toBe(400);
    expect(rest.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/service_link' } });
    const gql = await world.t.client
      .as(world.platform)
      .graphql('mutation($lot: ID!) { setWinnerDetails(lotId: $lot, input: { serviceLink: "javascript:alert(1)" }) { serviceLink } }', { lot: lot.id });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(fieldsOf(gql)).toEqual(['serviceLink']);
  });
});
