import { LiveBus } from '../../src/live/live.bus';
import { memoryTransport, type Handler, type LiveTransport } from '../../src/live/live.transport';

/** The in-memory transport, counting its active subscriptions and sending payloads as Redis would: JSON. */
function countingTransport() {
  const inner = memoryTransport();
  const active = new Map<string, number>();
  const transport: LiveTransport = {
    publish: (channel, payload) => inner.publish(channel, JSON.parse(JSON.stringify(payload)) as object),
    async subscribe(channel: string, fn: Handler) {
      const end = await inner.subscribe(channel, fn);
      active.set(channel, (active.get(channel) ?? 0) + 1);
      return () => {
        active.set(channel, (active.get(channel) ?? 0) - 1);
        end();
      };
    },
    close: () => inner.close(),
  };
  return { transport, active };
}

const bid = (id: string) => ({ id, lotId: '7', amount: '1.00', highestBid: '1.00', bidderId: 'b', placedByProxy: false, createdAt: new Date('2026-01-02T03:04:05Z') });

describe('LiveBus', () => {
  it('holds one transport subscription per channel, and ends it with its last listener', async () => {
    const { transport, active } = countingTransport();
    const bus = new LiveBus(transport);
    const offs = await Promise.all([1, 2, 3].map(() => bus.onBid('7', () => undefined)));
    expect(active.get('bid.7')).toBe(1);
    offs[0]();
    offs[0]();
    offs[1]();
    expect(active.get('bid.7')).toBe(1);
    offs[2]();
    await new Promise((r) => setImmediate(r));
    expect(active.get('bid.7')).toBe(0);
    const again = await bus.onBid('7', () => undefined);
    expect(active.get('bid.7')).toBe(1);
    again();
  });

  it("gives a message's listeners one revived event and one key, and each message a key of its own", async () => {
    const { transport } = countingTransport();
    const bus = new LiveBus(transport);
    const heard: { event: unknown; message: string }[] = [];
    const offs = await Promise.all([1, 2].map(() => bus.onBid('7', (event, message) => heard.push({ event, message }))));
    bus.publishBid(bid('1'));
    bus.publishBid(bid('2'));
    await new Promise((r) => setImmediate(r));
    expect(heard).toHaveLength(4);
    expect(heard[0].event).toBe(heard[1].event);
    expect(heard[0].message).toBe(heard[1].message);
    expect(heard[2].message).not.toBe(heard[0].message);
    expect(heard[0].event).toEqual(bid('1'));
    offs.forEach((off) => off());
  });

  it('keeps delivering to the other listeners when one throws', async () => {
    const bus = new LiveBus(countingTransport().transport);
    const heard: string[] = [];
    const offs = [
      await bus.onLotChanged('7', () => {
        throw new Error('listener failed');
      }),
      await bus.onLotChanged('7', (e) => heard.push(e.lotId)),
    ];
    bus.publishLotChanged('7');
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual(['7']);
    offs.forEach((off) => off());
  });
});
