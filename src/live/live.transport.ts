import { randomUUID } from 'node:crypto';
import { PubSub, type PubSubEngine } from 'graphql-subscriptions';
import type { Config } from '../config';
import { loggable } from '../core/loggable';
import type { Logger } from '../core/logger';
import { ReadyGate } from './ready-gate';

/** A JSON-able message handler; returns nothing, never throws to the transport. */
export type Handler = (payload: unknown) => void;

/**
 * Where live events travel: in this process only, or through Redis to every instance. A message
 * published once reaches each subscriber of every instance once (the publishing instance hears
 * it back from Redis like the others), so an event is published once per commit. LiveBus holds
 * one subscription per channel, whatever the number of listeners behind it.
 */
export interface LiveTransport {
  publish(channel: string, payload: object): Promise<void>;
  /** Resolves once the subscription is active, with the function that ends it. */
  subscribe(channel: string, fn: Handler): Promise<() => void>;
  close(): Promise<void>;
  /**
   * Calls `fn` whenever the active subscriptions were cut off (the connection to Redis was lost):
   * messages published until they are back never reach them. Absent when that cannot happen.
   */
  onInterrupted?(fn: () => void): void;
}

/** Runs the commands of one connection in the order they are given (see ReadyGate). */
type InOrder = <T>(command: () => Promise<T>) => Promise<T>;

const atOnce: InOrder = (command) => command();

/**
 * Events held for Redis while it is out of reach, at most (the newest are kept). At a few hundred
 * bytes each, some megabytes: subscribers lose nothing by the others, since every subscription was
 * ended with `live_interrupted` and `bidPlaced` resumes from the database.
 */
const MAX_HELD_EVENTS = 10_000;

/**
 * The fields that name a message's publisher and its number among that publisher's messages. Once
 * it has reconnected, ioredis sends again every command whose answer the lost connection never
 * brought: a PUBLISH that Redis ran and delivered before the connection broke reached the
 * subscribers twice. A subscription drops a message numbered at most the last it took from the
 * same publisher, whose messages reach it in the order they were published.
 */
const FROM = '_live_from';
const NUMBER = '_live_n';
const PUBLISHER = /^[0-9a-f-]{36}$/;

/**
 * How far behind the last number a message counts as sent again: a resent PUBLISH was unanswered
 * when its connection broke, a few behind. One further behind is taken (and the count starts from
 * it), so that a number forged far ahead (anyone who can publish on Redis can) silences its
 * publisher for this many messages at most.
 */
const RESENT_WITHIN = 10_000;

/** The publishers a subscription keeps the last number of: the least recently heard is forgotten first. */
const PUBLISHERS_KEPT = 1024;

/** A JSON object, which a stamp can be added to: whatever else arrives (from anyone who can publish on Redis) passes as it is. */
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Numbers what one publisher publishes. */
function stamper(): (payload: object) => object {
  const from = randomUUID();
  let sent = 0;
  return (payload) => (isRecord(payload) ? { ...payload, [FROM]: from, [NUMBER]: ++sent } : payload);
}

/** `fn` for each message once: a message numbered a little behind the last one taken from its publisher is dropped, and the stamp removed. */
function onceEach(fn: Handler): Handler {
  const last = new Map<string, number>();
  return (message) => {
    if (!isRecord(message)) return fn(message);
    const { [FROM]: from, [NUMBER]: n, ...payload } = message;
    if (typeof from !== 'string' || !PUBLISHER.test(from) || !Number.isSafeInteger(n) || (n as number) < 1) return fn(payload);
    const before = last.get(from);
    if (before !== undefined && (n as number) <= before && before - (n as number) <= RESENT_WITHIN) return;
    last.delete(from);
    last.set(from, n as number);
    if (last.size > PUBLISHERS_KEPT) last.delete(last.keys().next().value as string);
    fn(payload);
  };
}

class EngineTransport implements LiveTransport {
  constructor(
    private readonly engine: PubSubEngine,
    private readonly prefix: string,
    private readonly onClose: () => Promise<void>,
    private readonly order: { publish: (command: () => Promise<void>) => Promise<void>; subscriptions: InOrder } = { publish: atOnce, subscriptions: atOnce },
    readonly onInterrupted?: (fn: () => void) => void,
    /** Numbers each message, for a transport that may deliver one twice. */
    private readonly stamp?: (payload: object) => object,
  ) {}

  publish(channel: string, payload: object): Promise<void> {
    // Numbered when given, not when sent: the gate and ioredis send in that order.
    const message = this.stamp ? this.stamp(payload) : payload;
    return this.order.publish(() => this.engine.publish(this.prefix + channel, message));
  }

  async subscribe(channel: string, fn: Handler): Promise<() => void> {
    const handler = this.stamp ? onceEach(fn) : fn;
    const id = await this.order.subscriptions(() => this.engine.subscribe(this.prefix + channel, handler, {}));
    let active = true;
    return () => {
      // Held when the connection closes for good, it has nothing left to end.
      if (active) this.order.subscriptions(async () => this.engine.unsubscribe(id)).catch(() => undefined);
      active = false;
    };
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** One process: graphql-subscriptions' in-memory PubSub. */
export function memoryTransport(): LiveTransport {
  return new EngineTransport(new PubSub(), '', async () => {});
}

/**
 * Across instances (REDIS_URL): graphql-redis-subscriptions over two ioredis connections (a
 * subscribing connection can do nothing else). Channels carry REDIS_PREFIX, so that several
 * deployments (or test runs) can share one Redis.
 */
export function redisTransport(url: string, prefix: string, log: Logger, maxHeld = MAX_HELD_EVENTS): LiveTransport {
  // ioredis (some 55 modules) is loaded by the instances that use Redis only.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const { RedisPubSub } = require('graphql-redis-subscriptions') as typeof import('graphql-redis-subscriptions');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const connect = (role: string) => {
    const client = new Redis(url, { maxRetriesPerRequest: null });
    client.on('error', (err: Error) => log.warn({ err: loggable(err), role }, 'redis connection error'));
    return client;
  };
  const publisher = connect('publisher');
  const subscriber = connect('subscriber');
  const engine = new RedisPubSub({ publisher, subscriber });
  const gates = {
    publisher: new ReadyGate(publisher, {
      max: maxHeld,
      dropped: (count) => log.warn({ dropped: count, kept: maxHeld }, 'live events published while Redis was out of reach were dropped, the oldest first: subscribers read what they missed from the database'),
    }),
    subscriber: new ReadyGate(subscriber),
  };
  return new EngineTransport(
    engine,
    prefix,
    async () => {
      gates.publisher.close();
      gates.subscriber.close();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
    { publish: (command) => gates.publisher.publish(command), subscriptions: (command) => gates.subscriber.run(command) },
    // ioredis subscribes again once it reconnects, but what was published in between is gone.
    (fn) => subscriber.on('close', fn),
    stamper(),
  );
}

export function createTransport(config: Pick<Config, 'REDIS_URL' | 'REDIS_PREFIX'>, log: Logger): LiveTransport {
  return config.REDIS_URL ? redisTransport(config.REDIS_URL, config.REDIS_PREFIX, log) : memoryTransport();
}

