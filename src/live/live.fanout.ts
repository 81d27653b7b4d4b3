import { createSourceEventStream, execute, getOperationAST, Kind, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { isContextFree } from './context-free';
import { LiveStream } from './live.stream';
import { FrameWriter, nextFrame } from './ws-frames';

/** One event executed for one operation key: its `next` payload as UTF-8 JSON once it is known. */
interface Result {
  json: Buffer | null;
  error: unknown;
  /** The targets waiting for it (type-graphql resolvers with arguments answer asynchronously). */
  waiting: Target[] | null;
}

/** Where one subscription delivers, as graphql-ws would: its socket and id. */
interface Target {
  socket: WebSocket;
  /** The network socket under `socket`, which its frames are written to. */
  raw: Socket;
  /** The message up to its payload: `{"id":…,"type":"next","payload":`. */
  prefix: Buffer;
  /** The operation, its name and variables: subscriptions with equal keys get equal results. */
  operation: string;
  stream: LiveStream<object> | null;
  /** Results not sent yet because an earlier one is still executing: messages keep the events' order. */
  queue: Result[];
  /** Called once the queue is empty: the stream's end waits for the results before it. */
  drained: (() => void) | null;
}

export interface SubscribePayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * Events whose results are kept for other subscribers. The listeners of one message are called
 * one after the other, so a result is shared within a few events at most; the bound only keeps
 * the memory of a long stream of events flat.
 */
const EVENTS_KEPT = 64;

/**
 * The delivery of subscriptions over graphql-ws, plugged in as its `subscribe`.
 *
 * A context-free subscription (see CONTEXT_FREE) reaches thousands of sockets: each event is
 * executed and serialised once per operation key and event key (the key its stream pushed it
 * with), then each socket gets that JSON as one ready WebSocket frame with its subscription's id
 * (FrameWriter), with no execution, promise, string or copy of the event per subscriber. The
 * stream returned to graphql-ws yields nothing (the messages are sent as graphql-ws sends them,
 * `next` with the subscription's id), and ends or fails as the LiveStream does, so that
 * graphql-ws still sends `complete` or `error` and ends it when the client stops.
 *
 * Any other subscription is delivered the same way, except that its results depend on who
 * subscribed: they are shared by the subscribers whose contexts give one `viewerOf` key (the
 * anonymous ones alike, an account with itself), so that a lot change reaching 500 anonymous
 * `lotUpdated` subscribers of one selection executes and serialises once, not 500 times. Each
 * execution has a context of its own (`eventContext`): a subscription's context outlives many
 * events, and a resolver reading through it must see each event as a request would, with
 * nothing to reset. An event pushed without key is executed for its subscriber alone.
 *
 * A stream's end or failure reaches graphql-ws after the results delivered before it were sent.
 */
export class LiveFanout {
  /** Per event key: per operation key, its result. */
  private readonly results = new Map<string, Map<string, Result>>();
  /** Per context key: where the subscription being set up delivers, until `subscribe` takes it. */
  private readonly targets = new Map<string, Target>();
  private readonly frames = new FrameWriter();
  /** Executions of an event for an operation (once per operation key, viewer and event key, or per subscriber for an event without key). */
  executions = 0;

  /**
   * @param shape the payload of a `next` message for a result (errors formatted as elsewhere)
   * @param accepts whether the socket may be sent more (false once it is being closed)
   * @param keyOf the key of a subscription's context, unique among those being set up
   * @param eventContext the context one event of a subscription executes with
   * @param viewerOf what of a subscription's context its results depend on: subscribers whose
   *   contexts give equal keys see equal results of one operation and event
   */
  constructor(
    private readonly shape: (result: ExecutionResult) => unknown,
    private readonly accepts: (socket: WebSocket) => boolean,
    private readonly keyOf: (contextValue: unknown) => string,
    private readonly eventContext: (contextValue: unknown) => unknown,
    private readonly viewerOf: (contextValue: unknown) => string,
  ) {}

  /**
   * Records where the operation run with this context delivers: the WebSocket, and the network
   * socket under it, the upgrade request's `socket` (graphql-ws's `extra.request.socket`).
   */
  register(contextValue: unknown, socket: WebSocket, raw: Socket, id: string, payload: SubscribePayload): void {
    this.targets.set(this.keyOf(contextValue), {
      socket,
      raw,
      prefix: Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`),
      operation: `${payload.operationName ?? ''}\n${JSON.stringify(payload.variables ?? {})}\n${payload.query}`,
      stream: null,
      queue: [],
      drained: null,
    });
  }

  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> => {
    const key = this.keyOf(args.contextValue);
    const target = this.targets.get(key);
    this.targets.delete(key);
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    if (!target || !(source instanceof LiveStream)) throw new Error('a subscription must return a LiveStream, and be registered, to be delivered by LiveFanout');
    const stream = source as LiveStream<object>;
    target.stream = stream;
    // A subscription whose fields read the context shares its results with those who see alike.
    const contextFree = isContextFree(rootFieldOf(args));
    if (!contextFree) target.operation = `${this.viewerOf(args.contextValue)}\n${target.operation}`;
    const execution = (): ExecutionArgs => (contextFree ? args : { ...args, contextValue: this.eventContext(args.contextValue) });
    const deliver = (event: object, eventKey: string | null) => this.deliver(target, event, eventKey, execution);
    // Delivery starts when graphql-ws starts to iterate: not for a subscription the client
    // completed while it was being set up.
    const iterator: AsyncIterableIterator<ExecutionResult> = {
      next: () => {
        stream.consume(deliver);
        return (stream.next() as Promise<IteratorResult<ExecutionResult>>).catch((err: unknown) => this.drained(target).then(() => Promise.reject(err)));
      },
      return: () => stream.return(),
      throw: (err: unknown) => stream.throw(err),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  };

  /** Resolves once every result delivered to the target before now was sent (or failed it). */
  private drained(target: Target): Promise<void> {
    if (!target.queue.length) return Promise.resolve();
    return new Promise((resolve) => {
      const before = target.drained;
      target.drained = () => {
        before?.();
        resolve();
      };
    });
  }

  private deliver(target: Target, event: object, eventKey: string | null, args: () => ExecutionArgs): void {
    const result = this.resultOf(event, eventKey, target.operation, args);
    if (target.queue.length === 0 && result.json !== null) {
      this.send(target, result.json);
      return;
    }
    target.queue.push(result);
    if (result.json === null && result.error === null) (result.waiting ??= []).push(target);
    else this.flush(target);
  }

  /** Sends the target's results in order, as far as they are known; a failed one ends its stream. */
  private flush(target: Target): void {
    const { queue } = target;
    let sent = 0;
    for (; sent < queue.length; sent++) {
      const result = queue[sent];
      if (result.error !== null) {
        target.stream?.fail(result.error);
        break;
      }
      if (result.json === null) {
        queue.splice(0, sent);
        return;
      }
      this.send(target, result.json);
    }
    queue.length = 0;
    const drained = target.drained;
    target.drained = null;
    drained?.();
  }

  private send(target: Target, json: Buffer): void {
    if (this.accepts(target.socket)) this.frames.write(target.raw, nextFrame(target.prefix, json));
  }

  private resultOf(event: object, eventKey: string | null, operation: string, args: () => ExecutionArgs): Result {
    if (eventKey === null) return this.execute(event, args);
    let byOperation = this.results.get(eventKey);
    if (!byOperation) {
      if (this.results.size >= EVENTS_KEPT) this.results.delete(this.results.keys().next().value as string);
      byOperation = new Map();
      this.results.set(eventKey, byOperation);
    }
    let result = byOperation.get(operation);
    if (!result) {
      result = this.execute(event, args);
      byOperation.set(operation, result);
    }
    return result;
  }

  private execute(event: object, args: () => ExecutionArgs): Result {
    const result: Result = { json: null, error: null, waiting: null };
    this.executions++;
    try {
      const executed = execute({ ...args(), rootValue: event });
      if (!(executed instanceof Promise)) {
        result.json = Buffer.from(JSON.stringify(this.shape(executed)));
        return result;
      }
      executed
        .then((r) => Buffer.from(JSON.stringify(this.shape(r))))
        .then(
          (json) => this.settle(result, json, null),
          (err: unknown) => this.settle(result, null, err ?? new Error('execution failed')),
        );
    } catch (err) {
      result.error = err ?? new Error('execution failed');
    }
    return result;
  }

  private settle(result: Result, json: Buffer | null, error: unknown): void {
    result.json = json;
    result.error = error;
    const waiting = result.waiting ?? [];
    result.waiting = null;
    for (const target of waiting) this.flush(target);
  }
}

/** The one root field of a subscription operation (validation allows one), if it is not behind a fragment. */
function rootFieldOf(args: ExecutionArgs) {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'subscription') return undefined;
  const [selection] = operation.selectionSet.selections;
  return selection?.kind === Kind.FIELD ? args.schema.getSubscriptionType()?.getFields()[selection.name.value] : undefined;
}
