import type { BidPlacedEvent } from '../../src/live/live.topics';
import { PUSHES_PER_TURN, ReplayTurns } from '../../src/modules/live/live.replay';

const bidsFrom = (first: number, count: number): BidPlacedEvent[] =>
  Array.from({ length: count }, (_, i) => ({ id: String(first + i), lotId: '1', amount: '1.00', highestBid: '1.00', bidderId: 'G', placedByProxy: false, createdAt: new Date(0) }));

/** Counts, for each pass of the event loop while `work` runs, the bids pushed since the last: a setImmediate of its own marks each pass. */
async function pushesPerPass(work: (pushed: () => void) => Promise<unknown>): Promise<number[]> {
  const passes = [0];
  let running = true;
  const mark = () => {
    if (!running) return;
    passes.push(0);
    setImmediate(mark);
  };
  setImmediate(mark);
  await work(() => passes[passes.length - 1]++);
  running = false;
  return passes.filter((n) => n > 0);
}

describe('ReplayTurns', () => {
  it('pushes at most PUSHES_PER_TURN bids of all replays together between two passes of the event loop, each replay whole and in order', async () => {
    const turns = new ReplayTurns();
    const replays = 60;
    const received: string[][] = Array.from({ length: replays }, () => []);
    const passes = await pushesPerPass((pushed) =>
      Promise.all(
        received.map((ids) =>
          turns.push(bidsFrom(1, 100), (e) => {
            ids.push(e.id);
            pushed();
          }, () => false),
        ),
      ),
    );
    expect(received.every((ids) => ids.join() === bidsFrom(1, 100).map((e) => e.id).join())).toBe(true);
    expect(passes.reduce((a, b) => a + b, 0)).toBe(replays * 100);
    expect(Math.max(...passes)).toBeLessThanOrEqual(PUSHES_PER_TURN);
  });

  it('serves first the replays furthest behind, so that subscribers who came later catch up with the others', async () => {
    const turns = new ReplayTurns();
    // More replays behind than a turn serves a chunk each.
    const behind = Math.ceil((2 * PUSHES_PER_TURN) / 25);
    let behindAt199 = 0;
    let behindAt199WhenAheadStarted = -1;
    const ahead = turns.push(bidsFrom(200, 50), (e) => {
      if (e.id === '200') behindAt199WhenAheadStarted = behindAt199;
    }, () => false);
    const late = Array.from({ length: behind }, () =>
      turns.push(bidsFrom(1, 250), (e) => {
        if (e.id === '199') behindAt199++;
      }, () => false),
    );
    await Promise.all([ahead, ...late]);
    expect(behindAt199WhenAheadStarted).toBe(behind);
  });

  it('stops a replay whose stream ended, answering false, and fails one whose push throws, without stopping the others', async () => {
    const turns = new ReplayTurns();
    let ended = false;
    let stoppedAt = 0;
    const stopped = turns.push(bidsFrom(1, 200), (e) => {
      stoppedAt = Number(e.id);
      if (stoppedAt === 30) ended = true;
    }, () => ended);
    const failing = turns.push(bidsFrom(1, 200), (e) => {
      if (e.id === '60') throw new Error('the socket went away');
    }, () => false);
    const whole: string[] = [];
    const other = turns.push(bidsFrom(1, 200), (e) => whole.push(e.id), () => false);
    await expect(stopped).resolves.toBe(false);
    await expect(failing).rejects.toThrow('the socket went away');
    await expect(other).resolves.toBe(true);
    expect(stoppedAt).toBeLessThan(200);
    expect(whole).toHaveLength(200);
  });
});
