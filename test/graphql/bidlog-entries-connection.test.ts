import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount, createPlatform } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { auction, bid } from '../live/support';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twin of a lot's bid log: the chain in its order, each entry shown as the old
// list shows it to the caller (the bidder named to itself and the lot's managers alone).

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const [bidder, rival] = [await createAccount(t, platform), await createAccount(t, platform)];
  const lotId = await auction(t, platform, [bidder.id, rival.id]);
  const otherLotId = await auction(t, platform, [bidder.id]);
  for (let i = 0; i < 5; i++) await bid(t, (i % 2 ? rival : bidder).keypair, lotId, { amount: String(1000 + 50 * i) });
  await bid(t, bidder.keypair, otherLotId, { amount: '1000' });
  return { platform, otherAdmin, bidder, lotId, otherLotId };
});

const ENTRY = 'seq bidId amount hash previous bidderId bidderSalt';

async function logOf(who: Keypair | null, lotId: string, selection: string): Promise<any> {
  const res = await (who ? world.t.client.as(who) : world.t.client).graphql(`query($id: ID!) { lot(id: $id) { bidLog { ${selection} } } }`, { id: lotId });
  return res.body;
}

async function pageOf(who: Keypair | null, args: string, lotId = world.lotId): Promise<ConnectionPage> {
  const body = await logOf(who, lotId, `entriesConnection(${args}) { edges { cursor node { ${ENTRY} } } nodes { ${ENTRY} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount }`);
  expect(body.errors).toBeUndefined();
  return body.data.lot.bidLog.entriesConnection;
}

async function oldOf(who: Keypair | null): Promise<Record<string, unknown>[]> {
  const body = await logOf(who, world.lotId, `entries { ${ENTRY} }`);
  expect(body.errors).toBeUndefined();
  return body.data.lot.bidLog.entries;
}

describe('BidLog.entriesConnection', () => {
  it('pages forwards and backwards over the chain in its order, counting it all', async () => {
    const all = (await oldOf(world.platform)).map((e) => String(e.seq));
    expect(all).toEqual(['1', '2', '3', '4', '5']);
    await expectWalksBothWays((args) => pageOf(world.platform, args), (page) => page.edges.map((e) => String(e.node.seq)), all, 2, { countBackwards: true });
  });

  it('shows each caller the entries as the old list does: the bidder, another platform’s staff, anonymous', async () => {
    for (const who of [world.platform, world.bidder.keypair, world.otherAdmin.keypair, null]) {
      const seen = await oldOf(who);
      const page = await pageOf(who, 'first: 100');
      expect(page.nodes).toEqual(seen);
      expect(page.totalCount).toBe(seen.length);
    }
    expect((await pageOf(null, 'first: 100')).nodes.every((e) => e.bidderId === null)).toBe(true);
  });

  it('refuses another lot’s cursor and a made-up one, naming the argument', async () => {
    const foreign = (await pageOf(null, 'first: 1', world.otherLotId)).edges[0].cursor;
    const forged = Buffer.from(`c1\u0000BidLog:${world.lotId}.entries\u000099`).toString('base64url');
    for (const cursor of [foreign, forged, '1']) {
      for (const arg of ['after', 'before']) {
        const body = await logOf(null, world.lotId, `entriesConnection(${arg === 'after' ? 'first' : 'last'}: 1, ${arg}: "${cursor}") { totalCount }`);
        expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
      }
    }
  });

  it('refuses first and last outside 1 to 100, naming the argument', async () => {
    for (const [arg, size] of [['first', 0], ['first', 101], ['last', 0], ['last', 101]] as const) {
      const body = await logOf(null, world.lotId, `entriesConnection(${arg}: ${size}) { totalCount }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('answers with `last: n` what the old list’s `last: n` answered', async () => {
    const body = await logOf(null, world.lotId, `entries(last: 2) { seq } entriesConnection(last: 2) { nodes { seq } }`);
    expect(body.data.lot.bidLog.entriesConnection.nodes).toEqual(body.data.lot.bidLog.entries);
  });

  it('runs the same statements for a page of one entry and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: ConnectionPage | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(null, `first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});
