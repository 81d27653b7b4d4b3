import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BID_PLACED, auction, bid, probeBid, ready, socketsClosedAfterEach } from '../live/support';
import { startTestApp } from '../helpers/app';
import { appWithPlatform } from '../helpers/world';

const TOKEN = 'metrics-token-for-the-tests';
const HEAP_AFTER_GC = 'auction_nodejs_heap_used_after_full_gc_bytes';
const world = appWithPlatform({ accounts: 2, env: { METRICS_TOKEN: TOKEN, JOBS: 'on' } });
const sockets = socketsClosedAfterEach();

/** The metrics as a loopback scraper reads them. */
async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const res = await world.t.client.get('/metrics', { headers: { accept: 'text/plain', ...headers } });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${res.text}`);
  return res.text;
}

/** The value of one sample, by its name and labels as printed (`name{a="b"}`); null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('answers the Prometheus text format to a loopback caller', async () => {
    const res = await world.t.client.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE auction_http_request_duration_seconds histogram');
    expect(res.text).toContain('# TYPE auction_process_resident_memory_bytes gauge');
  });

  it('times requests by route pattern and status, not by raw path', async () => {
    await world.t.client.get('/lots/123456');
    await world.t.client.get('/lots/654321');
    await world.t.client.get('/no/such/route');
    const text = await scrape();
    expect(sample(text, 'auction_http_request_duration_seconds_count{method="GET",route="/lots/:id",status="404"}')).toBe(2);
    expect(sample(text, 'auction_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toContain('route="/lots/123456"');
  });

  it('labels a request by the route that answered it, not by a later route whose pattern the path matches too', async () => {
    // GET /lots/count also matches /lots/:id; the route that answers is /lots/count.
    expect((await world.t.client.get('/lots/count')).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'auction_http_request_duration_seconds_count{method="GET",route="/lots/count",status="200"}')).toBe(1);
  });

  it('counts bids accepted and refused by code, and the sizes and times of their rounds', async () => {
    const [a, b] = world.accounts;
    const lotId = await auction(world.t, world.platform, [a.id, b.id]);
    const started = performance.now();
    await bid(world.t, a.keypair, lotId, { amount: '1000' });
    const low = await world.t.client.as(b.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: '1000' } } });
    expect(low.status).toBe(400);
    const text = await scrape();
    expect(sample(text, 'auction_bid_requests_total{outcome="accepted",code=""}')).toBe(1);
    expect(sample(text, 'auction_bid_requests_total{outcome="refused",code="bid_too_low"}')).toBe(1);
    expect(sample(text, 'auction_bids_placed_total')).toBe(1);
    expect(sample(text, 'auction_bid_round_size_count')).toBe(2);
    expect(sample(text, 'auction_bid_round_size_sum')).toBe(2);
    // Each round took some time, all of it within the test's.
    expect(sample(text, 'auction_bid_round_seconds_count')).toBe(2);
    expect(sample(text, 'auction_bid_round_seconds_sum')).toBeGreaterThan(0);
    expect(sample(text, 'auction_bid_round_seconds_sum')).toBeLessThan((performance.now() - started) / 1000);
  });

  it('reports sockets, subscriptions and deliveries of the live feeds', async () => {
    const before = await scrape();
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id]);
    const socket = await sockets.openFor(world.t);
    const feed = socket.subscribe(BID_PLACED, { lotId });
    await ready(feed, () => world.t.app.services.live.publishBid(probeBid(lotId)));
    await bid(world.t, world.accounts[0].keypair, lotId, { amount: '1000' });
    await feed.take(1);
    const text = await scrape();
    expect(sample(text, 'auction_live_sockets')).toBe(1);
    expect(sample(text, 'auction_live_subscriptions')).toBeGreaterThan(sample(before, 'auction_live_subscriptions')!);
    // The probes and the bid, each delivered once to this one socket.
    expect(sample(text, 'auction_live_deliveries_total')!).toBeGreaterThanOrEqual(sample(before, 'auction_live_deliveries_total')! + 2);
  });

  it('reports the job queues and the database pool', async () => {
    // The cleanup job queues its next run as it starts: between the queue's handing it over and
    // that send, the queue holds none (a moment that lasted past a scrape on a loaded machine).
    const cleanupQueued = (text: string) => (sample(text, 'auction_job_queue_depth{queue="cleanup"}') ?? 0) >= 1;
    let text = await scrape();
    for (const deadline = Date.now() + 10_000; !cleanupQueued(text) && Date.now() < deadline; text = await scrape()) await sleep(200);
    expect(sample(text, 'auction_job_queue_depth{queue="cleanup"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'auction_db_pool_connections{state="used"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'auction_db_pool_connections{state="free"}')! + sample(text, 'auction_db_pool_connections{state="used"}')!).toBeGreaterThan(0);
    expect(sample(text, 'auction_db_pool_connections{state="pending"}')).toBe(0);
  });

  it('reports the heap the live objects take after the latest full collection', async () => {
    // A full collection on demand, as `node --expose-gc` gives it; the observer hears of it a turn later.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collected = async () => {
      gc();
      await sleep(50);
      return sample(await scrape(), HEAP_AFTER_GC)!;
    };
    const kept: { objects?: { i: number }[] } = { objects: Array.from({ length: 2_000_000 }, (_, i) => ({ i })) };
    const holding = await collected();
    delete kept.objects;
    const released = await collected();
    expect(released).toBeGreaterThan(0);
    // Two million small objects and their array: some 75 MB here, which the second collection freed.
    expect(holding - released).toBeGreaterThan(25 * 1024 * 1024);
  });

  it('needs the METRICS_TOKEN from a caller that is not loopback (a forwarded request is not)', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const none = await world.t.client.get('/metrics', { headers: forwarded });
    expect(none.status).toBe(401);
    expect(none.body.errors[0]).toMatchObject({ status: '401', code: 'unauthenticated' });
    const wrong = await world.t.client.get('/metrics', { headers: { ...forwarded, authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.status).toBe(401);
    expect((await world.t.client.get('/metrics', { headers: { ...forwarded, authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('is loopback-only without a METRICS_TOKEN', async () => {
    const other = await startTestApp();
    try {
      const res = await other.client.get('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ status: '403', code: 'local_only' });
      expect((await other.client.get('/metrics')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
