import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { fileRequest } from '../requests/requests.helpers';

/** Payload twins of the staff's and the account's edits: each alias answers its own result or refusal. */
const world = appWithTwoPlatforms();

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);
/** The code a deprecated mutation answers at the top level, as a user error names it. */
const oldCode = (res: { body: { errors?: { extensions: { code: string } }[] } }) => res.body.errors?.[0]?.extensions.code.toUpperCase();

describe('reviewCreateLotRequest', () => {
  const REVIEW = (alias: string, state: string, key = '') =>
    `${alias}: reviewCreateLotRequest(input: { id: $id, hash: $hash, state: "${state}"${key ? `, idempotencyKey: "${key}"` : ''} }) { createLotRequest { id requestStateStr } userErrors { code field } }`;

  it("approves once, a replay answering the first result; a bad state, another review and another platform's staff are refused", async () => {
    const user = await createAccount(world.t, world.platform);
    const request = await fileRequest(world.t, user.keypair);
    const vars = { id: String(request.id), hash: request.hash };
    const old = await gql(world.otherAdmin.keypair, 'mutation($id: ID!, $hash: String!) { reviewRequest(id: $id, hash: $hash, state: "approved") { id } }', vars);
    const outsider = await gql(world.otherAdmin.keypair, `mutation($id: ID!, $hash: String!) { ${REVIEW('x', 'approved')} }`, vars);
    expect(outsider.body.data.x).toEqual({ createLotRequest: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
    const res = await gql(world.admin.keypair, `mutation($id: ID!, $hash: String!) { ${REVIEW('bad', 'maybe')} ${REVIEW('a', 'approved', 'rv-1')} ${REVIEW('b', 'approved', 'rv-1')} ${REVIEW('c', 'rejected')} }`, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad).toEqual({ createLotRequest: null, userErrors: [expect.objectContaining({ field: 'state' })] });
    expect(res.body.data.a).toEqual({ createLotRequest: { id: vars.id, requestStateStr: 'approved' }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c.createLotRequest).toBeNull();
    expect(res.body.data.c.userErrors).toHaveLength(1);
  });
});

describe('editPlatformRules', () => {
  const EDIT = (alias: string, rules: string, key = '') =>
    `${alias}: editPlatformRules(input: { platformId: $id, ${rules}${key ? `, idempotencyKey: "${key}"` : ''} }) { platformRules { version minDuration createdAt } userErrors { code field } }`;

  it('makes one version, a replay answering it; a faulty band is named, and another platform\'s staff refused', async () => {
    const id = world.platform.publicKey();
    const res = await gql(world.platform, `mutation($id: ID!) { ${EDIT('bad', 'increments: [{ upTo: "500", minStep: "10" }, { upTo: "400", minStep: "20" }]')} ${EDIT('a', 'minDuration: 3600', 'pr-1')} ${EDIT('b', 'minDuration: 3600', 'pr-1')} }`, { id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad).toEqual({ platformRules: null, userErrors: [{ code: 'INVALID_FIELD', field: 'increments.1.upTo' }] });
    expect(res.body.data.a).toEqual({ platformRules: { version: 1, minDuration: 3600, createdAt: expect.any(String) }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    const cleared = await gql(world.platform, `mutation($id: ID!) { ${EDIT('c', 'minDuration: 3600, maxDuration: null', 'pr-1')} }`, { id });
    expect(cleared.body.data.c.userErrors).toEqual([{ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' }]);
    const old = await gql(world.otherAdmin.keypair, 'mutation($id: ID!) { updatePlatformRules(platformId: $id, rules: { minDuration: 60 }) { version } }', { id });
    const outsider = await gql(world.otherAdmin.keypair, `mutation($id: ID!) { ${EDIT('x', 'minDuration: 60')} }`, { id });
    expect(outsider.body.data.x).toEqual({ platformRules: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });
});

describe('updateCurrencyRate', () => {
  const RATE = (alias: string, currency: string, rate: string) => `${alias}: updateCurrencyRate(input: { currency: "${currency}", unitsPerEur: "${rate}" }) { currencyRate { currency unitsPerEur } userErrors { code field } }`;

  it('sets a rate as the master account beside a refused one, and refuses a platform as setCurrencyRate does', async () => {
    const res = await gql(world.t.master, `mutation { ${RATE('a', 'GEL', '3.000')} ${RATE('b', 'GEL', '-1')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ currencyRate: { currency: 'GEL', unitsPerEur: '3' }, userErrors: [] });
    expect(res.body.data.b).toEqual({ currencyRate: null, userErrors: [expect.objectContaining({ field: 'unitsPerEur' })] });
    const old = await gql(world.platform, 'mutation { setCurrencyRate(currency: "GEL", unitsPerEur: "4") { currency } }');
    const now = await gql(world.platform, `mutation { ${RATE('x', 'GEL', '4')} }`);
    expect(now.body.data.x).toEqual({ currencyRate: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });
});

describe('editLot and editAccount', () => {
  it('drops a reserve, answering the lot; a malformed price is named, another platform\'s staff refused', async () => {
    const lotId = String((await createLot(world.t, world.platform)).id);
    const EDIT = (alias: string, change: string) => `${alias}: editLot(input: { id: $lot, ${change} }) { lotId lot { id } userErrors { code field } }`;
    const res = await gql(world.platform, `mutation($lot: ID!) { ${EDIT('bad', 'reservePrice: "1.234"')} ${EDIT('a', 'reservePrice: "5000"')} }`, { lot: lotId });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad).toEqual({ lotId: null, lot: null, userErrors: [expect.objectContaining({ field: 'reservePrice' })] });
    expect(res.body.data.a).toEqual({ lotId, lot: { id: lotId }, userErrors: [] });
    const old = await gql(world.otherAdmin.keypair, 'mutation($lot: ID!) { updateLot(id: $lot, input: { reservePrice: null }) { id } }', { lot: lotId });
    const outsider = await gql(world.otherAdmin.keypair, `mutation($lot: ID!) { ${EDIT('x', 'reservePrice: null')} }`, { lot: lotId });
    expect(outsider.body.data.x).toEqual({ lotId: null, lot: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });

  it('changes an account, a replay answering the first result; another platform\'s staff are refused', async () => {
    const user = await createAccount(world.t, world.platform);
    const EDIT = (alias: string, change: string) => `${alias}: editAccount(input: { id: $id, ${change} }) { account { id city } userErrors { code field } }`;
    const res = await gql(user.keypair, `mutation($id: String!) { ${EDIT('a', 'city: "Tbilisi", idempotencyKey: "ac-1"')} ${EDIT('b', 'city: "Tbilisi", idempotencyKey: "ac-1"')} ${EDIT('c', 'currency: "XXX"')} }`, { id: user.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({ account: { id: user.id, city: 'Tbilisi' }, userErrors: [] });
    expect(res.body.data.b).toEqual(res.body.data.a);
    expect(res.body.data.c).toEqual({ account: null, userErrors: [expect.objectContaining({ field: 'currency' })] });
    const old = await gql(world.otherAdmin.keypair, 'mutation($id: String!) { updateAccount(id: $id, input: { city: "X" }) { id } }', { id: user.id });
    const outsider = await gql(world.otherAdmin.keypair, `mutation($id: String!) { ${EDIT('x', 'city: "X"')} }`, { id: user.id });
    expect(outsider.body.data.x).toEqual({ account: null, userErrors: [expect.objectContaining({ code: oldCode(old) })] });
  });
});

it('marks the mutations they replace deprecated, naming them', async () => {
  const res = await gql(world.admin.keypair, '{ __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } } }');
  const reasons = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; deprecationReason: string | null }) => [f.name, f.deprecationReason]));
  expect([reasons.reviewRequest, reasons.updatePlatformRules, reasons.setCurrencyRate, reasons.updateLot, reasons.updateAccount]).toEqual([
    'Use reviewCreateLotRequest',
    'Use editPlatformRules',
    'Use updateCurrencyRate',
    'Use editLot',
    'Use editAccount',
  ]);
});
