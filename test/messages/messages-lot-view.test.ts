import type { Keypair } from '@stellar/stellar-sdk';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { makeWorld, sent } from './messages.helpers';

const w = appWith(makeWorld);
let lot: Lot;

beforeAll(async () => {
  lot = await createLot(w.t, w.admin.keypair, { ...ENG_LOT, reserve_price: '2160' });
  await sent(w.t, w.buyer.keypair, w.buyer.id, w.admin.id, lot.id, 'is the reserve met?');
});

const LIST = `query($lotId: ID!) { lotMessages(lotId: $lotId) { items { lot { id reserveMet reservePrice } } } }`;

async function lotBeside(who: Keypair) {
  const rest = await w.t.client.as(who).get(`/lots/${lot.id}/messages?include=lot`);
  expect(rest.status).toBe(200);
  const gql = await w.t.client.as(who).graphql(LIST, { lotId: lot.id });
  expect(gql.body.errors).toBeUndefined();
  return { rest: rest.body.included.find((r: any) => r.type === 'lots').attributes, gql: gql.body.data.lotMessages.items[0].lot };
}

describe('the lot beside a message', () => {
  it("shows the reserve amount to the lot's managers alone, alike over REST and GraphQL", async () => {
    const manager = await lotBeside(w.admin.keypair);
    expect(manager.rest).toMatchObject({ reserve_met: false, reserve_price: '2160.00' });
    expect(manager.gql).toEqual({ id: lot.id, reserveMet: false, reservePrice: '2160.00' });

    const buyer = await lotBeside(w.buyer.keypair);
    expect(buyer.rest.reserve_met).toBe(false);
    expect(buyer.rest).not.toHaveProperty('reserve_price');
    expect(buyer.gql).toEqual({ id: lot.id, reserveMet: false, reservePrice: null });
  });
});
