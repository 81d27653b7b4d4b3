import { DepositState, ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { uploadedId } from '../documents/documents.helpers';
import { chooseWinner, closeLot, codeOf, depositOf, externalLot, FREE_LOT, join, participantOf, pay, putWinnerDetails } from './trading.helpers';

const world = appWithPlatform({ accounts: 2 });

/** An auction whose first participant paid its deposit and won. */
async function wonLot() {
  const lot = await createLot(world.t, world.platform, ENG_LOT);
  const winner = await join(world.t, world.accounts[0].keypair, lot.id);
  await pay(world.t, world.platform, winner);
  expect((await chooseWinner(world.t, world.platform, lot.id, winner)).status).toBe(200);
  return { lot, winner };
}

describe('PUT /lots/{id}/winner_details', () => {
  it('creates the details, then updates only what is given, and answers with the resource', async () => {
    const { lot } = await wonLot();
    const invoiceId = await uploadedId(world.t, world.platform);
    const res = await putWinnerDetails(world.t, world.platform, lot.id, {
      invoice_id: invoiceId,
      container_id: 'MSCU 123456-7 ✓',
      service_link: 'https://service.example/track/1',
      fee_amount: 150.5,
      transportation_fee: '1200',
      fee_currency: 'EUR',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'winner_details',
      id: lot.id,
      attributes: {
        invoice_id: invoiceId,
        invoice_paid: null,
        deal_canceled: null,
        container_id: 'MSCU 123456-7 ✓',
        service_link: 'https://service.example/track/1',
        fee_amount: 150.5,
        transportation_fee: 1200,
        fee_currency: 'EUR',
      },
    });
    const update = await putWinnerDetails(world.t, world.platform, lot.id, { container_id: null, fee_amount: 99.99 });
    expect(update.body.data.attributes).toMatchObject({ invoice_id: invoiceId, container_id: null, fee_amount: 99.99, transportation_fee: 1200 });
    const shown = await world.t.client.as(world.accounts[0].keypair).get(`/lots/${lot.id}?include=winner_details`);
    expect(shown.body.included).toEqual([expect.objectContaining({ type: 'winner_details', id: lot.id, attributes: expect.objectContaining({ fee_amount: 99.99 }) })]);
  });

  it('charges the winner deposit when invoice_paid becomes true; it cannot be undone', async () => {
    const { lot, winner } = await wonLot();
    const res = await putWinnerDetails(world.t, world.platform, lot.id, { invoice_paid: true });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.invoice_paid).toBe(true);
    expect((await depositOf(world.t, winner)).state).toBe(DepositState.FeeCharged);
    expect((await participantOf(world.t, lot.id, winner.accountId)).state).toBe(ParticipantState.Winner);
    const undo = await putWinnerDetails(world.t, world.platform, lot.id, { invoice_paid: false });
    expect(undo.body.errors[0]).toMatchObject({ status: '400', code: 'winner_details_final', source: { pointer: '/data/attributes/invoice_paid' } });
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { invoice_paid: true })).status).toBe(200);
    expect((await closeLot(world.t, world.platform, lot.id, 'sold')).status).toBe(200);
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { container_id: 'after closing' })).status).toBe(200);
  });

  it('moves the winner to deal_canceled and charges its deposit when deal_canceled becomes true', async () => {
    const { lot, winner } = await wonLot();
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    const res = await putWinnerDetails(world.t, admin.keypair, lot.id, { deal_canceled: true });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.deal_canceled).toBe(true);
    expect((await participantOf(world.t, lot.id, winner.accountId)).state).toBe(ParticipantState.DealCanceled);
    expect((await depositOf(world.t, winner)).state).toBe(DepositState.FeeCharged);
    const shown = await world.t.client.as(world.accounts[0].keypair).get(`/lots/${lot.id}?include=participants`);
    expect(shown.body.included[0].attributes).toMatchObject({ state: 6, state_str: 'deal_canceled' });
    expect(codeOf(await putWinnerDetails(world.t, world.platform, lot.id, { deal_canceled: null }))).toBe('winner_details_final');
  });

  it('records details on a lot without a winner, but not deal_canceled or invoice_paid', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { container_id: 'early' })).status).toBe(200);
    for (const attributes of [{ deal_canceled: true }, { invoice_paid: true }]) {
      const res = await putWinnerDetails(world.t, world.platform, lot.id, attributes);
      expect([res.status, codeOf(res)]).toEqual([400, 'lot_has_no_winner']);
    }
    const row = await world.t.orm.em.fork().findOneOrFail(WinnerDetails, { lotId: lot.id });
    expect([row.containerId, row.dealCanceled, row.invoicePaid]).toEqual(['early', null, null]);
  });

  it('answers 400 for each malformed attribute', async () => {
    const { lot } = await wonLot();
    const res = await putWinnerDetails(world.t, world.platform, lot.id, {
      fee_amount: 10.005,
      transportation_fee: -1,
      fee_currency: 'JPY',
      container_id: 'x'.repeat(101),
      invoice_paid: 'yes',
      deal_canceled: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual(
      ['container_id', 'deal_canceled', 'fee_amount', 'fee_currency', 'invoice_paid', 'transportation_fee'].map((a) => `/data/attributes/${a}`),
    );
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { container_id: '✓'.repeat(100) })).status).toBe(200);
    const wrongId = await world.t.client.as(world.platform).put(`/lots/${lot.id}/winner_details`, { data: { type: 'winner_details', id: '1' + lot.id, attributes: {} } });
    expect(wrongId.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/id' } });
    const wrongType = await world.t.client.as(world.platform).put(`/lots/${lot.id}/winner_details`, { data: { type: 'lots', id: lot.id, attributes: {} } });
    expect(wrongType.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/type' } });
    const external = await externalLot(world.t, world.platform);
    expect(codeOf(await putWinnerDetails(world.t, world.platform, external.id, { container_id: 'x' }))).toBe('lot_read_only');
  });

  it('answers 401, 404 and 403', async () => {
    const { lot } = await wonLot();
    expect((await world.t.client.put(`/lots/${lot.id}/winner_details`, { data: { type: 'winner_details', id: lot.id, attributes: {} } })).status).toBe(401);
    const missing = await putWinnerDetails(world.t, world.platform, '99999999', {});
    expect([missing.status, codeOf(missing)]).toEqual([404, 'lot_not_found']);
    for (const who of [world.accounts[0].keypair, await createPlatform(world.t)]) {
      const res = await putWinnerDetails(world.t, who, lot.id, { invoice_paid: true });
      expect([res.status, codeOf(res)]).toEqual([403, 'not_allowed']);
    }
    expect(await world.t.orm.em.fork().count(WinnerDetails, { lotId: lot.id })).toBe(0);
  });

  it('is the GraphQL mutation setWinnerDetails too', async () => {
    const { lot, winner } = await wonLot();
    const query = 'mutation ($id: ID!, $input: WinnerDetailsInput!) { setWinnerDetails(lotId: $id, input: $input) { lotId invoiceId invoicePaid feeAmount feeCurrency } }';
    const invoiceId = await uploadedId(world.t, world.platform);
    const res = await world.t.client.as(world.platform).graphql(query, { id: lot.id, input: { invoiceId, invoicePaid: true, feeAmount: '10.5', feeCurrency: 'USD' } });
    expect(res.body).toEqual({ data: { setWinnerDetails: { lotId: lot.id, invoiceId, invoicePaid: true, feeAmount: '10.50', feeCurrency: 'USD' } } });
    expect((await depositOf(world.t, winner)).state).toBe(DepositState.FeeCharged);
    const bad = await world.t.client.as(world.platform).graphql(query, { id: lot.id, input: { feeAmount: '1.234' } });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
  });
});
