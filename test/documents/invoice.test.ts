import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { chooseWinner, codeOf, join, pay, putWinnerDetails } from '../trading/trading.helpers';
import { uploadedId } from './documents.helpers';

let t: TestApp;
let platform: Keypair;
let winner: CreatedAccount;
let other: CreatedAccount;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  winner = await createAccount(t, platform);
  other = await createAccount(t, platform);
});
afterAll(() => t.close());

async function wonLot(): Promise<string> {
  const lot = await createLot(t, platform, ENG_LOT);
  const participant = await join(t, winner.keypair, lot.id);
  await pay(t, platform, participant);
  expect((await chooseWinner(t, platform, lot.id, participant)).status).toBe(200);
  return lot.id;
}

describe("winner details' invoice_id", () => {
  it("accepts a public document and one owned by the winner", async () => {
    const lotId = await wonLot();
    const publicId = await uploadedId(t, platform);
    expect((await putWinnerDetails(t, platform, lotId, { invoice_id: publicId })).status).toBe(200);
    const ownedId = await uploadedId(t, platform, { attributes: { document_type: 'private', owners: [winner.id, platform.publicKey()] } });
    const res = await putWinnerDetails(t, platform, lotId, { invoice_id: ownedId });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.invoice_id).toBe(ownedId);
  });

  it("refuses an unknown document and another account's private one, naming the field", async () => {
    const lotId = await wonLot();
    const foreignId = await uploadedId(t, other.keypair, { attributes: { document_type: 'private', owners: [other.id] } });
    for (const invoiceId of ['nothing.pdf', foreignId]) {
      const res = await putWinnerDetails(t, platform, lotId, { invoice_id: invoiceId });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'invalid_invoice', source: { pointer: '/data/attributes/invoice_id' } });
    }
    expect(codeOf(await putWinnerDetails(t, platform, lotId, { container_id: 'C1' }))).toBeUndefined();
  });
});
