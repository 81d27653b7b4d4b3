import { Keypair } from '@stellar/stellar-sdk';
import { fetchAndVerifyBidLog } from '../../src/cli/bid-log';
import { entryHash, headMessage, requestDigestOf } from '../../src/modules/bidlog/bidlog.chain';
import { verifyBidLog, type ServedLog, type ServedLot } from '../../src/modules/bidlog/bidlog.verify';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { signHeaders } from '../helpers/client';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { chooseWinner, closeLot } from '../trading/trading.helpers';

const world = appWithPlatform({ accounts: 3 });
const em = () => world.t.orm.em.fork();
const exec = (text: string, params: unknown[] = []) => em().getConnection().execute(text, params);

async function auction(): Promise<string> {
  const lot = await createLot(world.t, world.platform, ENG_LOT);
  const fork = em();
  for (const a of world.accounts) fork.create(Participant, { lotId: lot.id, accountId: a.id, state: ParticipantState.Pending });
  await fork.flush();
  return lot.id;
}

/** Places a bid signed by `who` and answers the digest of its signature, as the bidder keeps it. */
async function bid(who: Keypair, lotId: string, attributes: Record<string, unknown>): Promise<string> {
  const target = `/lots/${lotId}/bid_requests`;
  const body = { data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), ...attributes } } };
  const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
  signHeaders('POST', target, headers, Buffer.from(JSON.stringify(body)), { keypair: who });
  const res = await world.t.client.request('POST', target, { body, headers });
  if (res.status !== 204) throw new Error(`bid refused: ${res.status} ${res.text}`);
  const signature = /signature="([^"]+)"/.exec(headers.signature)?.[1] as string;
  return requestDigestOf(Buffer.from(signature, 'base64'));
}

/** A lot with a history (an own bid, a max bid, a proxy raise), a winner, closed sold; the digests of the bids' requests. */
async function closedLot(): Promise<{ lotId: string; digests: string[] }> {
  const lotId = await auction();
  const [a, b] = world.accounts;
  const digests = [await bid(a.keypair, lotId, { amount: '1000' }), await bid(b.keypair, lotId, { max_amount: '3000' }), await bid(a.keypair, lotId, { amount: '1500' })];
  const winner = await em().findOneOrFail(Participant, { lotId, accountId: b.id });
  expect((await chooseWinner(world.t, world.platform, lotId, winner)).status).toBe(200);
  expect((await closeLot(world.t, world.platform, lotId, 'sold')).status).toBe(200);
  return { lotId, digests };
}

async function served(lotId: string, who?: Keypair): Promise<{ log: ServedLog; lot: ServedLot }> {
  const client = who ? world.t.client.as(who) : world.t.client;
  const log = await client.get(`/lots/${lotId}/bid_log`);
  expect(log.status).toBe(200);
  const lot = (await client.get(`/lots/${lotId}`)).body.data;
  return { log: log.body.data.attributes, lot: { id: lot.id, ...lot.attributes } };
}

const verify = async (lotId: string) => fetchAndVerifyBidLog(world.t.baseUrl, lotId, { signer: world.t.master.publicKey() });

describe('GET /lots/{id}/bid_log', () => {
  it('chains every accepted bid, the proxy raises citing the max bid request, and signs the head at the close', async () => {
    const { lotId, digests } = await closedLot();
    const { log } = await served(lotId);
    expect(log.entries.map((e) => `${e.amount}${e.by_proxy ? '*' : ''}`)).toEqual(['1000.00', '1050.00', '1500.00', '1550.00*']);
    expect(log.entries.map((e) => e.request_digest)).toEqual([digests[0], digests[1], digests[2], digests[1]]);
    expect(log.entries.every((e) => e.bidder_id === null && e.bidder_salt === null)).toBe(true);
    expect(log.head).toMatchObject({ entries: 4, highest_bid: '1550.00', winner_id: world.accounts[1].id, winner_seq: 4, lot_state: 'sold', signer: world.t.master.publicKey() });
    const bids = await exec('select count(*)::int as n from bids where lot_id = ?', [lotId]);
    expect(bids[0].n).toBe(4);

    const result = await verify(lotId);
    expect(result).toMatchObject({ ok: true, problems: [], entries: 4, signed: true, winnerIsTopBidder: true });
  });

  it('names the bidder only to itself and the lot managers, with the salt that opens its commitment', async () => {
    const { lotId } = await closedLot();
    const mine = (await served(lotId, world.accounts[0].keypair)).log.entries;
    expect(mine.map((e) => e.bidder_id)).toEqual([world.accounts[0].id, null, world.accounts[0].id, null]);
    const staff = (await served(lotId, world.platform)).log.entries;
    expect(staff.map((e) => e.bidder_id)).toEqual([world.accounts[0].id, world.accounts[1].id, world.accounts[0].id, world.accounts[1].id]);
    const { lot, log } = await served(lotId, world.platform);
    expect(verifyBidLog(log, lot).ok).toBe(true);
  });

  it('lets a bidder prove its bid is in the chain with its request digest', async () => {
    const { lotId, digests } = await closedLot();
    expect((await fetchAndVerifyBidLog(world.t.baseUrl, lotId, { requestDigest: digests[2] })).proof).toEqual({ seq: 3, bidId: expect.any(String) });
    const stranger = await fetchAndVerifyBidLog(world.t.baseUrl, lotId, { requestDigest: 'ab'.repeat(32) });
    expect(stranger.ok).toBe(false);
    expect(stranger.problems).toEqual([`no entry cites the request digest ${'ab'.repeat(32)}`]);
  });

  it('keeps one entry per bid, chained in order, when bids race on the lot', async () => {
    const lotId = await auction();
    const amounts = [1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800];
    await Promise.allSettled(amounts.map((a, i) => bid(world.accounts[i % 3].keypair, lotId, { amount: String(a) })));
    const [counts] = await exec('select (select count(*)::int from bids where lot_id = ?) as bids, (select count(*)::int from bid_log where lot_id = ?) as entries', [lotId, lotId]);
    expect(counts.entries).toBe(counts.bids);
    expect(counts.bids).toBeGreaterThan(0);
    expect(await verify(lotId)).toMatchObject({ ok: true, entries: counts.bids });
  });

  it('serves an open lot unsigned, and 404 for no lot', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { amount: '1000' });
    const result = await verify(lotId);
    expect(result).toMatchObject({ ok: true, entries: 1, signed: false });
    expect((await world.t.client.get('/lots/999999/bid_log')).status).toBe(404);
  });

  it('is GraphQL Lot.bidLog too', async () => {
    const { lotId } = await closedLot();
    const res = await world.t.client.graphql(`query($id: ID!) { lot(id: $id) { bidLog { entries { seq amount byProxy hash bidderId } head { entries head signature winnerSeq } signer } } }`, { id: lotId });
    expect(res.body.errors).toBeUndefined();
    const { log } = await served(lotId);
    expect(res.body.data.lot.bidLog.entries).toEqual(log.entries.map((e) => ({ seq: e.seq, amount: e.amount, byProxy: e.by_proxy, hash: e.hash, bidderId: null })));
    expect(res.body.data.lot.bidLog.head).toEqual({ entries: 4, head: log.head?.head, signature: log.head?.signature, winnerSeq: 4 });
  });
});

describe('the verifier catches', () => {
  it('a tampered stored entry (the bid amount changed in the database)', async () => {
    const { lotId } = await closedLot();
    await exec(`update bids set amount = 1100 where id = (select bid_id from bid_log where lot_id = ? and seq = 2)`, [lotId]);
    const result = await verify(lotId);
    expect(result.ok).toBe(false);
    expect(result.problems).toContain(`entry 2 (bid ${(await served(lotId)).log.entries[1].bid_id}) does not hash to its stored hash over the previous entry`);
  });

  it('two entries reordered', async () => {
    const { lotId } = await closedLot();
    for (const [from, to] of [[2, 0], [3, 2], [0, 3]]) await exec(`update bid_log set seq = ? where lot_id = ? and seq = ?`, [to, lotId, from]);
    const result = await verify(lotId);
    expect(result.ok).toBe(false);
    expect(result.problems.filter((p) => p.includes('does not hash'))).toHaveLength(3);
  });

  it('a dropped entry', async () => {
    const { lotId } = await closedLot();
    await exec(`delete from bid_log where lot_id = ? and seq = 2`, [lotId]);
    const result = await verify(lotId);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual(expect.arrayContaining(['entry 2 has seq 3', 'the head counts 4 entries, the log has 3']));
  });

  it('a forged head: rehashed by someone without the master key', async () => {
    const { lotId } = await closedLot();
    await exec(`update bids set amount = 1600 where id = (select bid_id from bid_log where lot_id = ? and seq = 4)`, [lotId]);
    await exec(`update lots set highest_bid = 1600 where id = ?`, [lotId]);
    const { log, lot } = await served(lotId);
    // The forger recomputes the last hash over the new amount and re-signs the head with its own key.
    const forged = { ...log, entries: log.entries.map((e) => ({ ...e })) };
    const last = forged.entries[3];
    last.hash = entryHash({ seq: 4, bidId: last.bid_id, lotId, amount: last.amount, createdAt: last.created_at, byProxy: last.by_proxy, requestDigest: last.request_digest, bidderCommitment: last.bidder_commitment, previous: forged.entries[2].hash });
    const own = Keypair.random();
    const head = { ...(forged.head as NonNullable<ServedLog['head']>), head: last.hash, highest_bid: '1600.00', signer: own.publicKey() };
    head.signature = own
      .sign(headMessage({ lotId, entries: 4, head: head.head, highestBid: '1600.00', winnerId: head.winner_id, winnerSeq: head.winner_seq, winnerSalt: head.winner_salt, lotState: head.lot_state, signedAt: head.signed_at }))
      .toString('base64');
    forged.head = head;
    forged.signer = own.publicKey();
    expect(verifyBidLog(forged, lot, { signer: world.t.master.publicKey() }).problems).toEqual([
      `the head is signed by ${own.publicKey()}, not ${world.t.master.publicKey()}`,
      "the head's signature does not verify",
    ]);
    // The head kept by the service, its signature replaced by garbage, fails too.
    await exec(`update bid_log_heads set signature = ? where lot_id = ?`, [Buffer.alloc(64, 1).toString('base64'), lotId]);
    expect((await verify(lotId)).problems).toContain("the head's signature does not verify");
  });

  it("a lot whose highest_bid or winner is not the chain's", async () => {
    const { lotId } = await closedLot();
    await exec(`update lots set highest_bid = 9999, winner_id = ? where id = ?`, [world.accounts[0].id, lotId]);
    const problems = (await verify(lotId)).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        "the lot's highest_bid 9999.00 is not the chain's 1550.00",
        `the lot's winner ${world.accounts[0].id} is not the head's ${world.accounts[1].id}`,
      ]),
    );
  });
});
