import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Settled } from '../core/batcher';
import { DomainError } from '../core/errors';
import { heapUsedAfterFullGc, watchFullGc } from './heap-after-gc';

/** What the live delivery reports when asked: open sockets, running subscriptions, and so far messages sent, results executed and replays read. */
export interface LiveFigures {
  sockets: number;
  subscriptions: number;
  deliveries: number;
  executions: number;
  replayReads: number;
}

/** The database pool: connections in use, idle, and callers waiting for one. */
export interface PoolFigures {
  used: number;
  free: number;
  pending: number;
}

type Source<T> = () => T;

/**
 * The service's Prometheus metrics, one registry per app (several apps share a test process).
 * Figures that other parts hold (live delivery, job queue, pool) are read when scraped, through
 * the functions given to `watch…`: those parts only keep answering them.
 */
export class Metrics {
  readonly registry = new Registry();
  private live: Source<LiveFigures> | null = null;
  private queues: Source<Promise<Record<string, number>>> | null = null;
  private pool: Source<PoolFigures> | null = null;

  private readonly latency = new Histogram({
    name: 'auction_http_request_duration_seconds',
    help: 'HTTP request latency, by method, route pattern (not the raw path) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly bidRequests = new Counter({
    name: 'auction_bid_requests_total',
    help: 'Bid requests decided in a round: accepted, or refused with the error code',
    labelNames: ['outcome', 'code'] as const,
    registers: [this.registry],
  });
  private readonly bidsPlaced = new Counter({
    name: 'auction_bids_placed_total',
    help: 'Bids written, automatic raises of max bids included',
    registers: [this.registry],
  });
  private readonly roundSize = new Histogram({
    name: 'auction_bid_round_size',
    help: 'Bid requests decided together in one round under the lot lock',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [this.registry],
  });
  private readonly roundTime = new Histogram({
    name: 'auction_bid_round_seconds',
    help: 'A round of bids, from asking the pool for a connection to its commit answered: the lot stays locked within it',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'auction_' });
    watchFullGc();
    new Gauge({
      name: 'auction_nodejs_heap_used_after_full_gc_bytes',
      help: 'V8 heap in use (young generation aside) right after the latest full collection: the live objects; climbing under a steady load means a leak (0 before the first)',
      registers: [this.registry],
      collect() {
        const bytes = heapUsedAfterFullGc();
        if (bytes !== null) this.set(bytes);
      },
    });
    // `collect` runs with the metric as `this`: the sources are reached through these.
    const live = () => this.live?.() ?? null;
    const queues = () => this.queues?.() ?? null;
    const pool = () => this.pool?.() ?? null;
    new Gauge({
      name: 'auction_live_sockets',
      help: 'Open GraphQL WebSocket connections',
      registers: [this.registry],
      collect() {
        const figures = live();
        if (figures) this.set(figures.sockets);
      },
    });
    new Gauge({
      name: 'auction_live_subscriptions',
      help: 'Running live subscriptions (listeners of the live bus)',
      registers: [this.registry],
      collect() {
        const figures = live();
        if (figures) this.set(figures.subscriptions);
      },
    });
    new Counter({
      name: 'auction_live_deliveries_total',
      help: 'Subscription messages handed to sockets',
      registers: [this.registry],
      collect() {
        const figures = live();
        if (!figures) return;
        this.reset();
        this.inc(figures.deliveries);
      },
    });
    new Counter({
      name: 'auction_live_executions_total',
      help: 'Executions of a live event for subscribers: once per event, selection and visibility shared by its subscribers',
      registers: [this.registry],
      collect() {
        const figures = live();
        if (!figures) return;
        this.reset();
        this.inc(figures.executions);
      },
    });
    new Counter({
      name: 'auction_live_replay_reads_total',
      help: 'Reads of the database for bidPlaced(after:) replays: the replays of a lot asked for together share one',
      registers: [this.registry],
      collect() {
        const figures = live();
        if (!figures) return;
        this.reset();
        this.inc(figures.replayReads);
      },
    });
    new Gauge({
      name: 'auction_job_queue_depth',
      help: 'Jobs waiting in each queue (scheduled ones included); absent when this instance runs no queue',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        const depths = await queues();
        if (!depths) return;
        this.reset();
        for (const [queue, depth] of Object.entries(depths)) this.set({ queue }, depth);
      },
    });
    new Gauge({
      name: 'auction_db_pool_connections',
      help: 'Database pool connections by state: used, free, and pending (callers waiting for one)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        for (const [state, n] of Object.entries(pool() ?? {})) this.set({ state }, n);
      },
    });
  }

  watchLive(source: Source<LiveFigures>): void {
    this.live = source;
  }
  watchQueues(source: Source<Promise<Record<string, number>>>): void {
    this.queues = source;
  }
  watchPool(source: Source<PoolFigures>): void {
    this.pool = source;
  }

  /** `route` is the matched route's pattern (`/lots/:id`); requests that matched none share one label. */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.latency.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  /** One decided round of bids on a lot: each request's outcome, in order, and how long the round took. */
  bidRound(outcomes: readonly Settled<{ bids: readonly unknown[] }>[], seconds: number): void {
    this.roundSize.observe(outcomes.length);
    this.roundTime.observe(seconds);
    for (const outcome of outcomes) {
      if (outcome.ok) {
        this.bidRequests.inc({ outcome: 'accepted', code: '' });
        this.bidsPlaced.inc(outcome.value.bids.length);
      } else {
        this.bidRequests.inc({ outcome: 'refused', code: outcome.error instanceof DomainError ? outcome.error.code : 'internal_error' });
      }
    }
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }
}
