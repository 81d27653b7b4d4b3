import { createSourceEventStream, execute, getOperationAST, Kind, subscribe, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { WebSocket } from 'ws';
import { LiveStream } from './live.stream';

/**
 * Root fields of the subscriptions whose result is a function of the event, the operation and its
 * variables alone: no resolver under them reads the context. What a caller may see is decided
 * before, by the event object itself (LiveFeeds hands each subscriber one of a bid's shared views).
 */
const CONTEXT_FREE = new Set(['bidPlaced']);

/** One event executed for one operation key: its `next` payload as JSON once it is known. */
interface Result {
  json: string | null;
  error: unknown;
  /** The targets waiting for it (type-graphql resolvers with arguments answer asynchronously). */
  waiting: Target[] | null;
}

/** Where one subscription delivers, as graphql-ws would: its socket and id. */
interface Target {
  socket: WebSocket;
  /** The message up to its payload: `{"id":…,"type":"next","payload":`. */
  prefix: string;
  /** The operation, its name and variables: subscriptions with equal keys get equal results. */
  key: string;
  stream: LiveStream<object> | null;
  /** Results not sent yet because an earlier one is still executing: messages keep the events' order. */
  queue: Result[];
}

export interface SubscribePayload {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * The delivery of context-free subscriptions (see CONTEXT_FREE) to thousands of sockets: each
 * event is executed and serialized once per distinct operation key and view, then the same JSON
 * goes to every socket, with no execution, promise or copy of the event per subscriber. It plugs into
 * graphql-ws as its `subscribe`: the stream it returns yields nothing (the messages are sent as
 * graphql-ws sends them, `next` with the subscription's id), and ends or fails as the LiveStream
 * does, so that graphql-ws still sends `complete` or `error` and ends it when the client stops.
 * Other operations run as graphql-ws runs them.
 */
export class LiveFanout {
  /** Per event object: per operation key, its result. */
  private readonly results = new WeakMap<object, Map<string, Result>>();
  private readonly targets = new WeakMap<object, Target>();

  /**
   * @param shape the payload of a `next` message for a result (errors formatted as elsewhere)
   * @param accepts whether the socket may be sent more (false once it is being closed)
   */
  constructor(
    private readonly shape: (result: ExecutionResult) => unknown,
    private readonly accepts: (socket: WebSocket) => boolean,
  ) {}

  /** Records where the operation run with this context value delivers. */
  register(contextValue: object, socket: WebSocket, id: string, payload: SubscribePayload): void {
    this.targets.set(contextValue, {
      socket,
      prefix: `{"id":${JSON.stringify(id)},"type":"next","payload":`,
      key: `${payload.operationName ?? ''}\n${JSON.stringify(payload.variables ?? {})}\n${payload.query}`,
      stream: null,
      queue: [],
    });
  }

  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> => {
    const target = this.targets.get(args.contextValue as object);
    if (!target || !CONTEXT_FREE.has(rootFieldOf(args) ?? '')) return subscribe(args);
    const source = await createSourceEventStream(args);
    if (!(source instanceof LiveStream)) {
      if (Symbol.asyncIterator in source) throw new Error(`${rootFieldOf(args)} must return a LiveStream to be delivered by LiveFanout`);
      return source;
    }
    const stream = source as LiveStream<object>;
    target.stream = stream;
    const deliver = (event: object) => this.deliver(target, event, args);
    // Delivery starts when graphql-ws starts to iterate: not for a subscription the client
    // completed while it was being set up.
    const iterator: AsyncIterableIterator<ExecutionResult> = {
      next: () => {
        stream.consume(deliver);
        return stream.next() as Promise<IteratorResult<ExecutionResult>>;
      },
      return: () => stream.return(),
      throw: (err: unknown) => stream.throw(err),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  };

  private deliver(target: Target, event: object, args: ExecutionArgs): void {
    const result = this.resultOf(event, target.key, args);
    if (target.queue.length === 0 && result.json !== null) {
      if (this.accepts(target.socket)) target.socket.send(target.prefix + result.json + '}');
      return;
    }
    target.queue.push(result);
    if (result.json === null && result.error === null) (result.waiting ??= []).push(target);
    else this.flush(target);
  }

  /** Sends the target's results in order, as far as they are known. */
  private flush(target: Target): void {
    const { queue } = target;
    let sent = 0;
    for (; sent < queue.length; sent++) {
      const result = queue[sent];
      if (result.error !== null) {
        queue.length = 0;
        target.stream?.fail(result.error);
        return;
      }
      if (result.json === null) break;
      if (this.accepts(target.socket)) target.socket.send(target.prefix + result.json + '}');
    }
    queue.splice(0, sent);
  }

  private resultOf(event: object, key: string, args: ExecutionArgs): Result {
    let byKey = this.results.get(event);
    if (!byKey) {
      byKey = new Map();
      this.results.set(event, byKey);
    }
    const known = byKey.get(key);
    if (known) return known;
    const result: Result = { json: null, error: null, waiting: null };
    byKey.set(key, result);
    try {
      const executed = execute({ ...args, rootValue: event });
      if (!(executed instanceof Promise)) {
        result.json = JSON.stringify(this.shape(executed));
        return result;
      }
      executed
        .then((r) => JSON.stringify(this.shape(r)))
        .then(
          (json) => this.settle(result, json, null),
          (err: unknown) => this.settle(result, null, err ?? new Error('execution failed')),
        );
    } catch (err) {
      result.error = err ?? new Error('execution failed');
    }
    return result;
  }

  private settle(result: Result, json: string | null, error: unknown): void {
    result.json = json;
    result.error = error;
    const waiting = result.waiting ?? [];
    result.waiting = null;
    for (const target of waiting) this.flush(target);
  }
}

/** The one root field of a subscription operation (validation allows one), if it is not behind a fragment. */
function rootFieldOf(args: ExecutionArgs): string | null {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'subscription') return null;
  const [selection] = operation.selectionSet.selections;
  return selection?.kind === Kind.FIELD ? selection.name.value : null;
}
